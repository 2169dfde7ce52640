// The words for an A/B gate's structured evidence (analysis/ab/ stores numbers and codes only):
// "checkout head vs base [1000rps]: p50 +0.8% [−1.2%, +2.9%], within 5% → pass (14 blocks)".
// One formatter, so the verdict reasons and every output say the same; outputs that know the
// wall time append it.
import type { AbGateEvidence } from './analysis.ts';

const LABELS: Partial<Record<AbGateEvidence['statistic'], string>> = { p50: 'p50', p90: 'p90', p99: 'p99' };

function percent(relative: number, signed = true): string {
  const value = relative * 100;
  const digits = Math.abs(value) < 10 ? 1 : 0;
  const text = Math.abs(value).toFixed(digits);
  const sign = value < 0 && Number(text) !== 0 ? '−' : signed ? '+' : '';
  return `${sign}${text}%`;
}

function ms(value: number): string {
  return `${Number(value.toPrecision(3))} ms`;
}

/** The practical minimum in force: "5%" or, where the ms floor is the larger, "0.05 ms (7.1%)". */
export function formatAbMinimum(e: Pick<AbGateEvidence, 'minimum' | 'minEffect' | 'minEffectMs'>): string {
  return e.minimum > e.minEffect ? `${ms(e.minEffectMs)} (${percent(e.minimum, false)})` : percent(e.minEffect, false);
}

/** The gate's limit, as the gate tables show it. */
export function formatAbThreshold(e: AbGateEvidence): string {
  return `< +${percent(e.minEffect, false)} or < +${ms(e.minEffectMs)}; fail at p ≤ ${Number(e.nominalAlpha.toPrecision(2))} (this look)`;
}

function outcome(e: AbGateEvidence): string {
  const blocks = `${e.pairs} block${e.pairs === 1 ? '' : 's'}`;
  switch (e.reason) {
    case 'within-minimum':
      return `within ${formatAbMinimum(e)} → pass (${blocks})`;
    case 'slower':
      return `slower, not shown under ${formatAbMinimum(e)} → fail (${blocks})`;
    case 'continue':
      return `not decided at look ${e.look + 1} of ${e.looks} → more blocks (${blocks})`;
    case 'budget-spent': {
      const settle =
        e.blocksToSettle === null || e.blocksToSettle === undefined ? '' : `; about ${e.blocksToSettle} blocks would settle it`;
      return `neither within ${formatAbMinimum(e)} nor shown slower → inconclusive (${blocks}, budget spent${settle})`;
    }
    case 'too-few-blocks':
      return `→ inconclusive (${blocks} paired, too few for an interval)`;
    case 'arm-invalid':
      return '→ inconclusive (an arm has no valid repetition; see its error gate)';
  }
}

export function formatAbLine(e: AbGateEvidence): string {
  const label = LABELS[e.statistic] ?? e.statistic;
  const where = `${e.mode} head vs base [${e.profile}]`;
  if (e.reason === 'arm-invalid' || e.reason === 'too-few-blocks') return `${where}: ${label} ${outcome(e)}`;
  return `${where}: ${label} ${percent(e.change.value)} [${percent(e.change.low)}, ${percent(e.change.high)}], ${outcome(e)}`;
}
