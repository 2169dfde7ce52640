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

function regressionLine(gate: GateEvidence, what: string, threshold: string): string {
  const evidence = gate.evidence!;
  const { alpha } = gate.regression!;
  const sizes = gate.sizes!;
  const unit = METRICS[gate.metric].unit;
  const bound = evidence.changeBound ?? Number.POSITIVE_INFINITY;
  const valueUnit = evidence.basis === 'relative' ? 'ratio' : unit;
  const runs = evidence.reference.runIds.length;
  const basisText = evidence.basis === 'relative' ? ` (÷ ${gate.baseline}, per block)` : '';
  const tests = [`Mann–Whitney p=${formatP(evidence.mannWhitney.p)}`];
  if (evidence.runToRun) tests.push(`run-to-run p=${formatP(evidence.runToRun.p)} over ${evidence.runToRun.runs} runs`);
  else if (runs < 3) tests.push(`run-to-run spread not estimable from ${runs} reference run${runs === 1 ? '' : 's'}`);
  const rounds = evidence.rounds
    ? `; rounds: ${evidence.rounds.map((r) => `${r.round === 'pooled' ? 'pooled' : `round ${r.round}`} ${formatPercent(r.change.value)} p=${formatP(r.p)}`).join(', ')}`
    : '';
  const confidence = `${Math.round((1 - alpha) * 100)}% confidence`;
  const decision = gate.reportOnly ? 'not gated' : gate.decision;
  const verdict =
    decision === 'not gated'
      ? `not gated (${evidence.significant && evidence.practical ? 'would be a regression' : 'no regression'})`
      : gate.pendingConfirmation
        ? 'regression, pending confirmation re-run'
        : decision === 'fail'
          ? 'fail (regression)'
          : decision === 'inconclusive'
            ? `inconclusive (${inconclusiveWhy(evidence, sizes, bound, alpha)}; ${settleText(gate.repetitionsToSettle)})`
            : evidence.change.value < 0
              ? 'pass (no slowdown)'
              : 'pass';
  const why =
    decision === 'pass' && evidence.practical && !evidence.significant
      ? ' (not statistically significant)'
      : decision === 'pass' && evidence.significant && !evidence.practical
        ? ` (significant, but at most ${formatPercent(bound)} with ${confidence}, under the practical minimum)`
        : '';
  return (
    `${what}${basisText}: ${formatEstimate(evidence.candidate, valueUnit)} vs reference ${formatEstimate(evidence.reference.median, valueUnit)} ` +
    `(${runs} run${runs === 1 ? '' : 's'}, ${evidence.reference.values} repetitions): change ${formatEstimate(evidence.change, 'relative')} ` +
    `(${formatSigned(evidence.changeAbsolute, unit)}), ${tests.join(', ')}${rounds}; threshold ${threshold} → ${verdict}${why}; ` +
    `${mdeSentence(gate.mde, METRICS[gate.metric].label, Math.min(...sizes))}${jobToJobText(evidence)}`
  );
}

function settleText(settle: number | null | undefined): string {
  return settle === null || settle === undefined
    ? 'the noise is unknown, so no number of repetitions can be given'
    : `about ${settle} repetitions per side would settle it`;
}

function inconclusiveWhy(evidence: RegressionEvidence, sizes: [number, number], bound: number, alpha: number): string {
  if (evidence.mannWhitney.minimumP > alpha) {
    return `with ${sizes[0]} vs ${sizes[1]} repetitions the smallest possible p is ${formatP(evidence.mannWhitney.minimumP)} > ${alpha}, so this comparison cannot reach significance`;
  }
  return `not statistically significant, but the change may reach the practical minimum: up to ${formatPercent(bound)} with ${Math.round((1 - alpha) * 100)}% confidence`;
}

/** τ too large for the targets against the stored runs: say so, and what compares without it. */
function jobToJobText(evidence: RegressionEvidence): string {
  const spread = evidence.jobToJob;
  if (spread?.supportsTargets !== false || spread.tau === null) return '';
  return `; job-to-job spread τ ${formatPercent(spread.tau, false)} over ${spread.runs} stored runs is too large for ≤ 1% false alarms and 90% detection of the minimum against them (needs τ·√(1 + 1/k) ≤ ${formatPercent(spread.targetSe, false)}): compare head with base in one run (modes[].arms)`;
}
