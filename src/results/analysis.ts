// The Analysis value: what the analysis stage adds to a run (results.json "analysis"), and what
// the reports, the PR comment and the exit code are built from. analyzeRun returns its evidence
// (./evidence.ts); report/analysis-words.ts adds the words stored here (lines, notes, reasons).
import type { MetricId, Unit } from './metric-ids.ts';

export type { MetricId, Unit } from './metric-ids.ts';

/** A confidence interval (bootstrap or exact). */
export interface Interval {
  low: number;
  high: number;
  /** Nominal confidence level, e.g. 0.95. */
  level: number;
}

export interface MannWhitneyResult {
  /** U of the candidate sample: pairs (c, r) with c > r, ties counting one half. */
  u: number;
  /** One-sided p-value for "candidate > reference". */
  p: number;
  method: 'exact' | 'exact-permutation' | 'normal';
  /** Smallest p-value these sample sizes can produce; above alpha the test cannot detect anything. */
  minimumP: number;
}

/**
 * What the limit is compared with:
 * value: the metric itself; fraction-of-target: achieved rps ÷ target rps;
 * difference: mode − baseline in the metric's unit; relative: mode ÷ baseline − 1;
 * ratio: mode ÷ baseline.
 */
export type GateMeasure = 'value' | 'fraction-of-target' | 'difference' | 'relative' | 'ratio';

export type AnalysisVerdict = 'pass' | 'fail' | 'inconclusive' | 'invalid';

/** A point estimate with its bootstrap confidence interval (absent below two values). */
export interface Estimate {
  value: number;
  ci?: Interval;
}

export interface StatisticSummary {
  metric: MetricId;
  unit: Unit;
  /** Valid repetitions that carried this statistic. */
  n: number;
  /** Median over valid repetitions. */
  median: number;
  /** Bootstrap CI of the median (absent below two repetitions). */
  ci?: Interval;
  /** Run-to-run coefficient of variation (sd / mean) over the repetitions. */
  cv?: number;
  /**
   * Relative change a comparison of two runs like this one (same repetitions, same noise) would
   * detect with 80 % power at the gate's alpha; null when the repetitions are too few for the
   * rank test to reach alpha at all (JSON has no Infinity).
   */
  mde?: number | null;
  /** Count-weighted value over all valid repetitions (error rate: failures ÷ requests). */
  pooled?: number;
}

export interface RoundCount {
  round: number;
  valid: number;
  invalid: number;
}

export interface ModeSummary {
  mode: string;
  profile: string;
  repetitions: number;
  valid: number;
  invalid: number;
  rounds: RoundCount[];
  statistics: Partial<Record<MetricId, StatisticSummary>>;
}

/** A mode against the baseline mode of the same run, paired by interleaved block. */
export interface OverheadEstimate {
  mode: string;
  profile: string;
  baseline: string;
  metric: MetricId;
  unit: Unit;
  /** Blocks in which both the mode and the baseline have a valid repetition. */
  pairs: number;
  /** False when too few blocks pair up and the medians were compared unpaired. */
  paired: boolean;
  /** mode − baseline, in the metric's unit. */
  difference: Estimate;
  /** mode ÷ baseline (absent when the baseline's value is 0). */
  ratio?: Estimate;
  /** Smallest overhead distinguishable from zero with this noise (difference in unit, and relative); null: undetectable. */
  mde?: { difference: number | null; relative: number | null };
}

/** inconclusive: the gate could not tell pass from fail with these repetitions (never a pass). */
export type Decision = 'pass' | 'fail' | 'inconclusive' | 'skipped';

export interface ReferenceSummary {
  /** Runs the reference was built from, newest first. */
  runIds: string[];
  /** Run-level values pooled from those runs. */
  values: number;
  /** Median of the pooled reference values, with CI. */
  median: Estimate;
}

export interface RunToRunCheck {
  /** Past runs whose medians estimate how much a whole run moves from job to job. */
  runs: number;
  /** sd of the runs' log medians. */
  spread: number;
  /** null when the past runs have no spread at all (the candidate is then judged by its side alone). */
  t: number | null;
  p: number;
}

/**
 * Job-to-job spread of the stored runs (τ, sd of their log level beyond what their repetitions
 * explain). The pass bound of a history gate includes it; `supportsTargets` says whether a gate
 * against these runs can reach ≤ 1 % false alarms and 90 % detection of the practical minimum
 * at all (τ·√(1 + 1/k) ≤ targetSe), whatever the repetitions.
 */
