// A gate's decision in words: the limit ("< 250 ms"), the verdict line every output prints, and why
// it was skipped or only reported. The analysis hands over numbers and codes (GateEvidence); this
// is the one place they become sentences, stored with the gate in results.json. Pure.
import { ERROR_GATE } from '../analysis/error-gate.ts';
import { MIN_RUNS_FOR_ABSOLUTE } from '../analysis/regression.ts';
import type { GateResult, RegressionEvidence } from '../results/analysis.ts';
import { formatCauses, formatErrorRate } from '../results/errors.ts';
import type { GateEvidence, GateSkip } from '../results/evidence.ts';
import { METRICS } from '../results/metrics.ts';
import { abGateLine, abThresholdText } from './ab-words.ts';
import { mdeSentence } from './detectability-words.ts';
import { formatEstimate, formatLimit, formatNumber, formatPercent, formatSigned } from './numbers.ts';

/** The stored gate: its evidence with the words (threshold, line, note) and without the codes. */
export function wordGate(gate: GateEvidence): GateResult {
  const {
    limit: _limit,
    skip: _skip,
    reportOnlyReason: _reportOnlyReason,
    baseline: _baseline,
    mdeN: _mdeN,
    pairing: _pairing,
    errors: _errors,
    regression: _regression,
    sizes: _sizes,
    ab: _ab,
    ...stored
  } = gate;
  const note = noteOf(gate);
  const threshold = thresholdText(gate);
  const worded: GateResult = { ...stored, threshold, line: lineOf(gate, threshold, note), ...(note ? { note } : {}) };
  return inStoredOrder(worded, gate.errors || gate.ab ? VALUE_FIRST : gate.kind === 'regression' && !gate.skip ? REGRESSION : LIMIT);
}

// The key orders results.json has always had, per kind of gate (JSON readers do not care; a diff
// of two results files does).
const LIMIT = [
  'kind',
  'gate',
  'mode',
  'profile',
  'metric',
  'measure',
  'unit',
  'threshold',
  'value',
  'decision',
  'marginal',
  'mde',
  'mdeAbsolute',
  'note',
  'line',
];
const VALUE_FIRST = ['kind', 'gate', 'mode', 'profile', 'metric', 'measure', 'unit', 'value', 'threshold', 'decision', 'mde', 'line'];
const REGRESSION = ['note', 'reportOnly', 'kind', 'gate', 'mode', 'profile', 'metric', 'measure', 'unit', 'threshold', 'value', 'decision'];

function inStoredOrder(gate: GateResult, order: readonly string[]): GateResult {
  const entries = Object.entries(gate);
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : key === 'line' ? order.length + 1 : order.length);
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b))) as unknown as GateResult;
}

function thresholdText(gate: GateEvidence): string {
  if (gate.ab) return abThresholdText(gate.ab);
  if (gate.regression) {
    const { minEffectPct, minEffectMs, alpha } = gate.regression;
    const ms = METRICS[gate.metric].unit === 'ms' ? ` and ≥ +${formatLimit(minEffectMs, 'ms')}` : '';
    return `≥ +${minEffectPct}%${ms} within the ${Math.round((1 - alpha) * 100)}% upper bound, with p ≤ ${alpha}`;
  }
  if (!gate.limit) throw new Error(`gate "${gate.gate}" has neither a limit nor regression or A/B settings`);
  if (gate.errors) return `${gate.limit.op === '<=' ? '≤' : gate.limit.op} ${formatErrorRate(gate.limit.value)}`;
  return `${gate.limit.op} ${formatLimit(gate.limit.value, gate.unit)}`;
}

/** Why a gate was skipped, or (regressions) why it only reports. */
function noteOf(gate: GateEvidence): string | undefined {
  if (gate.skip) return skipNote(gate, gate.skip);
  if (gate.reportOnlyReason === 'baseline-of-relative-modes')
    return "report only: the baseline's raw values move with the runner from job to job, which the other modes' ratios to it cancel (set gates.regression.basis: absolute on a dedicated machine to gate them)";
  if (gate.reportOnlyReason === 'few-reference-runs') {
    const runs = gate.regression?.referenceRuns ?? 0;
    return `report only: ${runs} reference run${runs === 1 ? '' : 's'} cannot show how far absolute values move from job to job; gated from ${MIN_RUNS_FOR_ABSOLUTE} reference runs on (or set gates.regression.basis: absolute on a dedicated machine)`;
  }
  return undefined;
}

