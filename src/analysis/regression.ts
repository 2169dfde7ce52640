// Regression against a reference (past runs with the same scenario key). A regression needs
// statistical evidence AND a practical size:
//  - evidence: a one-sided Mann–Whitney U over run-level values (candidate repetitions vs the
//    reference runs' repetitions), and, when the reference holds ≥ 3 runs, the candidate's median
//    must also clear the run-to-run prediction bound of those runs. Repetitions of one job share
//    that job's machine; without the second check a slow runner would pass as a regression.
//  - size: the change is not shown to be smaller than the practical minimum (minEffectPct and, for
//    latency, minEffectMs): the one-sided (1 − alpha) upper confidence bound of the change reaches
//    it. This is "significant and not equivalent" (Lakens 2017, equivalence testing): requiring
//    the point estimate itself to clear the minimum would miss a change of exactly the minimum
//    half of the time, and a slightly larger one nearly as often on a noisy runner. A change that
//    is real but demonstrably smaller than the minimum passes ("below the practical minimum").
// Neither is "inconclusive", never a pass: a comparison whose sizes cannot reach p ≤ alpha at all
// (2 against 2 repetitions: the smallest one-sided p is 1/6), or a change that may reach the
// minimum (its upper bound does) without significance. Lakens' fourth quadrant: not significant
// and not equivalent. The line says how many repetitions would settle it.
// Modes other than the baseline are compared relative to the baseline of their own run (per-block
// ratios), which cancels job-to-job drift of the runner; the baseline is compared as is.
import type { RunResult } from '../results/types.ts';
import { findMode } from '../results/modes.ts';
import type { Random } from '../util/random.ts';
import { bootstrapInterval, bootstrapTwoSampleEstimates, intervalOfSorted, withCi } from './bootstrap.ts';
import { type AnalysisContext, streamFor } from './context.ts';
import { coefficientOfVariation, finiteOrNull, mean, median, standardDeviation } from './descriptive.ts';
import { normalQuantile, studentTCdf } from './distributions.ts';
import { mannWhitneyGreater } from './mann-whitney.ts';
import { repetitionsFor, runToRunMde, twoSampleMde } from './mde.ts';
import type { MetricId } from '../results/metric-ids.ts';
import { METRICS } from '../results/metrics.ts';
import { pairByBlock } from './overhead.ts';
import { roundOf, validRepetitions } from './summary.ts';
import type { Estimate, JobToJobSpread, RegressionEvidence, RoundEvidence, RunToRunCheck } from '../results/analysis.ts';
import type { GateEvidence, ReportOnlyReason } from '../results/evidence.ts';

export interface RegressionSettings {
  minEffectPct: number;
  minEffectMs: number;
  alpha: number;
}

export interface RegressionInput {
  candidate: RunResult;
  mode: string;
  profile: string;
  metric: MetricId;
  basis: 'absolute' | 'relative';
  baseline: string;
  /** Reference runs already filtered to the same scenario key, newest first. */
  references: RunResult[];
  settings: RegressionSettings;
  /** Confirmation wanted when round 1 finds a regression and no round 2 exists yet. */
  confirm: boolean;
  /**
   * Gate absolute values even when fewer than MIN_RUNS_FOR_ABSOLUTE reference runs exist (the
   * user set basis: absolute, e.g. on a dedicated machine). Otherwise such a comparison is
   * reported, not gated: one past job cannot show how far a whole job moves on a shared runner
   * (35 % false alarms at 10 % job-to-job CV, bench/sensitivity/synthetic.ts).
   */
  gateAbsoluteAcrossJobs?: boolean;
  /**
   * This mode is the baseline the run's other modes are judged against (as ratios). Its own raw
   * values are then reported, not gated, unless gateAbsoluteAcrossJobs: they carry the runner's
   * job-to-job drift that those ratios cancel, and on a shared runner they were the source of
   * nearly every false alarm of the whole gate (4 of 4.7 % at 10 % job-to-job CV with a 10-run
   * history, bench/sensitivity/synthetic.ts), since a confirmation round in the same job
   * cannot tell a slow runner from a slow baseline.
   */
  baselineOfRelativeModes?: boolean;
}

/** Reference runs needed to estimate job-to-job spread (the run-to-run check). */
export const MIN_RUNS_FOR_ABSOLUTE = 3;

/** Run-level values of one mode in a run: its own values, or per-block ratios to the baseline. */
export function runLevelValues(
  run: RunResult,
  mode: string,
  profile: string,
  metric: MetricId,
  basis: 'absolute' | 'relative',
  baseline: string,
  round?: number,
): number[] {
  const modeResult = findMode(run, mode, profile);
  if (!modeResult) return [];
  const reps = validRepetitions(modeResult, round);
  if (basis === 'absolute') {
    return reps.map((r) => METRICS[metric].extract(r)).filter((v): v is number => v !== undefined);
  }
  const baselineResult = findMode(run, baseline, profile);
  if (!baselineResult) return [];
  return pairByBlock(reps, validRepetitions(baselineResult, round), metric)
    .filter((p) => p.baseline > 0)
    .map((p) => p.mode / p.baseline);
}

