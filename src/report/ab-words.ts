// The words for an A/B gate's structured evidence (the gate stores numbers and codes): one
// vocabulary for the gate's own line (verdict reasons, gate tables) and the line every output leads
// with (report/ab.ts adds the blocks and wall time), so the two never word one result apart.
// Percentages as every other gate writes them (formatPercent). Pure.
import type { AbGateEvidence } from '../results/analysis.ts';
import { formatPercent } from './numbers.ts';

/**
 * A bound the estimator cannot give at a look's level is stored as e^±50 − 1 (JSON has no
 * infinity; see gate.ts): shown as ∞.
 */
function bound(relative: number): string {
  if (relative > 1e6) return '+∞';
  if (relative <= -1 + 1e-12) return '-∞';
  return formatPercent(relative);
}

function ms(value: number): string {
  return `${Number(value.toPrecision(3))} ms`;
}

/** "0.0031", "0.01", "1.2e-7": two significant digits, exponent below 0.0001; "<1e-12" below that (a t tail there is 0 in floating point). */
function formatP(p: number): string {
  if (p < 1e-12) return '<1e-12';
  return p < 1e-4 ? p.toExponential(1) : String(Number(p.toPrecision(2)));
}

/** The practical minimum in force: "5.00%" or, where the ms floor is the larger, "0.05 ms (7.10%)". */
export function abMinimumText(e: Pick<AbGateEvidence, 'minimum' | 'minEffect' | 'minEffectMs'>): string {
  return e.minimum > e.minEffect ? `${ms(e.minEffectMs)} (${formatPercent(e.minimum, false)})` : formatPercent(e.minEffect, false);
}

/** The gate's limit, as the gate tables show it. */
export function abThresholdText(e: AbGateEvidence): string {
  const family = (e.family ?? 1) > 1 ? `, its share of one alpha over ${e.family} gates` : '';
  return `< +${formatPercent(e.minEffect, false)} or < +${ms(e.minEffectMs)}; fail at p ≤ ${formatP(e.nominalAlpha)} (this look${family})`;
}

/** "p50 +0.80% [-1.20%, +2.90%]": the change head ÷ base − 1 with its interval at this look. */
export function abChangeText(e: AbGateEvidence): string {
  // No pairs: no interval to show (and with none, no change either).
  if (e.pairs === 0) return `${e.statistic} —`;
  if (e.reason === 'too-few-blocks' || e.reason === 'arm-invalid') return `${e.statistic} ${formatPercent(e.change.value)}`;
  return `${e.statistic} ${formatPercent(e.change.value)} [${bound(e.change.low)}, ${bound(e.change.high)}]`;
}

/** Why the gate decided as it did, in the words of its reason code. */
export function abReasonText(e: AbGateEvidence): string {
  const minimum = abMinimumText(e);
  switch (e.reason) {
    case 'within-minimum':
      return `within ${minimum}`;
    case 'slower':
      // Slower for sure, and the interval does not rule out more than the minimum allowed.
      return `slower (p ${formatP(e.p)} ≤ ${formatP(e.nominalAlpha)}${(e.family ?? 1) > 1 ? `, 1/${Math.round(1 / (e.alphaShare ?? 1))} of the run's alpha over ${e.family} A/B gates` : ''}), and its interval reaches past the ${minimum} allowed`;
    case 'budget-spent':
      // The minimum named: "inconclusive" alone leaves the reader to guess what was not shown.
      return `not settled within the budget: the interval neither stays under the ${minimum} allowed nor shows it slower${settleText(e.blocksToSettle)}`;
    case 'run-stopped':
      return 'not settled when another gate failed the run';
    case 'too-few-blocks':
      return `${e.pairs} paired block${e.pairs === 1 ? '' : 's'}, too few for an interval`;
    case 'arm-invalid':
      return 'an arm has no valid repetition to pair (see the error gate)';
    case 'continue':
      return `not decided at look ${e.look + 1} of ${e.looks}, continuing`;
  }
}

function settleText(blocks: number | null | undefined): string {
  if (blocks === undefined) return '';
  if (blocks === null) return '; no number of blocks would at this noise';
  return `; about ${blocks} paired blocks would settle it`;
}

/** The gate's own line: "proxy head vs base [100rps]: p50 +0.80% [-1.20%, +2.90%], within 5.00% → pass (14 blocks)". */
export function abGateLine(e: AbGateEvidence): string {
  const decision = e.reason === 'continue' ? abReasonText(e) : `${abReasonText(e)} → ${e.decision}`;
  return `${e.mode} head vs base [${e.profile}]: ${abChangeText(e)}, ${decision} (${e.pairs} block${e.pairs === 1 ? '' : 's'})`;
}