function skipNote(gate: GateEvidence, skip: GateSkip): string {
  const label = METRICS[gate.metric].label;
  switch (skip) {
    case 'no-target-rate':
      return 'no valid repetition with a target rate (closed-model or script profiles have none)';
    case 'no-valid-repetition':
      return 'no valid repetition to judge';
    case 'not-measured':
      return `no ${label} was measured (resource figures come from Kubernetes platforms)`;
    case 'baseline-zero':
      return `${gate.baseline}'s ${label} is 0, so no ratio exists`;
    case 'no-pairs':
      return `no valid repetitions of both ${gate.mode} and ${gate.baseline} with ${label}`;
    case 'no-candidate-values':
      return `no valid ${gate.baseline ? `pair of ${gate.mode} and ${gate.baseline}` : ''} repetitions in this run`;
    case 'no-reference-run':
      return 'no comparable reference run';
  }
}

function lineOf(gate: GateEvidence, threshold: string, note: string | undefined): string {
  if (gate.ab) return abGateLine(gate.ab);
  const where = `${gate.mode} [${gate.profile}]`;
  const label = METRICS[gate.metric].label;
  if (gate.errors) return errorGateLine(gate, where);
  if (gate.kind === 'regression') {
    if (gate.skip) return `${where} ${label} vs reference: skipped, ${note}`;
    const line = regressionLine(gate, `${where} ${label}`, threshold);
    return note ? `${line} [${note}]` : line;
  }
  const marginal = gate.marginal ? ' (marginal: the CI crosses the limit)' : '';
  if (gate.kind === 'overhead') {
    const what = `${where} overhead${gate.measure === 'ratio' ? '_ratio' : ''}.${label} vs ${gate.baseline}`;
    if (gate.skip || !gate.value) return `${what}: skipped, ${note}`;
    const pairing = gate.pairing?.paired ? `paired over ${gate.pairing.pairs} blocks` : 'unpaired: too few blocks pair up';
    return `${what}: ${formatEstimate(gate.value, gate.unit, true)} (${pairing}), threshold ${threshold} → ${gate.decision}${marginal}; ${overheadMdeText(gate)}`;
  }
  if (gate.skip || !gate.value) return `${where} ${label}: skipped, ${note} (gate ${gate.gate})`;
  const what = `${where} ${label}${gate.measure === 'fraction-of-target' ? ' ÷ target' : ''}`;
  return `${what}: ${formatEstimate(gate.value, gate.unit)}, threshold ${threshold} → ${gate.decision}${marginal}; ${mdeSentence(gate.mde, label, gate.mdeN)}`;
}

function errorGateLine(gate: GateEvidence, where: string): string {
  const { failures, requests, causes } = gate.errors!;
  const rate = formatErrorRate(gate.value!.value);
  const limit = formatErrorRate(gate.limit!.value);
  return gate.decision === 'fail'
    ? `${where}: ${rate} of requests failed (${failures} of ${requests}), above ${ERROR_GATE} ${limit}: ${formatCauses(causes)}`
    : `${where}: error rate ${rate}, ${ERROR_GATE} ${limit} → pass`;
}

/** An overhead budget's MDE in the metric's unit (and relative), or the MDE sentence when it has none. */
function overheadMdeText(gate: GateEvidence): string {
  const label = METRICS[gate.metric].label;
  // mdeAbsolute is present (a number or null) exactly when the overhead had an MDE.
  if (gate.mdeAbsolute === undefined) return mdeSentence(undefined, label);
  if (gate.mdeAbsolute === null) return mdeSentence(null, label);
  const relative = gate.mde !== null && gate.mde !== undefined ? ` (${formatPercent(gate.mde, false)})` : '';
  return `with this noise, overheads under ${formatNumber(gate.mdeAbsolute, METRICS[gate.metric].unit)}${relative} on ${label} are not distinguishable from zero`;
}

/** "p=0.012", "p=<0.001". */
function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/**
 * The one test a regression decision rests on, and its p. Significance needs the rank test over
 * repetitions and, from three reference runs on, the run-to-run test of the candidate's median
 * against the runs' spread; both must reject, so the decision's p is the larger of the two (an
 * intersection-union test). The line states that one p and which test gave it, never two p's
 * that seem to disagree with the verdict.
 */
export function decisiveTest(evidence: RegressionEvidence): { p: number; test: string } {
  const rank = { p: evidence.mannWhitney.p, test: 'rank test over repetitions' };
  const runToRun = evidence.runToRun;
  if (!runToRun) {
    const runs = evidence.reference.runIds.length;
    return runs < 3 ? { ...rank, test: `${rank.test}; the run-to-run test needs 3 reference runs, ${runs} here` } : rank;
  }
  return runToRun.p > rank.p ? { p: runToRun.p, test: `run-to-run test over ${runToRun.runs} reference runs` } : rank;
}