interface SideEvidence {
  candidate: Estimate;
  reference: Estimate;
  change: Estimate;
  changeAbsolute: number;
  /** One-sided (1 − alpha) upper confidence bound of the relative change. */
  changeBound: number;
  mannWhitney: ReturnType<typeof mannWhitneyGreater>;
  runToRun?: RunToRunCheck;
  jobToJob: JobToJobSpread;
  significant: boolean;
  practical: boolean;
  mde: number;
  /** Run-to-run CV of the noisier side; undefined when neither side has one. */
  cv: number | undefined;
  /** Values compared: candidate, pooled reference. */
  sizes: [number, number];
}

/**
 * The one-sided (1 − alpha) upper confidence bound of median(candidate) ÷ median(reference) − 1,
 * by the percentile bootstrap; the point estimate when a side has fewer than two values.
 */
export function changeUpperBound(
  candidate: readonly number[],
  reference: readonly number[],
  alpha: number,
  random: Random,
  resamples: number,
): number {
  return upperBoundOf(
    bootstrapTwoSampleEstimates(candidate, reference, ratioOfMedians, { random, resamples }),
    ratioOfMedians(candidate, reference),
    alpha,
  );
}

const ratioOfMedians = (a: readonly number[], b: readonly number[]) => median(a) / median(b) - 1;

/** The one-sided (1 − alpha) upper bound from sorted bootstrap estimates, never below the estimate. */
function upperBoundOf(sorted: readonly number[] | undefined, estimate: number, alpha: number): number {
  return sorted && sorted.length > 0 ? Math.max(intervalOfSorted(sorted, 1 - 2 * alpha).high, estimate) : estimate;
}

/**
 * Whether a change bounded above by `bound` (relative) may reach the practical minimum; for
 * latency also in milliseconds, `scale` being the candidate's own median in ms.
 */
export function reachesPracticalMinimum(bound: number, scale: number, unitIsMs: boolean, settings: RegressionSettings): boolean {
  if (bound * 100 < settings.minEffectPct) return false;
  return !unitIsMs || scale * (bound / (1 + bound)) >= settings.minEffectMs;
}

export function evidenceFor(
  candidate: readonly number[],
  referenceRuns: readonly (readonly number[])[],
  absoluteScale: number,
  unitIsMs: boolean,
  settings: RegressionSettings,
  context: AnalysisContext,
  streamName: string[],
): SideEvidence {
  const pooled = referenceRuns.flat();
  const options = (what: string) => ({
    random: streamFor(context, 'regression', ...streamName, what),
    resamples: context.resamples,
    level: context.level,
  });
  const candidateMedian = median(candidate);
  const referenceMedian = median(pooled);
  const change = candidateMedian / referenceMedian - 1;
  // One bootstrap distribution of the change serves both its CI and its one-sided upper bound.
  const changeEstimates = bootstrapTwoSampleEstimates(candidate, pooled, ratioOfMedians, options('change'));
  const changeCi = changeEstimates && intervalOfSorted(changeEstimates, context.level);
  // Relative basis: values are ratios, so the change in ms is that share of the mode's own latency.
  const changeAbsolute = absoluteScale * (change / (1 + change));
  const mannWhitney = mannWhitneyGreater(candidate, pooled);
  const runToRun = runToRunCheck(candidateMedian, referenceRuns);
  const significant = mannWhitney.p <= settings.alpha && (!runToRun || runToRun.p <= settings.alpha);
  const jobToJob = jobToJobSpread(referenceRuns, settings);
  const changeBound = widenForJobToJob(upperBoundOf(changeEstimates, change, settings.alpha), change, jobToJob, settings.alpha);
  const practical = reachesPracticalMinimum(changeBound, absoluteScale, unitIsMs, settings);
  const cvReference = coefficientOfVariation(pooled);
  const cvCandidate = coefficientOfVariation(candidate) ?? cvReference;
  let mde =
    cvCandidate !== undefined && cvReference !== undefined
      ? twoSampleMde({ cv: cvCandidate, n: candidate.length }, { cv: cvReference, n: pooled.length }, settings.alpha)
      : Number.NaN;
  if (runToRun) mde = Math.max(mde, runToRunMde(runToRun.spread, runToRun.runs, settings.alpha));
  return {
    candidate: withCi(candidateMedian, bootstrapInterval(candidate, options('candidate'))),
    reference: withCi(referenceMedian, bootstrapInterval(pooled, options('reference'))),
    change: withCi(change, changeCi),
    changeAbsolute,
    changeBound,
    mannWhitney,
    ...(runToRun ? { runToRun } : {}),
    jobToJob,
    significant,
    practical,
    mde,
    sizes: [candidate.length, pooled.length],
    cv: cvCandidate !== undefined && cvReference !== undefined ? Math.max(cvCandidate, cvReference) : (cvCandidate ?? cvReference),
  };
}