export interface JobToJobSpread {
  /** Stored runs τ was estimated from. */
  runs: number;
  /** null: fewer than 2 runs, not estimable. */
  tau: number | null;
  /** The standard error of the log change the targets need: minimum ÷ (z₀.₉₉ + z₀.₉). */
  targetSe: number;
  supportsTargets: boolean | null;
}

export interface RoundEvidence {
  /** 1, 2, or "pooled" for all rounds together. */
  round: number | 'pooled';
  n: number;
  change: Estimate;
  changeAbsolute: number;
  /** One-sided (1 − alpha) upper confidence bound of the change; practical when it reaches the minimum. */
  changeBound?: number;
  p: number;
  significant: boolean;
  practical: boolean;
}

export interface RegressionEvidence {
  /** absolute: the mode's own values; relative: the mode ÷ baseline per block (cancels job-to-job drift). */
  basis: 'absolute' | 'relative';
  candidate: Estimate;
  reference: ReferenceSummary;
  /** Relative change candidate ÷ reference − 1, with bootstrap CI. */
  change: Estimate;
  /** The change in the metric's unit (ms for latency). */
  changeAbsolute: number;
  /** One-sided (1 − alpha) upper confidence bound of the change; practical when it reaches the minimum. */
  changeBound?: number;
  mannWhitney: MannWhitneyResult;
  runToRun?: RunToRunCheck;
  /** τ from the stored runs, in the pass bound (absent in files before results schema v4). */
  jobToJob?: JobToJobSpread;
  significant: boolean;
  practical: boolean;
  /** Present when a confirmation round exists: each round alone and pooled. */
  rounds?: RoundEvidence[];
}

/** How the A/B gate decided, as a code (outputs word it): */
export type AbReason =
  /** fail: significantly slower at the look's boundary and not shown under the practical minimum. */
  | 'slower'
  /** pass: the upper bound of the change is under the practical minimum. */
  | 'within-minimum'
  /** inconclusive: the last look (blocks or time spent, or repetitions: N) did not settle it. */
  | 'budget-spent'
  /** inconclusive: the run stopped before this gate decided, because another gate failed it. */
  | 'run-stopped'
  /** inconclusive: fewer paired blocks than any interval needs. */
  | 'too-few-blocks'
  /** inconclusive: an arm has no valid repetition to pair (the error gate names it). */
  | 'arm-invalid'
  /** inconclusive for now: more blocks at the next look. */
  | 'continue';

/** One A/B gate: a mode's head arm against its base arm, one profile, one statistic. */
export interface AbGateEvidence {
  /** The mode the arms belong to (the arms run as "<mode>-base" and "<mode>-head"). */
  mode: string;
  profile: string;
  statistic: MetricId;
  /** Blocks in which both arms have a valid repetition. */
  pairs: number;
  estimator: 'hodges-lehmann' | 'trimmed-mean' | 'paired-t';
  /**
   * head ÷ base − 1 (from the estimator's centre of the per-block log ratios), with the two-sided
   * interval at this look's boundaries: low from the fail side, high from the pass side. A bound the
   * estimator cannot give at this look's level (Hodges–Lehmann with few blocks) is e^±50 − 1.
   */
  change: { value: number; low: number; high: number; level: number };
  /** Upper bound of the change at this look's pass boundary (the pass statement's figure). */
  upperBound: number;
  /** One-sided p of "head slower than base" on the fail side's statistic (fails when ≤ `nominalAlpha`, unless shown within the minimum). */
  p: number;
  /** This look's fail boundary as a nominal one-sided p (the alpha this look spends). */
  nominalAlpha: number;
  /** Medians of the arms' statistic over their paired blocks, ms. */
  baseMs: number;
  headMs: number;
  /** headMs − baseMs. */
  differenceMs: number;
  /** The practical minimum as configured: relative (0.05) and in ms. */
  minEffect: number;
  minEffectMs: number;
  /** The minimum in force: max(minEffect, minEffectMs ÷ baseMs), as a relative change. */
  minimum: number;
  decision: 'pass' | 'fail' | 'inconclusive';
  reason: AbReason;
  /** 0-based index of the look this decision was made at, and the looks planned. */
  look: number;
  looks: number;
  /** A/B gates of the run sharing its alpha (modes with arms × profiles × statistics); absent in older files: 1. */
  family?: number;
  /** Share of the run's alpha this gate spent at this look (Holm: 1 ÷ gates not yet failed). */
  alphaShare?: number;
  /** Variance factor for dependent blocks (1: independent; dependence.ts). */
  dependence?: number;
  /** Inconclusive at the last look: paired blocks that would settle it at this noise (null: none would). */
  blocksToSettle?: number | null;
  /** Smallest slowdown these blocks detect with 80 % power at this look's boundary (relative); null when undefined. */
  mde: number | null;
  /** sd of the per-block log ratios (the noise r the design rests on). */
  spread: number;
  /** Per-block head ÷ base, for the per-block ratio chart. */
  perBlock: { block: number; ratio: number }[];
}

