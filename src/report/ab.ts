// The A/B verdict in words, one line per gate: "proxy head vs base: p50 +0.80% [-1.20%, +2.90%],
// within 5.00% → pass (14 blocks, 4 m 10 s)". Every output leads with these lines, and the pipeline's
// progress heading per look says the same figures; the change and the reason are the gate's own
// words (analysis/ab/words.ts), the blocks and wall time are added here. Pure.
import { abChangeText, abReasonText } from './ab-words.ts';
import type { AbGateEvidence, StoppingRecord } from '../results/analysis.ts';

/** Which gate a line is about: the mode, and its profile when the run has several. */
export function abSubject(evidence: AbGateEvidence, withProfile: boolean): string {
  return `${evidence.mode}${withProfile ? ` [${evidence.profile}]` : ''} head vs base`;
}

/** The whole line; `stopping` adds the blocks and the time the run measured. */
export function abLine(evidence: AbGateEvidence, options: { withProfile: boolean; stopping?: StoppingRecord }): string {
  const tail = options.stopping ? ` (${stoppingText(options.stopping)})` : '';
  const decision = evidence.reason === 'continue' ? 'continuing' : `${abReasonText(evidence)} → ${evidence.decision}`;
  return `${abSubject(evidence, options.withProfile)}: ${abChangeText(evidence)}, ${decision}${tail}`;
}

/** "14 blocks, 4 m 10 s". */
export function stoppingText(stopping: StoppingRecord): string {
  return `${stopping.blocks} block${stopping.blocks === 1 ? '' : 's'}, ${formatElapsed(stopping.elapsedS)}`;
}

/** Why measuring stopped, for the line under the verdict. */
export function stoppingReason(stopping: StoppingRecord): string {
  const look = `look ${stopping.look + 1} of ${stopping.looks.length}`;
  switch (stopping.reason) {
    case 'decided':
      return `stopped at ${look}: every gate decided${movedText(stopping)}`;
    case 'gate-failed':
      return `stopped at ${look}: a gate failed the run${movedText(stopping)}`;
    case 'budget-blocks':
      return `stopped at ${look}: the budget's last look (plan.budget.maxBlocks ${stopping.looks[stopping.looks.length - 1]})`;
    case 'budget-time':
      return `stopped at ${look}: plan.budget.maxDuration held no more blocks at the measured pace${movedText(stopping)}`;
    case 'fixed':
      return `load.repetitions ${stopping.blocks}: a fixed number of blocks, one look`;
    case 'cancelled':
      return `stopped at ${look}: cancelled`;
    case 'invalid':
      return `stopped at ${look}: the run is invalid (see invalid repetitions)`;
  }
}

/** "; looks planned at 10, 20, 30, 40 blocks, the time held 10, 20, 33": which looks the budget reached. */
function movedText(stopping: StoppingRecord): string {
  if (!stopping.plannedLooks) return '';
  return `; looks planned at ${stopping.plannedLooks.join(', ')} blocks, the time budget at the measured pace held ${stopping.looks.join(', ')}`;
}

/** "4 m 10 s", "38 s". */
export function formatElapsed(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 === 0 ? `${m} m` : `${m} m ${s % 60} s`;
}

/** The progress heading of one look: "Look 2 of 5: 9 blocks, proxy head vs base p50 +1.2% [...], continuing". */
export function lookHeading(
  look: number,
  looks: number,
  blocks: number,
  gates: readonly AbGateEvidence[],
  withProfile: boolean,
  next: string,
): string {
  const figures = gates.map((g) => `${abSubject(g, withProfile)} ${abChangeText(g)}`);
  return [`Look ${look + 1} of ${looks}: ${blocks} blocks`, ...figures, next].join(', ');
}