/**
 * The standard error of the log change a gate needs for ≤ 1 % false alarms and ≥ 90 % detection of
 * a change of the practical minimum: minimum ÷ (z₀.₉₉ + z₀.₉) (1.39 % for 5 %, decisions.md).
 */
export function targetStandardError(minEffectPct: number): number {
  return minEffectPct / 100 / (normalQuantile(0.99) + normalQuantile(0.9));
}

/**
 * τ, the job-to-job sd of a run's (log) level, from the stored runs: the variance of their log
 * medians less what their own repetitions explain (var of a median ≈ π/2 · s²/n). A candidate
 * from another job carries τ on top of its own noise, so the pass bound must hold it; pooled
 * repetitions treated as independent left it out (the pass statement was made at a true +5 % in
 * 8.6–15 % of runs against 5 % nominal, issue 23). Needs 2 runs; null below.
 */
export function jobToJobSpread(referenceRuns: readonly (readonly number[])[], settings: RegressionSettings): JobToJobSpread {
  const usable = referenceRuns.filter((r) => r.length > 0 && r.every((v) => v > 0));
  const target = targetStandardError(settings.minEffectPct);
  if (usable.length < 2) return { runs: usable.length, tau: null, targetSe: target, supportsTargets: null };
  const logMedians = usable.map((r) => Math.log(median(r)));
  const within = usable.map((r) => (r.length > 1 ? standardDeviation(r.map(Math.log)) ** 2 / r.length : 0));
  const explained = (Math.PI / 2) * mean(within);
  const tau = Math.sqrt(Math.max(0, standardDeviation(logMedians) ** 2 - explained));
  const k = usable.length;
  return { runs: k, tau, targetSe: target, supportsTargets: tau * Math.sqrt(1 + 1 / k) <= target };
}

/** The upper bound with τ²(1 + 1/k) added to the bootstrap's own spread (on the change's scale). */
function widenForJobToJob(bound: number, change: number, spread: JobToJobSpread, alpha: number): number {
  if (spread.tau === null || spread.tau === 0 || !Number.isFinite(bound)) return bound;
  const gap = Math.max(0, bound - change);
  const extra = normalQuantile(1 - alpha) * spread.tau * Math.sqrt(1 + 1 / spread.runs) * (1 + change);
  return change + Math.sqrt(gap * gap + extra * extra);
}

/** One-sided prediction test of the candidate's median against ≥ 3 past runs' medians (log scale). */
function runToRunCheck(candidateMedian: number, referenceRuns: readonly (readonly number[])[]): RunToRunCheck | undefined {
  const usable = referenceRuns.filter((r) => r.length > 0);
  if (usable.length < 3 || !(candidateMedian > 0)) return undefined;
  const logs = usable.map((r) => Math.log(median(r)));
  const spread = standardDeviation(logs);
  const k = logs.length;
  const distance = Math.log(candidateMedian) - mean(logs);
  const scale = spread * Math.sqrt(1 + 1 / k);
  if (!(scale > 0)) return { runs: k, spread, t: null, p: distance > 0 ? 0 : 1 };
  const t = distance / scale;
  return { runs: k, spread, t, p: 1 - studentTCdf(t, k - 1) };
}

