// analyzeRun: RunResult (+ reference runs from history) → Analysis. Pure and deterministic: the
// bootstrap streams derive from the run's plan seed, so the same file always gives the same
// intervals. Called once after the main round and, when a regression needs confirming, again
// on the pooled result after the pipeline re-ran those modes and the baseline as round 2.
import { findMode } from '../results/modes.ts';
import type { Config } from '../config/validate.ts';
import type { ModeResult, RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES } from './bootstrap.ts';
import type { AnalysisContext } from './context.ts';
import { parseGateExpression, type GateExpression } from '../gates/expression.ts';
import type { MetricId } from '../results/metric-ids.ts';
import { OVERHEAD_METRICS, SUMMARY_METRICS } from '../results/metrics.ts';
import { computeOverhead } from './overhead.ts';
import { evaluateErrorGate } from './error-gate.ts';
import { evaluateRegression } from './regression.ts';
import { diffScenarioKeys, sameScenario, scenarioKey } from './scenario.ts';
import { roundOf, summarizeMode } from './summary.ts';
import { evaluateOverheadBudget, evaluateThreshold, modesInScope } from './thresholds.ts';
import type { ModeSummary, OverheadEstimate, StoppingRecord } from '../results/analysis.ts';
import type {
  AnalysisEvidence,
  AnalysisNote,
  DetectabilityEvidence,
  GateEvidence,
  ReferenceExclusionEvidence,
} from '../results/evidence.ts';
import { decideVerdict } from './verdict.ts';
import { abDesignFor, armsOf } from './ab/arms.ts';
import type { SequentialDesign } from './ab/design.ts';
import { type AbGateOutcome, evaluateAbFamily } from './ab/family.ts';

export interface AnalyzeOptions {
  /** Past runs to judge regressions against (any scenario; the ones that match are used). */
  reference?: RunResult[];
  /** Why past runs could not be read (an unreachable store): said instead of "no reference runs". */
  referenceUnavailable?: string;
  config: Config;
  /** Bootstrap resamples per interval (default 2,000). */
  resamples?: number;
  /**
   * Measure-until-decided runs: the look this analysis is (0-based index into the design's looks)
   * and whether measuring stops here anyway (budget spent, or repetitions: N). Without it the run
   * is one fixed-size look: A/B gates decide at a single final look, and modesToExtend lists only
   * regressions awaiting their confirmation round.
   */
  look?: {
    index: number;
    final: boolean;
    /** Why measuring stopped here when it was not that every gate decided (the A/B gates' undecided say so). */
    stoppedBy?: 'gate-failed' | StoppingRecord['reason'];
  };
  /** The sequential design the looks follow (default: from the run's blocks, see abDesignFor). */
  design?: SequentialDesign;
}

export type RegressionBasis = 'auto' | 'absolute' | 'relative';

