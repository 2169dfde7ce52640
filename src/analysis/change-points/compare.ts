// Whether two adjacent segments of a series differ: Student's t on the two segments after each is
// clipped to its median ± 3 robust SDs (one outlier run neither fakes a step nor hides one), and
// the size as the change of segment medians. Pure.
import { normalCdf, studentTCdf, studentTQuantile } from '../distributions.ts';

export interface SegmentComparison {
  /** Two-sided p of a level shift. */
  p: number;
  /** Median after − median before, on the series' scale (log for ratios). */
  shift: number;
  /** 95% interval of the mean shift of the clipped segments. */
  shiftLow: number;
  shiftHigh: number;
}

const MAD_TO_SD = 1.4826;
const CLIP_SDS = 3;

/** Median of an ascending typed array. */
function sortedMedian(xs: Float64Array): number {
  const mid = (xs.length - 1) / 2;
  return (xs[Math.floor(mid)]! + xs[Math.ceil(mid)]!) / 2;
}

/** Median by a typed-array sort: numeric and far faster than Array#sort with a comparator (merge re-tests long segments). */
function fastMedian(values: ArrayLike<number>): number {
  return sortedMedian(Float64Array.from(values).sort());
}

/**
 * Mean and sum of squared deviations of `values` clipped to `center` ± CLIP_SDS robust SDs, in one
 * buffer and no intermediate arrays (the split step tests thousands of short segments a publish).
 */
function clippedMeanAndSquares(values: ArrayLike<number>, center: number): { n: number; mean: number; ss: number } {
  const n = values.length;
  const deviations = new Float64Array(n);
  for (let i = 0; i < n; i++) deviations[i] = Math.abs(values[i]! - center);
  const spread = MAD_TO_SD * sortedMedian(deviations.sort());
  const clip = spread > 0;
  const low = center - CLIP_SDS * spread;
  const high = center + CLIP_SDS * spread;
  // The clipped values, reusing the deviations' buffer.
  const xs = deviations;
  for (let i = 0; i < n; i++) xs[i] = clip ? Math.min(high, Math.max(low, values[i]!)) : values[i]!;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += xs[i]!;
  const mean = sum / n;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (xs[i]! - mean) ** 2;
  return { n, mean, ss };
}

/**
 * The test and sizes; `withInterval: false` skips the interval (a t quantile by bisection, the
 * costliest step) where only p and the shift are needed: the split and merge loops.
 */
/**
 * Two-sided p of Student's t. Above 30 degrees of freedom through the normal deviate
 * z = t(1 − 1/4ν)/√(1 + t²/2ν) (within a few percent of p at p ≈ 0.001, ν ≥ 30): the exact
 * incomplete beta needs hundreds of iterations at large ν, and the merge re-tests segments of
 * hundreds of runs.
 */
function twoSidedP(t: number, df: number): number {
  const at = Math.abs(t);
  if (df <= 30) return Math.min(1, 2 * (1 - studentTCdf(at, df)));
  const z = (at * (1 - 1 / (4 * df))) / Math.sqrt(1 + (at * at) / (2 * df));
  return Math.min(1, 2 * normalCdf(-z));
}

export function compareSegments(before: ArrayLike<number>, after: ArrayLike<number>, withInterval = true): SegmentComparison {
  const centerBefore = fastMedian(before);
  const centerAfter = fastMedian(after);
  const left = clippedMeanAndSquares(before, centerBefore);
  const right = clippedMeanAndSquares(after, centerAfter);
  const df = left.n + right.n - 2;
  const shift = centerAfter - centerBefore;
  const meanShift = right.mean - left.mean;
  if (df < 1) return { p: 1, shift, shiftLow: -Infinity, shiftHigh: Infinity };
  const pooled = (left.ss + right.ss) / df;
  const se = Math.sqrt(pooled * (1 / left.n + 1 / right.n));
  if (!(se > 0)) {
    const p = meanShift === 0 ? 1 : 0;
    return { p, shift, shiftLow: meanShift, shiftHigh: meanShift };
  }
  const t = meanShift / se;
  const p = twoSidedP(t, df);
  if (!withInterval) return { p, shift, shiftLow: Number.NaN, shiftHigh: Number.NaN };
  const half = studentTQuantile(0.975, df) * se;
  return { p, shift, shiftLow: meanShift - half, shiftHigh: meanShift + half };
}
