// Percentile bootstrap confidence intervals, seeded so a results file reproduces its intervals.
// With 3–5 repetitions the interval of a median is close to [min, max] of the repetitions; its
// real coverage then is 1 − 2·0.5ⁿ (75 % at n = 3, 94 % at n = 5), which docs/methodology-statistics.md states.
import type { Estimate, Interval } from '../results/analysis.ts';
import type { Random } from '../util/random.ts';
import { median, quantileSorted } from './descriptive.ts';

export interface BootstrapOptions {
  random: Random;
  /** Number of resamples; 2,000 keeps the 2.5 % / 97.5 % quantiles stable to about ±0.3 % of coverage. */
  resamples?: number;
  level?: number;
}

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_LEVEL = 0.95;

function resample<T>(values: readonly T[], random: Random, into: T[]): T[] {
  for (let i = 0; i < values.length; i++) into[i] = values[Math.floor(random() * values.length)]!;
  return into;
}

function percentileInterval(estimates: number[], level: number): Interval {
  return intervalOfSorted(sortedFinite(estimates), level);
}

/** Bootstrap estimates without the undefined ones (a zero median divided by), ascending. */
function sortedFinite(estimates: number[]): number[] {
  return estimates.filter(Number.isFinite).sort((a, b) => a - b);
}

/** The central `level` interval of bootstrap estimates already sorted ascending (finite only). */
export function intervalOfSorted(sorted: readonly number[], level: number): Interval {
  const tail = (1 - level) / 2;
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail), level };
}

/** CI of a statistic (the median by default) of one sample; undefined below two values. */
export function bootstrapInterval(
  values: readonly number[],
  options: BootstrapOptions,
  statistic: (sample: readonly number[]) => number = median,
): Interval | undefined {
  return bootstrapStatistic(values, statistic, options);
}

/** CI of any statistic of a sample of items (e.g. repetitions), resampling the items. */
export function bootstrapStatistic<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions,
): Interval | undefined {
  if (items.length < 2) return undefined;
  const level = options.level ?? DEFAULT_LEVEL;
  const count = options.resamples ?? DEFAULT_RESAMPLES;
  const scratch = new Array<T>(items.length);
  const estimates: number[] = [];
  for (let b = 0; b < count; b++) estimates.push(statistic(resample(items, options.random, scratch)));
  return percentileInterval(estimates, level);
}

/**
 * CI of a two-sample contrast, each sample resampled on its own (independent samples), e.g.
 * median(candidate) / median(reference). Undefined when either side has fewer than two values.
 */
export function bootstrapTwoSampleInterval(
  first: readonly number[],
  second: readonly number[],
  contrast: (a: readonly number[], b: readonly number[]) => number,
  options: BootstrapOptions,
): Interval | undefined {
  const estimates = bootstrapTwoSampleEstimates(first, second, contrast, options);
  return estimates && intervalOfSorted(estimates, options.level ?? DEFAULT_LEVEL);
}

/**
 * The bootstrap distribution of a two-sample contrast, finite estimates sorted ascending, for
 * callers that read more than one interval or bound from the same resamples.
 */
export function bootstrapTwoSampleEstimates(
  first: readonly number[],
  second: readonly number[],
  contrast: (a: readonly number[], b: readonly number[]) => number,
  options: BootstrapOptions,
): number[] | undefined {
  if (first.length < 2 || second.length < 2) return undefined;
  const count = options.resamples ?? DEFAULT_RESAMPLES;
  const a = new Array<number>(first.length);
  const b = new Array<number>(second.length);
  const estimates: number[] = [];
  for (let i = 0; i < count; i++) {
    estimates.push(contrast(resample(first, options.random, a), resample(second, options.random, b)));
  }
  return sortedFinite(estimates);
}

/** A point estimate with its interval, when there is one (below two values there is none). */
export function withCi(value: number, ci: Estimate['ci']): Estimate {
  return ci ? { value, ci } : { value };
}