export function analyzeRun(result: RunResult, options: AnalyzeOptions): AnalysisEvidence {
  const { config } = options;
  const regression = config.gates.regression;
  const context: AnalysisContext = {
    seed: result.plan?.seed ?? 0,
    resamples: options.resamples ?? DEFAULT_RESAMPLES,
    level: DEFAULT_LEVEL,
    alpha: regression.alpha,
  };
  const baseline = result.baseline || config.baseline;
  const expressions = parseAll([...config.gates.thresholds, ...config.gates.overhead]);
  const notes: AnalysisNote[] = [];

  const metrics = new Set<MetricId>([...SUMMARY_METRICS, ...expressions.map((e) => e.metric)]);
  if (regression.enabled) for (const s of regression.statistics) metrics.add(s);
  const summaries = result.modes.map((m) => summarizeMode(m, [...metrics], context));

  const overheads: OverheadEstimate[] = [];
  for (const mode of result.modes) {
    if (mode.name === baseline) continue;
    const base = findMode(result, baseline, mode.profile);
    if (!base) continue;
    for (const metric of new Set([...OVERHEAD_METRICS, ...expressions.filter((e) => e.kind === 'overhead').map((e) => e.metric)])) {
      const estimate = computeOverhead(mode, base, metric, context);
      if (estimate) overheads.push(estimate);
    }
  }
  if (result.modes.length > 1 && !result.modes.some((m) => m.name === baseline)) {
    notes.push({ code: 'baseline-not-in-run', baseline });
  }

  const gates: GateEvidence[] = [];
  for (const expression of expressions) {
    const targets = modesInScope(expression, result.modes, baseline);
    for (const unknown of unknownScopeNames(expression, result)) notes.push(unknown);
    if (targets.length === 0) {
      notes.push({ code: 'gate-applies-to-no-mode', gate: expression.text, overhead: expression.kind === 'overhead' });
      continue;
    }
    for (const mode of targets) {
      if (expression.kind === 'threshold') {
        gates.push(evaluateThreshold(expression, mode, context));
        continue;
      }
      const base = findMode(result, baseline, mode.profile);
      if (!base) {
        notes.push({ code: 'baseline-lacks-profile', gate: expression.text, mode: mode.name, baseline, profile: mode.profile });
        continue;
      }
      const known = overheads.find((o) => o.mode === mode.name && o.profile === mode.profile && o.metric === expression.metric);
      gates.push(evaluateOverheadBudget(expression, mode, base, context, known));
    }
  }

  let reference: AnalysisEvidence['reference'];
  if (regression.enabled) {
    const history = options.reference ?? [];
    if (options.referenceUnavailable) {
      notes.push({ code: 'reference-unavailable', why: options.referenceUnavailable });
    } else if (history.length === 0) {
      notes.push({ code: 'no-reference-runs' });
    } else {
      const used = new Set<string>();
      const excluded = new Map<string, ReferenceExclusionEvidence>();
      const basisSetting: RegressionBasis = regression.basis;
      const anyModeRelative = result.modes.some((m) => basisFor(basisSetting, m, result, baseline) === 'relative');
      for (const mode of result.modes) {
        const basis = basisFor(basisSetting, mode, result, baseline);
        const selection = selectReference(
          result,
          history,
          mode.name,
          mode.profile,
          basis === 'relative' ? baseline : undefined,
          regression.window,
        );
        for (const r of selection.runs) used.add(r.run.id);
        for (const x of selection.excluded) excluded.set(JSON.stringify(x), x);
        for (const metric of regression.statistics) {
          gates.push(
            evaluateRegression(
              {
                candidate: result,
                mode: mode.name,
                profile: mode.profile,
                metric,
                basis,
                baseline,
                references: selection.runs,
                settings: { minEffectPct: regression.minEffectPct, minEffectMs: regression.minEffectMs, alpha: regression.alpha },
                confirm: regression.confirm,
                gateAbsoluteAcrossJobs: basisSetting === 'absolute',
                baselineOfRelativeModes: mode.name === baseline && anyModeRelative,
              },
              context,
            ),
          );
        }
      }
      reference = { runIds: [...used], excluded: [...excluded.values()] };
      if (used.size === 0)
        // Only this run itself, or runs without its modes: reference.excluded would be empty.
        notes.push(excluded.size > 0 ? { code: 'reference-none-matches', runs: history.length } : noneComparable(result, history));
    }
  }

  for (const mode of result.modes) {
    const gate = evaluateErrorGate(
      mode,
      config.profiles.find((p) => p.name === mode.profile),
    );
    if (gate) gates.push(gate);
  }

  const ab = config.gates.ab.enabled ? evaluateAbGates(result, config, options) : [];
  // Only the endpoints platform measures each arm on one server: local starts a fresh one per
  // block, a cluster runs at least two pods per arm (config/ab-checks.ts).
  if (ab.length > 0 && result.run.platform === 'endpoints') notes.push({ code: 'ab-one-instance-per-arm', platform: 'endpoints' });
  for (const { gate } of ab) gates.push(gate);

  const decided = decideVerdict(result, gates);
  const detectability = detectabilityOf(summaries, [
    ...new Set<MetricId>([...(regression.enabled ? regression.statistics : ['p50' as const]), ...expressions.map((e) => e.metric)]),
  ]);
  const rounds = [...new Set(result.modes.flatMap((m) => m.repetitions.map(roundOf)))].sort((a, b) => a - b);
  return {
    version: 1,
    seed: context.seed,
    level: context.level,
    alpha: context.alpha,
    resamples: context.resamples,
    baseline,
    rounds,
    summaries,
    overheads,
    gates,
    verdict: decided.verdict,
    verdictReasons: decided.reasons,
    modesToExtend: modesToExtend(result, gates, ab, decided.verdict, decided.modesToConfirm, baseline, options.look),
    ...(ab.length > 0 ? { ab: { gates: ab.map((a) => a.evidence) } } : {}),
    ...(reference ? { reference } : {}),
    detectability,
    notes,
  };
}

/** Every mode with arms × profile × gated statistic: one family sharing the run's alpha (ab/family.ts). */
export function evaluateAbGates(result: RunResult, config: Config, options: AnalyzeOptions): AbGateOutcome[] {
  const settings = config.gates.ab;
  const arms = armsOf(result);
  if (arms.length === 0) return [];
  const design = options.design ?? abDesignFor(result, config, options.look === undefined);
  const look = options.look ?? { index: design.looks.length - 1, final: true };
  const members = arms.flatMap((pair) =>
    settings.statistics.map((statistic) => ({ mode: pair.of, profile: pair.profile, statistic, base: pair.base, head: pair.head })),
  );
  return evaluateAbFamily({ members, settings, design, look });
}

/**
 * Modes to measure at the next look: the arms of A/B gates still deciding, and (measure-until-decided
 * runs, before the last look) history-gated modes whose regression is inconclusive or awaits its
 * confirmation, with the baseline their ratios need. Without a look: as the confirmation round
 * always did, the modes whose regression awaits confirmation (the baseline comes with them).
 */