export function evaluateRegression(input: RegressionInput, context: AnalysisContext): GateEvidence {
  const { candidate, mode, profile, metric, basis, baseline, references, settings } = input;
  const definition = METRICS[metric];
  const unitIsMs = definition.unit === 'ms';
  const referenceRuns = references.map((r) => runLevelValues(r, mode, profile, metric, basis, baseline)).filter((v) => v.length > 0);
  const base = {
    kind: 'regression' as const,
    gate: `regression ${definition.label}`,
    mode,
    profile,
    metric,
    measure: 'change' as const,
    unit: 'relative' as const,
    ...(basis === 'relative' ? { baseline } : {}),
    regression: { ...settings, referenceRuns: referenceRuns.length },
  };
  const modeResult = findMode(candidate, mode, profile);
  const rounds = modeResult ? [...new Set(validRepetitions(modeResult).map(roundOf))].sort() : [];
  const candidateValues = runLevelValues(candidate, mode, profile, metric, basis, baseline);
  if (candidateValues.length === 0 || referenceRuns.length === 0) {
    return { ...base, decision: 'skipped', skip: candidateValues.length === 0 ? 'no-candidate-values' : 'no-reference-run' };
  }
  const absoluteScale = absoluteMedian(candidate, mode, profile, metric);
  const stream = [mode, profile, metric];
  const pooled = evidenceFor(candidateValues, referenceRuns, absoluteScale, unitIsMs, settings, context, stream);
  const evidence: RegressionEvidence = {
    basis,
    candidate: pooled.candidate,
    reference: { runIds: references.map((r) => r.run.id), values: referenceRuns.flat().length, median: pooled.reference },
    change: pooled.change,
    changeAbsolute: pooled.changeAbsolute,
    ...finiteBound(pooled.changeBound),
    mannWhitney: pooled.mannWhitney,
    ...(pooled.runToRun ? { runToRun: pooled.runToRun } : {}),
    jobToJob: pooled.jobToJob,
    significant: pooled.significant,
    practical: pooled.practical,
  };
  if (rounds.length > 1) {
    evidence.rounds = rounds.map((round) => {
      const values = runLevelValues(candidate, mode, profile, metric, basis, baseline, round);
      const side = evidenceFor(values, referenceRuns, absoluteScale, unitIsMs, settings, context, [...stream, `round${round}`]);
      return roundEvidence(round, values.length, side);
    });
    evidence.rounds.push(roundEvidence('pooled', candidateValues.length, pooled));
  }
  const reportOnlyReason = reportOnlyReasonOf(input, basis, referenceRuns.length);
  const reportOnly = reportOnlyReason !== undefined;
  const regressed = pooled.significant && pooled.practical && !reportOnly;
  const pendingConfirmation = regressed && input.confirm && rounds.length <= 1;
  const undecided = !regressed && !reportOnly && (cannotReachAlpha(pooled, settings.alpha) || (pooled.practical && !pooled.significant));
  const decision = regressed ? 'fail' : undecided ? 'inconclusive' : 'pass';
  const settle = undecided
    ? repetitionsToSettle(pooled.cv, candidateValues.length, pooled.change.value, settings.minEffectPct / 100, settings.alpha)
    : undefined;
  return {
    ...(reportOnlyReason ? { reportOnlyReason, reportOnly: true } : {}),
    ...base,
    value: pooled.change,
    decision,
    ...(pendingConfirmation ? { pendingConfirmation } : {}),
    ...(settle !== undefined ? { repetitionsToSettle: settle } : {}),
    ...(Number.isNaN(pooled.mde) ? {} : { mde: finiteOrNull(pooled.mde) }),
    sizes: pooled.sizes,
    evidence,
  };
}

/** The rank test cannot give p ≤ alpha with these sizes, whatever the values. */
function cannotReachAlpha(side: SideEvidence, alpha: number): boolean {
  return side.mannWhitney.minimumP > alpha;
}

/**
 * Repetitions per side that would settle an inconclusive comparison, from the MDE: enough for
 * changes of the practical minimum to be detectable; where they already are, enough to tell the
 * estimate from that minimum. null when the noise is unknown or no number would do.
 */
export function repetitionsToSettle(
  cv: number | undefined,
  current: number,
  change: number,
  minimum: number,
  alpha: number,
): number | null {
  if (cv === undefined || !Number.isFinite(cv)) return null;
  let needed = repetitionsFor(minimum, cv, alpha);
  if (needed <= current) needed = Math.max(current + 1, repetitionsFor(Math.abs(minimum - change), cv, alpha));
  return finiteOrNull(needed);
}

/** Why raw values are reported but not gated here, or undefined when they are gated. */
function reportOnlyReasonOf(input: RegressionInput, basis: 'absolute' | 'relative', referenceRuns: number): ReportOnlyReason | undefined {
  if (basis !== 'absolute' || input.gateAbsoluteAcrossJobs) return undefined;
  if (input.baselineOfRelativeModes) return 'baseline-of-relative-modes';
  return referenceRuns >= MIN_RUNS_FOR_ABSOLUTE ? undefined : 'few-reference-runs';
}

function roundEvidence(round: number | 'pooled', n: number, side: SideEvidence): RoundEvidence {
  return {
    round,
    n,
    change: side.change,
    changeAbsolute: side.changeAbsolute,
    ...finiteBound(side.changeBound),
    p: side.mannWhitney.p,
    significant: side.significant,
    practical: side.practical,
  };
}

/** JSON has no Infinity: a bound over a zero reference median is left out. */
function finiteBound(bound: number): { changeBound?: number } {
  return Number.isFinite(bound) ? { changeBound: bound } : {};
}

function absoluteMedian(run: RunResult, mode: string, profile: string, metric: MetricId): number {
  return median(runLevelValues(run, mode, profile, metric, 'absolute', mode));
}
