// What the analysis hands over: decisions with their evidence, and every reason as a code with the
// figures it needs. No sentences: report/analysis-words.ts turns this into the stored Analysis
// (results.json "analysis", whose lines, notes and verdict reasons every output prints).
import type { AbGateEvidence, Analysis, GateResult } from './analysis.ts';
import type { MetricId } from './metric-ids.ts';

/** Why a gate was not judged. */
export type GateSkip =
  /** A fraction-of-target threshold, and no valid repetition had a target rate (closed-model or script profiles). */
  | 'no-target-rate'
  /** No valid repetition of the mode. */
  | 'no-valid-repetition'
  /** The metric was not measured (resource figures come from Kubernetes platforms). */
  | 'not-measured'
  /** An overhead ratio, and the baseline's value is 0. */
  | 'baseline-zero'
  /** An overhead, and no valid repetitions of both the mode and the baseline carry the metric. */
  | 'no-pairs'
  /** A regression, and this run has no valid (paired, for the relative basis) repetitions. */
  | 'no-candidate-values'
  /** A regression, and no reference run has values to compare with. */
  | 'no-reference-run';

/** Why a regression comparison is shown but does not gate. */
export type ReportOnlyReason =
  /** The baseline's raw values move with the runner; the other modes' ratios to it cancel that. */
  | 'baseline-of-relative-modes'
  /** Absolute values against fewer reference runs than show how far a job moves (`referenceRuns`, gated from `MIN_RUNS_FOR_ABSOLUTE`). */
  | 'few-reference-runs';

/** One gate's decision and what it rests on; the stored GateResult adds its words (threshold, line, note). */
export interface GateEvidence extends Omit<GateResult, 'threshold' | 'line' | 'note'> {
  /** Thresholds, overhead budgets and the error gate: the limit as configured. */
  limit?: { op: string; value: number };
  skip?: GateSkip;
  reportOnlyReason?: ReportOnlyReason;
  /** Overhead budgets and relative regressions: the mode they are judged against. */
  baseline?: string;
  /** Thresholds: valid values behind the MDE (it reads differently when there are fewer than two; regressions: the smaller of `sizes`). */
  mdeN?: number;
  /** Overhead budgets: blocks paired, or unpaired medians when too few pair up. */
  pairing?: { paired: boolean; pairs: number };
  /** The error gate: the pooled counts and their causes. */
  errors?: { failures: number; requests: number; causes: [string, number][] };
  /** Regressions: the practical minimum and the test level as configured. */
  regression?: { minEffectPct: number; minEffectMs: number; alpha: number; referenceRuns: number };
  /** Regressions: values compared, this run's and the pooled reference's. */
  sizes?: [number, number];
  /** A/B gates: their own evidence. */
  ab?: AbGateEvidence;
}

/** Something the user should know that is not a gate decision. */
export type AnalysisNote =
  | { code: 'baseline-not-in-run'; baseline: string }
  | { code: 'gate-names-unknown-mode'; gate: string; name: string; known: string[] }
  | { code: 'gate-names-unknown-profile'; gate: string; name: string; known: string[] }
  | { code: 'gate-applies-to-no-mode'; gate: string; overhead: boolean }
  | { code: 'baseline-lacks-profile'; gate: string; mode: string; baseline: string; profile: string }
  | { code: 'reference-unavailable'; why: string }
  | { code: 'no-reference-runs' }
  /** None of `runs` reference runs has this run's scenario key (reference.excluded says why). */
  | { code: 'reference-none-matches'; runs: number }
  /**
   * None of `runs` reference runs can be compared: `self` of them are this run itself; the rest
   * share no mode and load profile with it (`theirs`, as "mode [profile]", against `ours`).
   */
  | { code: 'reference-none-comparable'; runs: number; self: number; ours: string[]; theirs: string[] }
  /** A/B arms measured on one server each (platform endpoints): the servers' own offset is not in the interval. */
  | { code: 'ab-one-instance-per-arm'; platform: string };

/** Why a stored run was left out of the reference. */
export interface ReferenceExclusionEvidence {
  runId: string;
  mode: string;
  profile: string;
  /** scenario: measured differently (`differences`); baseline: the baseline missing or measured differently; no-valid: no valid repetition. */
  why: 'scenario' | 'baseline' | 'no-valid';
  differences?: { field: string; a: string; b: string }[];
  baseline?: string;
}

/** The MDE of one gated statistic of one mode, for the detectability lines. */
export interface DetectabilityEvidence {
  mode: string;
  profile: string;
  metric: MetricId;
  mde: number | null | undefined;
  n: number;
}

/** analyzeRun's answer: the stored Analysis less its words, with codes where it had sentences. */
export interface AnalysisEvidence extends Omit<Analysis, 'gates' | 'verdictReasons' | 'reference' | 'detectability' | 'notes'> {
  gates: GateEvidence[];
  /** The verdict's reasons, worst first (analysis/verdict.ts). */
  verdictReasons: VerdictReason[];
  reference?: { runIds: string[]; excluded: ReferenceExclusionEvidence[] };
  detectability: DetectabilityEvidence[];
  notes: AnalysisNote[];
}

/** What a reason makes of the run. */
export type VerdictEffect = 'invalid' | 'fail' | 'inconclusive';

/** Why a run is not a pass, as analysis/verdict.ts decides it; report/verdict-words.ts words it. */
export type VerdictReason = { effect: VerdictEffect; mode?: string; profile?: string } & (
  | { kind: 'aborted'; why: string }
  | { kind: 'missing-repetitions'; missing: number; planned: number }
  | { kind: 'invalid-repetition'; trial: number; block: number; round: number; why: string[] }
  /** Invalid repetitions beyond the ones listed one by one. */
  | { kind: 'more-invalid-repetitions'; more: number }
  | { kind: 'no-valid-repetition' }
  | { kind: 'script-threshold'; metric: string; expression: string }
  /** A mesh proxy of the mode's path crashed under the load (OOMKilled, or an exit that is not a kill): a finding. */
  | { kind: 'proxy-crash'; trial: number; proxy: string; pod: string; how: string }
  | { kind: 'gate'; gate: GateEvidence }
);