export function modesToExtend(
  result: RunResult,
  gates: readonly GateEvidence[],
  ab: readonly AbGateOutcome[],
  verdict: AnalysisEvidence['verdict'],
  toConfirm: readonly string[],
  baseline: string,
  look: AnalyzeOptions['look'],
): string[] {
  if (!look) return [...toConfirm];
  if (look.final || verdict === 'invalid') return [];
  const out = new Set<string>();
  for (const { evidence } of ab) {
    if (evidence.reason !== 'continue') continue;
    for (const m of result.modes) if (m.arm?.of === evidence.mode && m.profile === evidence.profile) out.add(m.name);
  }
  for (const gate of gates) {
    if (gate.kind !== 'regression' || gate.reportOnly) continue;
    if (gate.decision !== 'inconclusive' && !gate.pendingConfirmation) continue;
    out.add(gate.mode);
    if (gate.evidence?.basis === 'relative') out.add(baseline);
  }
  return [...out];
}

/** The MDE of each statistic the gates look at (relative metrics only: latency, cost). */
function detectabilityOf(summaries: readonly ModeSummary[], metrics: readonly MetricId[]): DetectabilityEvidence[] {
  const out: DetectabilityEvidence[] = [];
  for (const summary of summaries) {
    for (const metric of metrics) {
      const stat = summary.statistics[metric];
      if (!stat || stat.unit === 'fraction') continue;
      out.push({ mode: summary.mode, profile: summary.profile, metric, mde: stat.mde, n: stat.n });
    }
  }
  return out;
}

function parseAll(texts: readonly string[]): GateExpression[] {
  return texts.map((text) => {
    const parsed = parseGateExpression(text);
    if (!parsed.ok) throw new UsageError(`gates: ${parsed.error}`);
    return parsed.value;
  });
}

function basisFor(setting: RegressionBasis, mode: ModeResult, result: RunResult, baseline: string): 'absolute' | 'relative' {
  if (setting === 'absolute' || mode.name === baseline) return 'absolute';
  const hasBaseline = Boolean(findMode(result, baseline, mode.profile));
  if (setting === 'relative' && !hasBaseline) return 'absolute';
  return hasBaseline ? 'relative' : 'absolute';
}

/**
 * Past runs comparable with this mode: same scenario key (and, for the relative basis, the same
 * key for the baseline mode too), not this run itself, with valid repetitions; newest first, at
 * most `window` of them.
 */
export function selectReference(
  current: RunResult,
  history: readonly RunResult[],
  mode: string,
  profile: string,
  baseline: string | undefined,
  window: number,
): { runs: RunResult[]; excluded: ReferenceExclusionEvidence[] } {
  const key = scenarioKey(current, mode, profile);
  const baseKey = baseline ? scenarioKey(current, baseline, profile) : undefined;
  const runs: RunResult[] = [];
  const excluded: ReferenceExclusionEvidence[] = [];
  const newestFirst = [...history].sort((a, b) => String(b.run?.startedAt ?? '').localeCompare(String(a.run?.startedAt ?? '')));
  for (const past of newestFirst) {
    const id = past.run?.id ?? '(no id)';
    if (past.run?.id === current.run?.id) continue;
    const modeResult = findMode(past, mode, profile);
    if (!modeResult) continue;
    const differences = diffScenarioKeys(key, scenarioKey(past, mode, profile));
    if (differences.length > 0) {
      excluded.push({ runId: id, mode, profile, why: 'scenario', differences: differences.map(({ field, a, b }) => ({ field, a, b })) });
      continue;
    }
    if (baseKey && baseline) {
      const pastBaseline = findMode(past, baseline, profile);
      if (!pastBaseline || !sameScenario(baseKey, scenarioKey(past, baseline, profile))) {
        excluded.push({ runId: id, mode, profile, why: 'baseline', baseline });
        continue;
      }
    }
    if (!modeResult.repetitions.some((r) => r.valid)) {
      excluded.push({ runId: id, mode, profile, why: 'no-valid' });
      continue;
    }
    if (runs.length < window) runs.push(past);
  }
  return { runs, excluded };
}

/** Why no stored run has a mode and load profile of this run: which it measured, and which they did. */
function noneComparable(result: RunResult, history: readonly RunResult[]): AnalysisNote {
  const pairs = (run: RunResult) => run.modes.map((m) => `${m.name} [${m.profile}]`);
  const others = history.filter((r) => r.run?.id !== result.run?.id);
  return {
    code: 'reference-none-comparable',
    runs: history.length,
    self: history.length - others.length,
    ours: [...new Set(pairs(result))],
    theirs: [...new Set(others.flatMap(pairs))].sort(),
  };
}

function unknownScopeNames(expression: GateExpression, result: RunResult): AnalysisNote[] {
  const out: AnalysisNote[] = [];
  const modes = [...new Set(result.modes.map((m) => m.name))];
  const profiles = [...new Set(result.modes.map((m) => m.profile))];
  for (const name of expression.scope.modes ?? [])
    if (!modes.includes(name)) out.push({ code: 'gate-names-unknown-mode', gate: expression.text, name, known: modes });
  for (const name of expression.scope.profiles ?? [])
    if (!profiles.includes(name)) out.push({ code: 'gate-names-unknown-profile', gate: expression.text, name, known: profiles });
  return out;
}