/** Why the pipeline stopped measuring (written by the pipeline, which knows the clock). */
export interface StoppingRecord {
  /** decided: every gate decided; gate-failed: a gate failed the run while others were still deciding. */
  reason: 'decided' | 'gate-failed' | 'budget-blocks' | 'budget-time' | 'fixed' | 'cancelled' | 'invalid';
  /** Blocks measured in total. */
  blocks: number;
  /** 0-based index of the look it stopped at. */
  look: number;
  /** The design's looks, as block counts, as the run placed them (the last where the budget ended). */
  looks: number[];
  /** The looks as planned before the run, when the measured pace moved them (the time budget held fewer blocks). */
  plannedLooks?: number[];
  elapsedS: number;
}

export interface GateResult {
  kind: 'threshold' | 'overhead' | 'regression' | 'ab';
  /** The expression as configured, or "regression p50". */
  gate: string;
  mode: string;
  profile: string;
  metric: MetricId;
  /** What was compared with the limit; unit follows from it and the metric. */
  measure: GateMeasure | 'change';
  unit: Unit | 'ratio' | 'relative';
  /** Absent when the gate was skipped. */
  value?: Estimate;
  /** Human text of the limit: "< 250 ms", "+5 % and +0.05 ms with p ≤ 0.05". */
  threshold: string;
  decision: Decision;
  /** The CI crosses the limit: the decision could flip on a re-run. */
  marginal?: boolean;
  /** Relative MDE for this comparison (null when undetectable at these sizes). */
  mde?: number | null;
  /** MDE in the measured unit, where that reads better (overhead budgets in ms). */
  mdeAbsolute?: number | null;
  evidence?: RegressionEvidence;
  /** Regression found in round 1 and waiting for the confirmation re-run. */
  pendingConfirmation?: boolean;
  /** Compared and shown, but not allowed to fail the run (see note). */
  reportOnly?: boolean;
  /** Inconclusive gates: repetitions per side that would settle it, from the MDE (null: none would). */
  repetitionsToSettle?: number | null;
  /** The verdict line: metric, value with CI, reference, threshold, decision, MDE (worded by report/gate-words.ts). */
  line: string;
  /** Why it was skipped, when it was. */
  note?: string;
}

export interface ReferenceExclusion {
  runId: string;
  reason: string;
}

export interface Analysis {
  /** Version of this block's shape, independent of the results schema version. */
  version: 1;
  seed: number;
  level: number;
  alpha: number;
  resamples: number;
  baseline: string;
  /** Rounds present in the run: [1], or [1, 2] after a confirmation re-run. */
  rounds: number[];
  summaries: ModeSummary[];
  overheads: OverheadEstimate[];
  gates: GateResult[];
  verdict: AnalysisVerdict;
  verdictReasons: string[];
  /**
   * Modes that need more blocks at the next look (the arms of an undecided A/B gate, a history-gated
   * mode whose regression is inconclusive or awaits confirmation, with the baseline it is judged
   * against); empty: stop. Replaced modesToConfirm in results schema v4.
   */
  modesToExtend: string[];
  /** A/B gates: head against base per mode with arms (absent when no mode has arms). */
  ab?: { gates: AbGateEvidence[] };
  /** How measuring stopped (measure-until-decided runs). */
  stopping?: StoppingRecord;
  reference?: { runIds: string[]; excluded: ReferenceExclusion[] };
  /** "with this noise, changes under 7% on p50 are not detectable", per mode and gated statistic. */
  detectability: string[];
  /** Things the user should know that are not gate decisions (skipped gates, missing data). */
  notes: string[];
}
