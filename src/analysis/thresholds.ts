// Absolute thresholds ("p(95) < 250ms") and overhead budgets ("overhead.p99 < 2ms") evaluated on
// one run. The decision uses the point estimate (median over repetitions), as k6 does with its
// thresholds; the CI is shown beside it and a decision whose CI crosses the limit is marked marginal.
import type { ModeResult, Repetition } from '../results/types.ts';
import { bootstrapInterval, bootstrapStatistic, withCi } from './bootstrap.ts';
import { type AnalysisContext, streamFor } from './context.ts';
import { median } from './descriptive.ts';
import { compare, inScope, type GateExpression } from '../gates/expression.ts';
import { METRICS } from '../results/metrics.ts';
import { computeOverhead } from './overhead.ts';
import { pooledErrorRate, summarizeStatistic, validRepetitions } from './summary.ts';
import type { Estimate, OverheadEstimate } from '../results/analysis.ts';
import type { GateEvidence } from '../results/evidence.ts';

export function evaluateThreshold(expression: GateExpression, mode: ModeResult, context: AnalysisContext): GateEvidence {
  const reps = validRepetitions(mode);
  const metric = METRICS[expression.metric];
  const unit = expression.measure === 'fraction-of-target' ? 'fraction' : metric.unit;
  const base = gateOf(expression, mode, unit);
  const values = measureValues(expression, reps);
  if (values.length === 0) {
    const skip =
      expression.measure === 'fraction-of-target' ? 'no-target-rate' : reps.length === 0 ? 'no-valid-repetition' : 'not-measured';
    return { ...base, decision: 'skipped', skip };
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
  return {
    ...base,
    value,
    decision,
    ...(marginal ? { marginal } : {}),
    ...(mde !== undefined ? { mde } : {}),
    ...(summary ? { mdeN: summary.n } : {}),
  };
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
): GateEvidence {
  const metric = METRICS[expression.metric];
  const overhead = known ?? computeOverhead(mode, baseline, expression.metric, context);
  const unit: GateEvidence['unit'] =
    expression.measure === 'difference' ? metric.unit : expression.measure === 'ratio' ? 'ratio' : 'relative';
  const base = { ...gateOf(expression, mode, unit), baseline: baseline.name };
  const value: Estimate | undefined =
    expression.measure === 'difference'
      ? overhead?.difference
      : expression.measure === 'ratio'
        ? overhead?.ratio
        : overhead?.ratio && shift(overhead.ratio, -1);
  if (!overhead || !value || !Number.isFinite(value.value)) {
    return { ...base, decision: 'skipped', skip: overhead ? 'baseline-zero' : 'no-pairs' };
  }
  const passed = compare(value.value, expression.op, expression.limit);
  const marginal = value.ci !== undefined && value.ci.low <= expression.limit && expression.limit <= value.ci.high;
  const decision = passed ? 'pass' : 'fail';
  return {
    ...base,
    value,
    decision,
    ...(marginal ? { marginal } : {}),
    ...(overhead.mde ? { mde: overhead.mde.relative, mdeAbsolute: overhead.mde.difference } : {}),
    pairing: { paired: overhead.paired, pairs: overhead.pairs },
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

/** What every decision of a configured gate carries: which gate, on what, against which limit. */
function gateOf(expression: GateExpression, mode: ModeResult, unit: GateEvidence['unit']) {
  return {
    kind: expression.kind,
    gate: expression.text,
    mode: mode.name,
    profile: mode.profile,
    metric: expression.metric,
    measure: expression.measure,
    unit,
    limit: { op: expression.op, value: expression.limit },
  };
}
