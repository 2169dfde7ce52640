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

/** Median by a typed-array sort: numeric and far faster than Array#sort with a comparator (merge re-tests long segments). */
function fastMedian(values: ArrayLike<number>): number {
  const xs = Float64Array.from(values).sort();
  const mid = (xs.length - 1) / 2;
  return (xs[Math.floor(mid)]! + xs[Math.ceil(mid)]!) / 2;
}

function clipped(values: readonly number[], center: number): number[] {
  const spread = MAD_TO_SD * fastMedian(values.map((v) => Math.abs(v - center)));
  if (!(spread > 0)) return [...values];
  const low = center - CLIP_SDS * spread;
  const high = center + CLIP_SDS * spread;
  return values.map((v) => Math.min(high, Math.max(low, v)));
}

function meanAndSquares(values: readonly number[]): { mean: number; ss: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let ss = 0;
  for (const v of values) ss += (v - mean) ** 2;
  return { mean, ss };
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

export function compareSegments(before: readonly number[], after: readonly number[], withInterval = true): SegmentComparison {
  const centerBefore = fastMedian(before);
  const centerAfter = fastMedian(after);
  const a = clipped(before, centerBefore);
  const b = clipped(after, centerAfter);
  const left = meanAndSquares(a);
  const right = meanAndSquares(b);
  const df = a.length + b.length - 2;
  const shift = centerAfter - centerBefore;
  const meanShift = right.mean - left.mean;
  if (df < 1) return { p: 1, shift, shiftLow: -Infinity, shiftHigh: Infinity };
  const pooled = (left.ss + right.ss) / df;
  const se = Math.sqrt(pooled * (1 / a.length + 1 / b.length));
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
