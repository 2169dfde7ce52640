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
import { METRICS, OVERHEAD_METRICS, SUMMARY_METRICS } from '../results/metrics.ts';
import { mdeSentence } from './format.ts';
import { computeOverhead } from './overhead.ts';
import { evaluateErrorGate } from './error-gate.ts';
import { evaluateRegression } from './regression.ts';
import { diffScenarioKeys, sameScenario, scenarioKey } from './scenario.ts';
import { roundOf, summarizeMode } from './summary.ts';
import { evaluateOverheadBudget, evaluateThreshold, modesInScope } from './thresholds.ts';
import type { Analysis, GateResult, ModeSummary, OverheadEstimate, ReferenceExclusion } from '../results/analysis.ts';
import { decideVerdict } from './verdict.ts';
import { abDesignFor, armsOf } from './ab/arms.ts';
import type { SequentialDesign } from './ab/design.ts';
import { evaluateAbGate } from './ab/gate.ts';

export interface AnalyzeOptions {
  /** Past runs to judge regressions against (any scenario; the ones that match are used). */
  reference?: RunResult[];
  config: Config;
  /** Bootstrap resamples per interval (default 2,000). */
  resamples?: number;
  /**
   * Measure-until-decided runs: the look this analysis is (0-based index into the design's looks)
   * and whether measuring stops here anyway (budget spent, or repetitions: N). Without it the run
   * is one fixed-size look: A/B gates decide at a single final look, and modesToExtend lists only
   * regressions awaiting their confirmation round.
   */
  look?: { index: number; final: boolean };
  /** The sequential design the looks follow (default: from the run's blocks, see abDesignFor). */
  design?: SequentialDesign;
}

export type RegressionBasis = 'auto' | 'absolute' | 'relative';