/**
 * A regression gate's line, one claim: the change with one interval (the one-sided upper bound the
 * decision uses), one test (decisiveTest), one detectable-change figure (against the same
 * reference), then the decision. Each round's change when a confirmation round ran, without its
 * own test: the decision is the pooled one.
 */
function regressionLine(gate: GateEvidence, what: string, threshold: string): string {
  const evidence = gate.evidence!;
  const { alpha } = gate.regression!;
  const unit = METRICS[gate.metric].unit;
  const valueUnit = evidence.basis === 'relative' ? 'ratio' : unit;
  const runs = evidence.reference.runIds.length;
  const basisText = evidence.basis === 'relative' ? ` (÷ ${gate.baseline}, per block)` : '';
  const confidence = `${Math.round((1 - alpha) * 100)}% confidence`;
  const bound =
    evidence.changeBound === undefined ? 'its upper bound is unknown' : `at most ${formatPercent(evidence.changeBound)} with ${confidence}`;
  const test = decisiveTest(evidence);
  const rounds = evidence.rounds
    ? `; rounds: ${evidence.rounds.map((r) => `${r.round === 'pooled' ? 'pooled' : `round ${r.round}`} ${formatPercent(r.change.value)}`).join(', ')}`
    : '';
  const significant = test.p < 0.001 ? 'p<0.001' : `p=${formatP(test.p)} ${test.p <= alpha ? '≤' : '>'} ${alpha}`;
  const decision = gate.reportOnly ? 'not gated' : gate.decision;
  const verdict =
    decision === 'not gated'
      ? `not gated (${evidence.significant && evidence.practical ? 'would be a regression' : 'no regression'})`
      : gate.pendingConfirmation
        ? 'regression, pending confirmation re-run'
        : decision === 'fail'
          ? 'fail (regression)'
          : decision === 'inconclusive'
            ? `inconclusive (${inconclusiveWhy(evidence, gate.sizes!, alpha)}; ${settleText(gate.repetitionsToSettle)})`
            : evidence.change.value < 0
              ? 'pass (no slowdown)'
              : 'pass';
  const why =
    decision === 'pass' && evidence.significant && !evidence.practical
      ? ' (significant, but its upper bound is under the practical minimum)'
      : decision === 'pass' && evidence.practical && !evidence.significant
        ? ' (not statistically significant)'
        : '';
  return (
    `${what}${basisText}: ${formatNumber(evidence.candidate.value, valueUnit)} vs ${formatNumber(evidence.reference.median.value, valueUnit)} ` +
    `over ${runs} reference run${runs === 1 ? '' : 's'} (${evidence.reference.values} repetitions): change ${formatPercent(evidence.change.value)} ` +
    `(${formatSigned(evidence.changeAbsolute, unit)}), ${bound}; ${significant} (${test.test})${rounds}; threshold ${threshold} → ${verdict}${why}; ` +
    `${mdeSentence(gate.mde, METRICS[gate.metric].label, Math.min(...gate.sizes!), 'reference')}`
  );
}

function settleText(settle: number | null | undefined): string {
  return settle === null || settle === undefined
    ? 'the noise is unknown, so no number of repetitions can be given'
    : `about ${settle} repetitions per side would settle it`;
}

function inconclusiveWhy(evidence: RegressionEvidence, sizes: [number, number], alpha: number): string {
  if (evidence.mannWhitney.minimumP > alpha) {
    return `with ${sizes[0]} vs ${sizes[1]} repetitions no p can reach ${alpha} (the smallest possible is ${formatP(evidence.mannWhitney.minimumP)})`;
  }
  return 'not statistically significant, and its upper bound reaches the practical minimum';
}

/**
 * τ too large for the targets against the stored runs: what the analysis notes say about a
 * regression gate (a sentence of its own, not part of the gate's line), and what compares without it.
 */
export function jobToJobNote(gate: GateEvidence): string | undefined {
  const spread = gate.evidence?.jobToJob;
  if (spread?.supportsTargets !== false || spread.tau === null) return undefined;
  return `${gate.mode} [${gate.profile}] ${METRICS[gate.metric].label}: the job-to-job spread τ ${formatPercent(spread.tau, false)} over ${spread.runs} stored runs is too large for ≤ 1% false alarms and 90% detection of the minimum against them (needs τ·√(1 + 1/k) ≤ ${formatPercent(spread.targetSe, false)}): compare head with base in one run (modes[].arms)`;
}
