// The A/B verdict in words, one line per gate: "proxy head vs base: p50 +0.8% [-1.2%, +2.9%],
// within 5.00% → pass (14 blocks, 4 m 10 s)". Every output leads with these lines, and the pipeline's
// progress heading per look says the same figures, so the words are made here once. Pure.
import { formatPercent } from '../analysis/format.ts';
import type { AbGateEvidence, StoppingRecord } from '../results/analysis.ts';

/** Which gate a line is about: the mode, and its profile when the run has several. */
export function abSubject(evidence: AbGateEvidence, withProfile: boolean): string {
  return `${evidence.mode}${withProfile ? ` [${evidence.profile}]` : ''} head vs base`;
}

/** "p50 +0.8% [-1.2%, +2.9%]": the change head ÷ base − 1 with its interval at this look. */
export function abChange(evidence: AbGateEvidence): string {
  const { value, low, high } = evidence.change;
  // Too few pairs: no interval to show (and with none, no change either).
  if (evidence.pairs === 0) return `${evidence.statistic} —`;
  if (evidence.reason === 'too-few-blocks' || evidence.reason === 'arm-invalid') return `${evidence.statistic} ${formatPercent(value)}`;
  return `${evidence.statistic} ${formatPercent(value)} [${formatPercent(low)}, ${formatPercent(high)}]`;
}

/** Why the gate decided as it did, in the words of its reason code. */
export function abReasonText(evidence: AbGateEvidence): string {
  const minimum = formatPercent(evidence.minimum, false);
  switch (evidence.reason) {
    case 'within-minimum':
      return `within ${minimum}`;
    case 'slower':
      return `slower (p ${formatP(evidence.p)} ≤ ${formatP(evidence.nominalAlpha)}), not shown within ${minimum}`;
    case 'budget-spent':
      return `not settled within the budget${settleText(evidence.blocksToSettle)}`;
    case 'too-few-blocks':
      return `${evidence.pairs} paired block${evidence.pairs === 1 ? '' : 's'}, too few for an interval`;
    case 'arm-invalid':
      return 'an arm has no valid repetition to pair (see the error gate)';
    case 'continue':
      return 'continuing';
  }
}

/** "0.0031", "0.01", "1.2e-7": two significant digits, exponent below 0.0001. */
function formatP(p: number): string {
  return p < 1e-4 ? p.toExponential(1) : String(Number(p.toPrecision(2)));
}

function settleText(blocks: number | null | undefined): string {
  if (blocks === undefined) return '';
  if (blocks === null) return '; no number of blocks would at this noise';
  return `; about ${blocks} paired blocks would settle it`;
}

/** The whole line; `stopping` adds the blocks and the time the run measured. */
export function abLine(evidence: AbGateEvidence, options: { withProfile: boolean; stopping?: StoppingRecord }): string {
  const tail = options.stopping ? ` (${stoppingText(options.stopping)})` : '';
  const decision = evidence.reason === 'continue' ? 'continuing' : `${abReasonText(evidence)} → ${evidence.decision}`;
  return `${abSubject(evidence, options.withProfile)}: ${abChange(evidence)}, ${decision}${tail}`;
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
      return `stopped at ${look}: every gate decided`;
    case 'budget-blocks':
      return `stopped at ${look}: the budget's last look (plan.budget.maxBlocks ${stopping.looks[stopping.looks.length - 1]})`;
    case 'budget-time':
      return `stopped at ${look}: the next look would pass plan.budget.maxDuration`;
    case 'fixed':
      return `load.repetitions ${stopping.blocks}: a fixed number of blocks, one look`;
    case 'cancelled':
      return `stopped at ${look}: cancelled`;
    case 'invalid':
      return `stopped at ${look}: the run is invalid (see invalid repetitions)`;
  }
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
  const figures = gates.map((g) => `${abSubject(g, withProfile)} ${abChange(g)}`);
  return [`Look ${look + 1} of ${looks}: ${blocks} blocks`, ...figures, next].join(', ');
}