export function analyzeRun(result: RunResult, options: AnalyzeOptions): Analysis {
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
  const notes: string[] = [];

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
    notes.push(`baseline mode "${baseline}" is not in this run; overheads were not computed`);
  }

  const gates: GateResult[] = [];
  for (const expression of expressions) {
    const targets = modesInScope(expression, result.modes, baseline);
    for (const unknown of unknownScopeNames(expression, result)) notes.push(unknown);
    if (targets.length === 0) {
      notes.push(
        `gate "${expression.text}" applies to no mode of this run${expression.kind === 'overhead' ? ' (overhead budgets skip the baseline mode)' : ''}`,
      );
      continue;
    }
    for (const mode of targets) {
      if (expression.kind === 'threshold') {
        gates.push(evaluateThreshold(expression, mode, context));
        continue;
      }
      const base = findMode(result, baseline, mode.profile);
      if (!base) {
        notes.push(`gate "${expression.text}" skipped for ${mode.name}: baseline "${baseline}" has no ${mode.profile} profile in this run`);
        continue;
      }
      const known = overheads.find((o) => o.mode === mode.name && o.profile === mode.profile && o.metric === expression.metric);
      gates.push(evaluateOverheadBudget(expression, mode, base, context, known));
    }
  }

  let reference: Analysis['reference'];
  if (regression.enabled) {
    const history = options.reference ?? [];
    if (history.length === 0) {
      notes.push('no reference runs: the regression gate was not applied (first run of this scenario, or no history configured)');
    } else {
      const used = new Set<string>();
      const excluded = new Map<string, ReferenceExclusion>();
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
        for (const x of selection.excluded) excluded.set(`${x.runId}:${x.reason}`, x);
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
        notes.push(`none of the ${history.length} reference runs matches this run's scenario key; see reference.excluded`);
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
  for (const { gate } of ab) gates.push(gate);

  const decided = decideVerdict(result, gates);
  const detectability = detectabilityLines(summaries, [
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
    verdictReasons: decided.reasons.map((r) => r.message),
    modesToExtend: modesToExtend(result, gates, ab, decided.verdict, decided.modesToConfirm, baseline, options.look),
    ...(ab.length > 0 ? { ab: { gates: ab.map((a) => a.evidence) } } : {}),
    ...(reference ? { reference } : {}),
    detectability,
    notes,
  };
}

/** Every mode with arms × profile × gated statistic. */
function evaluateAbGates(result: RunResult, config: Config, options: AnalyzeOptions): ReturnType<typeof evaluateAbGate>[] {
  const settings = config.gates.ab;
  const arms = armsOf(result);
  if (arms.length === 0) return [];
  const design = options.design ?? abDesignFor(result, config, options.look === undefined);
  const look = options.look ?? { index: design.looks.length - 1, final: true };
  return arms.flatMap((pair) =>
    settings.statistics.map((statistic) =>
      evaluateAbGate({ mode: pair.of, profile: pair.profile, statistic, base: pair.base, head: pair.head, settings, design, look }),
    ),
  );
}

/**
 * Modes to measure at the next look: the arms of A/B gates still deciding, and (measure-until-decided
 * runs, before the last look) history-gated modes whose regression is inconclusive or awaits its
 * confirmation, with the baseline their ratios need. Without a look: as the confirmation round
 * always did, the modes whose regression awaits confirmation (the baseline comes with them).
 */
function modesToExtend(
  result: RunResult,
  gates: readonly GateResult[],
  ab: readonly ReturnType<typeof evaluateAbGate>[],
  verdict: Analysis['verdict'],
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

/** MDE sentences for the statistics the gates look at (relative metrics only: latency, cost). */
function detectabilityLines(summaries: readonly ModeSummary[], metrics: readonly MetricId[]): string[] {
  const lines: string[] = [];
  for (const summary of summaries) {
    for (const metric of metrics) {
      const stat = summary.statistics[metric];
      if (!stat || stat.unit === 'fraction') continue;
      lines.push(`${summary.mode} [${summary.profile}]: ${mdeSentence(stat.mde, METRICS[metric].label, stat.n)}`);
    }
  }
  return lines;
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
): { runs: RunResult[]; excluded: ReferenceExclusion[] } {
  const key = scenarioKey(current, mode, profile);
  const baseKey = baseline ? scenarioKey(current, baseline, profile) : undefined;
  const runs: RunResult[] = [];
  const excluded: ReferenceExclusion[] = [];
  const newestFirst = [...history].sort((a, b) => String(b.run?.startedAt ?? '').localeCompare(String(a.run?.startedAt ?? '')));
  for (const past of newestFirst) {
    const id = past.run?.id ?? '(no id)';
    if (past.run?.id === current.run?.id) continue;
    const modeResult = findMode(past, mode, profile);
    if (!modeResult) continue;
    const differences = diffScenarioKeys(key, scenarioKey(past, mode, profile));
    if (differences.length > 0) {
      excluded.push({ runId: id, reason: `${mode} [${profile}]: ${differences.map((d) => `${d.field} ${d.b} ≠ ${d.a}`).join('; ')}` });
      continue;
    }
    if (baseKey && baseline) {
      const pastBaseline = findMode(past, baseline, profile);
      if (!pastBaseline || !sameScenario(baseKey, scenarioKey(past, baseline, profile))) {
        excluded.push({ runId: id, reason: `${mode} [${profile}]: baseline "${baseline}" missing or measured differently` });
        continue;
      }
    }
    if (!modeResult.repetitions.some((r) => r.valid)) {
      excluded.push({ runId: id, reason: `${mode} [${profile}]: no valid repetition` });
      continue;
    }
    if (runs.length < window) runs.push(past);
  }
  return { runs, excluded };
}

function unknownScopeNames(expression: GateExpression, result: RunResult): string[] {
  const out: string[] = [];
  const modes = new Set(result.modes.map((m) => m.name));
  const profiles = new Set(result.modes.map((m) => m.profile));
  for (const m of expression.scope.modes ?? [])
    if (!modes.has(m)) out.push(`gate "${expression.text}" names mode "${m}", which is not in this run (modes: ${[...modes].join(', ')})`);
  for (const p of expression.scope.profiles ?? [])
    if (!profiles.has(p))
      out.push(`gate "${expression.text}" names profile "${p}", which is not in this run (profiles: ${[...profiles].join(', ')})`);
  return out;
}
