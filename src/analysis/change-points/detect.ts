// Change points of one series, in the manner of Apache Otava (Fleming et al., ICPE 2023):
// split with E-divisive inside sliding windows, keeping every split a t-test finds at a relaxed
// p; then merge bottom-up on the whole series, dropping the weakest point until every one left
// is significant at `pValue` and at least `minMagnitude` in size. Differences from Otava, each
// chosen on bench/change-points: segments hold at least `minSegment` runs (a lone outlier at the
// end is not a step), and each segment is clipped to its median ± 3 robust SDs before the test.
// Deterministic: no permutations, ties keep the earliest split. Pure.
import { median } from '../descriptive.ts';
import { medianInterval } from '../median-interval.ts';
import { compareSegments, type SegmentComparison } from './compare.ts';
import { bestSplit, PairSums } from './energy.ts';

export interface DetectOptions {
  /** Points per sliding window of the split step (Otava: 50). */
  window: number;
  /** Significance a change point must keep after the merge (Otava: 0.001). */
  pValue: number;
  /** Smallest change kept: relative (0.02 = 2%) on a log scale, absolute on a linear one. */
  minMagnitude: number;
  /** Fewest runs in a segment. */
  minSegment: number;
  /** log: values are positive and change multiplicatively (latency, ratios, CPU); linear: error rates. */
  scale: 'log' | 'linear';
}

export const DEFAULT_DETECT_OPTIONS: DetectOptions = { window: 50, pValue: 0.001, minMagnitude: 0.02, minSegment: 3, scale: 'log' };

export interface SegmentSummary {
  /** Index range [from, to) in the series. */
  from: number;
  to: number;
  median: number;
  low: number;
  high: number;
  /** Exact coverage of [low, high] (order statistics). */
  coverage: number;
}

export interface ChangePoint {
  /** Index of the first point after the change. */
  index: number;
  before: SegmentSummary;
  after: SegmentSummary;
  /** Relative change of the segment medians (0.1 = +10%) on a log scale, difference on a linear one. */
  size: number;
  /** 95% interval of the size. */
  sizeLow: number;
  sizeHigh: number;
  p: number;
}

export type Detection = { ok: true; changePoints: ChangePoint[] } | { ok: false; reason: string };

/** Smallest series that can hold one change point: two segments. */
export function shortestSplittable(options: DetectOptions): number {
  return 2 * Math.max(2, options.minSegment);
}

export function detectChangePoints(values: readonly number[], partial: Partial<DetectOptions> = {}): Detection {
  const options = { ...DEFAULT_DETECT_OPTIONS, ...partial };
  const bad = values.findIndex((v) => !Number.isFinite(v) || (options.scale === 'log' && v <= 0));
  if (bad >= 0) {
    return {
      ok: false,
      reason: `value ${values[bad]} at position ${bad} is not ${options.scale === 'log' ? 'a positive number' : 'a finite number'}`,
    };
  }
  const least = shortestSplittable(options);
  if (values.length < least) {
    return { ok: false, reason: `${values.length} run${values.length === 1 ? '' : 's'}, too few to split (needs ${least})` };
  }
  const y = options.scale === 'log' ? values.map(Math.log) : [...values];
  // The split and merge steps test segments as views of one typed array (no copy per test).
  const typed = Float64Array.from(y);
  const weak = split(typed, options);
  const kept = refine(merge(weak, typed, options), y, options);
  return { ok: true, changePoints: kept.map((index, i) => describe(values, y, kept[i - 1] ?? 0, index, kept[i + 1] ?? y.length, options)) };
}

/** Splits found window by window at a relaxed p (Otava: 10× the final p), as sorted indexes. */
function split(y: Float64Array, options: DetectOptions): number[] {
  const firstPass = options.pValue < 0.05 ? options.pValue * 10 : options.pValue;
  const step = Math.max(1, Math.floor(options.window / 2));
  const found = new Set<number>();
  let start = 0;
  while (start < y.length) {
    const end = Math.min(start + options.window, y.length);
    const inWindow = splitWindow(y, start, end, firstPass, options.minSegment);
    for (const index of inWindow) found.add(index);
    const last = inWindow.length ? Math.max(...inWindow) : 0;
    if (end === y.length) break;
    start = Math.max(last, start + step);
  }
  return [...found].sort((a, b) => a - b);
}

