// Per mode and load profile: the median of each statistic over valid repetitions, its bootstrap
// CI, the run-to-run CV and the MDE that noise implies. Invalid repetitions never enter.
import type { ModeResult, Repetition } from '../results/types.ts';
import { bootstrapInterval } from './bootstrap.ts';
import { type AnalysisContext, streamFor } from './context.ts';
import { coefficientOfVariation, finiteOrNull, median } from './descriptive.ts';
import { twoSampleMde } from './mde.ts';
import type { MetricId } from '../results/metric-ids.ts';
import { METRICS, metricValues } from '../results/metrics.ts';
import type { ModeSummary, RoundCount, StatisticSummary } from '../results/analysis.ts';

export function validRepetitions(mode: ModeResult, round?: number): Repetition[] {
  return mode.repetitions.filter((r) => r.valid && (round === undefined || roundOf(r) === round));
}

/** Older files and single-round runs may lack the field; they are round 1. */
export function roundOf(repetition: Repetition): number {
  return typeof repetition.round === 'number' ? repetition.round : 1;
}

export function summarizeMode(mode: ModeResult, metrics: readonly MetricId[], context: AnalysisContext): ModeSummary {
  const valid = validRepetitions(mode);
  const statistics: ModeSummary['statistics'] = {};
  for (const metric of metrics) {
    const summary = summarizeStatistic(valid, metric, context, mode.name, mode.profile);
    if (summary) statistics[metric] = summary;
  }
  return {
    mode: mode.name,
    profile: mode.profile,
    repetitions: mode.repetitions.length,
    valid: valid.length,
    invalid: mode.repetitions.length - valid.length,
    rounds: roundCounts(mode.repetitions),
    statistics,
  };
}

export function summarizeStatistic(
  repetitions: readonly Repetition[],
  metric: MetricId,
  context: AnalysisContext,
  ...streamName: string[]
): StatisticSummary | undefined {
  const values = metricValues(repetitions, metric);
  if (values.length === 0) return undefined;
  const ci = bootstrapInterval(values, {
    random: streamFor(context, 'summary', ...streamName, metric),
    resamples: context.resamples,
    level: context.level,
  });
  const cv = coefficientOfVariation(values);
  const summary: StatisticSummary = {
    metric,
    unit: METRICS[metric].unit,
    n: values.length,
    median: median(values),
  };
  if (ci) summary.ci = ci;
  if (cv !== undefined) {
    summary.cv = cv;
    summary.mde = finiteOrNull(twoSampleMde({ cv, n: values.length }, { cv, n: values.length }, context.alpha));
  }
  if (metric === 'errorRate') summary.pooled = pooledErrorRate(repetitions);
  return summary;
}

/** Failures ÷ requests over all given repetitions: how k6 itself would report the whole run. */
export function pooledErrorRate(repetitions: readonly Repetition[]): number {
  let failures = 0;
  let requests = 0;
  for (const r of repetitions) {
    failures += r.failures;
    requests += r.requests;
  }
  return requests > 0 ? failures / requests : 0;
}

function roundCounts(repetitions: readonly Repetition[]): RoundCount[] {
  const byRound = new Map<number, RoundCount>();
  for (const r of repetitions) {
    const round = roundOf(r);
    const entry = byRound.get(round) ?? { round, valid: 0, invalid: 0 };
    if (r.valid) entry.valid++;
    else entry.invalid++;
    byRound.set(round, entry);
  }
  return [...byRound.values()].sort((a, b) => a.round - b.round);
}
