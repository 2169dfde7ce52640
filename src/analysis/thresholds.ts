// Absolute thresholds ("p(95) < 250ms") and overhead budgets ("overhead.p99 < 2ms") evaluated on
// one run. The decision uses the point estimate (median over repetitions), as k6 does with its
// thresholds; the CI is shown beside it and a decision whose CI crosses the limit is marked marginal.
import type { ModeResult, Repetition } from '../results/types.ts';
import { bootstrapInterval, bootstrapStatistic, withCi } from './bootstrap.ts';
import { type AnalysisContext, streamFor } from './context.ts';
import { median } from './descriptive.ts';
import { compare, inScope, type GateExpression } from '../gates/expression.ts';
import { formatEstimate, formatLimit, formatNumber, formatPercent, mdeSentence } from './format.ts';
import { METRICS } from '../results/metrics.ts';
import { computeOverhead } from './overhead.ts';
import { pooledErrorRate, summarizeStatistic, validRepetitions } from './summary.ts';
import type { Estimate, GateResult, OverheadEstimate } from '../results/analysis.ts';

export function evaluateThreshold(expression: GateExpression, mode: ModeResult, context: AnalysisContext): GateResult {
  const reps = validRepetitions(mode);
  const metric = METRICS[expression.metric];
  const unit = expression.measure === 'fraction-of-target' ? 'fraction' : metric.unit;
  const base = {
    kind: 'threshold' as const,
    gate: expression.text,
    mode: mode.name,
    profile: mode.profile,
    metric: expression.metric,
    measure: expression.measure,
    unit,
    threshold: `${expression.op} ${formatLimit(expression.limit, unit)}`,
  };
  const values = measureValues(expression, reps);
  if (values.length === 0) {
    const note =
      expression.measure === 'fraction-of-target'
        ? 'no valid repetition with a target rate (closed-model or script profiles have none)'
        : reps.length === 0
          ? 'no valid repetition to judge'
          : `no ${metric.label} was measured (resource figures come from Kubernetes platforms)`;
    return { ...base, decision: 'skipped', note, line: `${label(mode, metric.label)}: skipped, ${note} (gate ${expression.text})` };
  }
  const random = streamFor(context, 'threshold', expression.text, mode.name, mode.profile);
  const options = { random, resamples: context.resamples, level: context.level };
  let value: Estimate;
  if (expression.metric === 'errorRate') {
    // Errors are not noise around a centre: a failing repetition must count, so the run's rate is
    // failures ÷ requests over all valid repetitions (k6's own definition), resampled by repetition.
    const ci = bootstrapStatistic(reps, pooledErrorRate, options);
    value = withCi(pooledErrorRate(reps), ci);
  } else {
    value = withCi(median(values), bootstrapInterval(values, options));
  }
  const passed = compare(value.value, expression.op, expression.limit);
  const marginal = value.ci !== undefined && value.ci.low <= expression.limit && expression.limit <= value.ci.high;
  const summary = summarizeStatistic(reps, expression.metric, context, 'threshold-mde', mode.name, mode.profile);
  const mde = summary?.mde;
  const decision = passed ? 'pass' : 'fail';
  const line =
    `${label(mode, metric.label + (expression.measure === 'fraction-of-target' ? ' ÷ target' : ''))}: ${formatEstimate(value, unit)}` +
    `, threshold ${base.threshold} → ${decision}${marginal ? ' (marginal: the CI crosses the limit)' : ''}; ${mdeSentence(mde, metric.label, summary?.n)}`;
  return { ...base, value, decision, ...(marginal ? { marginal } : {}), ...(mde !== undefined ? { mde } : {}), line };
}

function measureValues(expression: GateExpression, reps: readonly Repetition[]): number[] {
  const out: number[] = [];
  for (const r of reps) {
    if (expression.measure === 'fraction-of-target') {
      if (r.targetRps && r.targetRps > 0) out.push(r.achievedRps / r.targetRps);
      continue;
    }
    const v = METRICS[expression.metric].extract(r);
    if (v !== undefined) out.push(v);
  }
  return out;
}

export function evaluateOverheadBudget(
  expression: GateExpression,
  mode: ModeResult,
  baseline: ModeResult,
  context: AnalysisContext,
  known?: OverheadEstimate,
): GateResult {
  const metric = METRICS[expression.metric];
  const overhead = known ?? computeOverhead(mode, baseline, expression.metric, context);
  const unit: GateResult['unit'] =
    expression.measure === 'difference' ? metric.unit : expression.measure === 'ratio' ? 'ratio' : 'relative';
  const what = `overhead${expression.measure === 'ratio' ? '_ratio' : ''}.${metric.label} vs ${baseline.name}`;
  const base = {
    kind: 'overhead' as const,
    gate: expression.text,
    mode: mode.name,
    profile: mode.profile,
    metric: expression.metric,
    measure: expression.measure,
    unit,
    threshold: `${expression.op} ${formatLimit(expression.limit, unit)}`,
  };
  const value: Estimate | undefined =
    expression.measure === 'difference'
      ? overhead?.difference
      : expression.measure === 'ratio'
        ? overhead?.ratio
        : overhead?.ratio && shift(overhead.ratio, -1);
  if (!overhead || !value || !Number.isFinite(value.value)) {
    const note = overhead
      ? `${baseline.name}'s ${metric.label} is 0, so no ratio exists`
      : `no valid repetitions of both ${mode.name} and ${baseline.name} with ${metric.label}`;
    return { ...base, decision: 'skipped', note, line: `${label(mode, what)}: skipped, ${note}` };
  }
  const passed = compare(value.value, expression.op, expression.limit);
  const marginal = value.ci !== undefined && value.ci.low <= expression.limit && expression.limit <= value.ci.high;
  const decision = passed ? 'pass' : 'fail';
  const pairing = overhead.paired ? `paired over ${overhead.pairs} blocks` : 'unpaired: too few blocks pair up';
  const mdeText = overhead.mde
    ? overhead.mde.difference !== null
      ? `with this noise, overheads under ${formatNumber(overhead.mde.difference, metric.unit)}${overhead.mde.relative !== null ? ` (${formatPercent(overhead.mde.relative, false)})` : ''} on ${metric.label} are not distinguishable from zero`
      : mdeSentence(null, metric.label)
    : mdeSentence(undefined, metric.label);
  const line =
    `${label(mode, what)}: ${formatEstimate(value, unit, true)} (${pairing}), threshold ${base.threshold} → ${decision}` +
    `${marginal ? ' (marginal: the CI crosses the limit)' : ''}; ${mdeText}`;
  return {
    ...base,
    value,
    decision,
    ...(marginal ? { marginal } : {}),
    ...(overhead.mde ? { mde: overhead.mde.relative, mdeAbsolute: overhead.mde.difference } : {}),
    line,
  };
}

/** Modes and profiles a gate applies to. Overhead budgets never apply to the baseline itself. */
export function modesInScope(expression: GateExpression, modes: readonly ModeResult[], baseline: string): ModeResult[] {
  return modes.filter((m) => inScope(expression.scope, m.name, m.profile) && (expression.kind === 'threshold' || m.name !== baseline));
}

function shift(estimate: Estimate, by: number): Estimate {
  return estimate.ci
    ? { value: estimate.value + by, ci: { ...estimate.ci, low: estimate.ci.low + by, high: estimate.ci.high + by } }
    : { value: estimate.value + by };
}

function label(mode: ModeResult, what: string): string {
  return `${mode.name} [${mode.profile}] ${what}`;
}