/** Binary segmentation of one window: the strongest candidate over all intervals, while significant. */
function splitWindow(y: Float64Array, start: number, end: number, p: number, minSegment: number): number[] {
  const sums = new PairSums(y, start, end);
  const points: number[] = [];
  for (;;) {
    const bounds = [start, ...points, end];
    let best: { index: number; q: number; from: number; to: number } | undefined;
    for (let i = 0; i + 1 < bounds.length; i++) {
      const candidate = bestSplit(sums, bounds[i]!, bounds[i + 1]!, minSegment);
      if (candidate && (!best || candidate.q > best.q)) best = { ...candidate, from: bounds[i]!, to: bounds[i + 1]! };
    }
    if (!best) return points;
    const test = compareSegments(y.subarray(best.from, best.index), y.subarray(best.index, best.to), false);
    if (!(test.p < p)) return points;
    points.push(best.index);
    points.sort((a, b) => a - b);
  }
}

function magnitudeOf(test: SegmentComparison, options: DetectOptions): number {
  return Math.abs(options.scale === 'log' ? Math.expm1(test.shift) : test.shift);
}

/** Drops the weakest point (least significant, else smallest) until all pass both bars. */
function merge(points: number[], y: Float64Array, options: DetectOptions): number[] {
  const kept = [...points];
  const testAt = (i: number) =>
    compareSegments(y.subarray(kept[i - 1] ?? 0, kept[i]!), y.subarray(kept[i]!, kept[i + 1] ?? y.length), false);
  let tests = kept.map((_, i) => testAt(i));
  while (kept.length > 0) {
    let weakest = 0;
    for (let i = 1; i < kept.length; i++) if (tests[i]!.p > tests[weakest]!.p) weakest = i;
    if (!(tests[weakest]!.p >= options.pValue)) {
      weakest = 0;
      for (let i = 1; i < kept.length; i++) if (magnitudeOf(tests[i]!, options) < magnitudeOf(tests[weakest]!, options)) weakest = i;
      if (magnitudeOf(tests[weakest]!, options) >= options.minMagnitude) break;
    }
    kept.splice(weakest, 1);
    tests.splice(weakest, 1);
    // Removing a point joins two segments: its neighbours are re-tested against the joined one.
    for (const i of [weakest - 1, weakest]) if (i >= 0 && i < kept.length) tests[i] = testAt(i);
    tests = tests.slice(0, kept.length);
  }
  return kept;
}

/**
 * Places each change at the first run that looks like the later segment: the split maximising the
 * energy statistic can land a run early or late when a segment is short. A run closer to the other
 * segment's median moves across; a change that would need a segment shorter than `minSegment` to
 * sit right is dropped until more runs arrive (too early to call, not placed a run off).
 */
function refine(points: number[], y: number[], options: DetectOptions): number[] {
  const out: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const from = out[out.length - 1] ?? 0;
    const to = points[i + 1] ?? y.length;
    let k = points[i]!;
    const near = (v: number, a: number, b: number) => Math.abs(v - a) <= Math.abs(v - b);
    for (let moves = 0; moves < options.minSegment; moves++) {
      const before = median(y.slice(from, k));
      const after = median(y.slice(k, to));
      if (near(y[k]!, before, after) && !near(y[k]!, after, before)) k++;
      else if (k - 1 > from && near(y[k - 1]!, after, before) && !near(y[k - 1]!, before, after)) k--;
      else break;
    }
    if (k - from >= options.minSegment && to - k >= options.minSegment) out.push(k);
  }
  return out;
}

function describe(values: readonly number[], y: number[], from: number, index: number, to: number, options: DetectOptions): ChangePoint {
  const test = compareSegments(y.slice(from, index), y.slice(index, to));
  const toSize = (v: number) => (options.scale === 'log' ? Math.expm1(v) : v);
  return {
    index,
    before: segment(values, from, index),
    after: segment(values, index, to),
    size: toSize(test.shift),
    sizeLow: toSize(test.shiftLow),
    sizeHigh: toSize(test.shiftHigh),
    p: test.p,
  };
}

function segment(values: readonly number[], from: number, to: number): SegmentSummary {
  const interval = medianInterval(values.slice(from, to))!;
  return { from, to, median: interval.median, low: interval.low, high: interval.high, coverage: interval.coverage };
}
