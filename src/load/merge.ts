// Merges the k6 instances of one repetition (load.generators > 1) into one measurement. Exact:
// percentiles are those of the union of every instance's raw request durations, computed the way
// k6 computes its own (TrendSink.P in k6's metrics/sink.go: sort, then interpolate linearly
// between the neighbours at i = p × (n − 1)), so one instance's raw samples give its summary's
// percentiles to the 6 decimals k6's CSV output keeps. Averaging per-instance percentiles would
// not: the p99 of two halves is not the p99 of the whole. Counts, bytes, status codes and error
// causes are exact sums of the instances' summaries; the raw samples must agree with them, so a
// cut-short raw file cannot pass. Pure.
import type { InstanceRecord, LatencyMs, TimelinePoint } from '../results/types.ts';
import { NO_BUCKET, type RawSamples } from './raw-samples.ts';
import type { Measurement } from './k6-summary.ts';
import type { InstanceSlice, MeasuredWindow } from './types.ts';

/** What the engine learned about one instance, before merging. */
export interface InstanceResult {
  /** "k6 process 2 of 4". */
  where: string;
  slice: InstanceSlice;
  exitCode: number;
  /** Its summary's measurement; undefined when it wrote none (see problem). */
  measurement?: Measurement;
  raw?: RawSamples;
  window?: MeasuredWindow;
  /** Why this instance's data cannot count (crashed, no summary, no raw samples). */
  problems: string[];
}

export interface GroupShape {
  /** The profile's measured duration, seconds: every instance measures the same window. */
  durationS: number;
  bucketMs: number;
}

export interface MergedGroup {
  measurement: Measurement;
  iterationMs?: LatencyMs;
  instances: InstanceRecord[];
  /** Why the group is invalid on account of its instances (the engine adds the merged checks). */
  reasons: string[];
  /** The window every instance was measuring (the intersection), for the resource sampler. */
  window?: MeasuredWindow;
}

/**
 * Instances resumed together start their measured scenario within milliseconds. Windows further
 * apart than this (or 1% of the duration, whichever is larger) did not apply the load together.
 */
const MAX_START_SPREAD_MS = 250;

export function mergeInstances(results: readonly InstanceResult[], shape: GroupShape): MergedGroup {
  const reasons: string[] = [];
  const instances: InstanceRecord[] = results.map((r) => {
    const problems = [...r.problems];
    const m = r.measurement;
    if (m && m.droppedIterations > 0) problems.push(`dropped ${m.droppedIterations} iteration${m.droppedIterations === 1 ? '' : 's'}`);
    if (m && r.raw) {
      const rawRequests = r.raw.successMs.length + r.raw.failureMs.length;
      if (rawRequests !== m.requests)
        problems.push(`has ${rawRequests} requests in its raw samples but ${m.requests} in its summary (the raw file was cut short)`);
    }
    for (const problem of problems) reasons.push(`${r.where} ${problem}`);
    const record: InstanceRecord = {
      where: r.where,
      segment: r.slice.segment,
      exitCode: r.exitCode,
      requests: m?.requests ?? 0,
      failures: m?.failures ?? 0,
      droppedIterations: m?.droppedIterations ?? 0,
      achievedRps: m?.achievedRps ?? 0,
      latencyMs: m?.latencyMs ?? null,
      problems,
    };
    if (r.window) record.window = { startMs: r.window.startMs, endMs: r.window.endMs };
    return record;
  });

  const window = commonWindow(results, shape.durationS, reasons);
  const measured = results.filter((r) => r.measurement);
  const sum = (pick: (m: Measurement) => number) => measured.reduce((total, r) => total + pick(r.measurement!), 0);
  const requests = sum((m) => m.requests);
  const failures = sum((m) => m.failures);
  // Only beside a summary: a killed instance's partial CSV would add samples its counts lack.
  const raws = measured.flatMap((r) => (r.raw ? [r.raw] : []));
  const success = concat(raws.map((r) => r.successMs));
  const failed = concat(raws.map((r) => r.failureMs));
  const statusCounts = addCounts(measured.map((r) => r.measurement!.statusCounts));
  const measurement: Measurement = {
    durationS: shape.durationS,
    // Every instance measured the same window (checked above), so the sum of their requests over
    // it is the group's rate over the common window.
    achievedRps: requests / shape.durationS,
    droppedIterations: sum((m) => m.droppedIterations),
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts,
    bytesSent: sum((m) => m.bytesSent),
    bytesReceived: sum((m) => m.bytesReceived),
    latencyMs: success.length > 0 ? latencyOf(success) : null,
    timeline: mergeTimeline(raws, shape.bucketMs),
  };
  const late = measured.flatMap((r) => (r.measurement!.lateSends ? [r.measurement!.lateSends] : []));
  if (late.length > 0)
    measurement.lateSends = { count: late.reduce((n, l) => n + l.count, 0), maxLagMs: Math.max(...late.map((l) => l.maxLagMs)) };
  if (failures > 0) {
    const causes = addCounts(measured.flatMap((r) => (r.measurement!.errorCauses ? [r.measurement!.errorCauses] : [])));
    if (Object.keys(causes).length > 0) measurement.errorCauses = causes;
    if (failed.length > 0) measurement.failedLatencyMs = latencyOf(failed);
  }
  const iterations = concat(raws.map((r) => r.iterationMs));
  const merged: MergedGroup = { measurement, instances, reasons };
  if (iterations.length > 0) merged.iterationMs = latencyOf(iterations);
  if (window) merged.window = window;
  return merged;
}

/**
 * The window all instances measured; a reason when they started too far apart. The start is
 * judged by each instance's first measured request (raw samples, millisecond timestamps) when all
 * have one: the summary places a window only to some tens of ms (it is stamped after the run).
 */
function commonWindow(results: readonly InstanceResult[], durationS: number, reasons: string[]): MeasuredWindow | undefined {
  const byRaw = results.every((r) => r.raw && r.raw.firstMs > 0);
  const starts = results.flatMap((r) => {
    const startMs = byRaw ? r.raw!.firstMs : r.window?.startMs;
    return startMs === undefined ? [] : [{ where: r.where, startMs }];
  });
  const limit = Math.max(MAX_START_SPREAD_MS, durationS * 10);
  if (starts.length > 1) {
    const first = starts.reduce((a, b) => (b.startMs < a.startMs ? b : a));
    const last = starts.reduce((a, b) => (b.startMs > a.startMs ? b : a));
    const spread = last.startMs - first.startMs;
    if (spread > limit)
      reasons.push(
        `the k6 instances did not measure together: ${last.where} started its measured requests ${spread} ms after ${first.where} (expected within ${limit} ms)`,
      );
  }
  const windows = results.flatMap((r) => (r.window ? [r.window] : []));
  if (windows.length === 0) return undefined;
  const startMs = Math.max(...windows.map((w) => w.startMs));
  const endMs = Math.min(...windows.map((w) => w.endMs));
  return endMs > startMs ? { startMs, endMs } : undefined;
}

/** Per bucket: requests and failures counted, successes' percentiles over the union. */
function mergeTimeline(raws: readonly RawSamples[], bucketMs: number): TimelinePoint[] {
  const byBucket = new Map<number, { success: number[]; failures: number }>();
  const entry = (b: number) => {
    let e = byBucket.get(b);
    if (!e) byBucket.set(b, (e = { success: [], failures: 0 }));
    return e;
  };
  for (const raw of raws) {
    raw.successBucket.forEach((b, i) => {
      if (b !== NO_BUCKET) entry(b).success.push(raw.successMs[i]!);
    });
    raw.failureBucket.forEach((b) => {
      if (b !== NO_BUCKET) entry(b).failures++;
    });
  }
  return [...byBucket.entries()]
    .sort(([a], [b]) => a - b)
    .map(([b, e]) => {
      const sorted = Float64Array.from(e.success).sort();
      return {
        t: (b * bucketMs) / 1000,
        requests: e.success.length + e.failures,
        failures: e.failures,
        p50: percentile(sorted, 0.5),
        p90: percentile(sorted, 0.9),
        p99: percentile(sorted, 0.99),
        max: sorted.length > 0 ? sorted[sorted.length - 1]! : 0,
      };
    });
}

/** The statistics k6's summary gives a Trend, of a set of durations. */
export function latencyOf(values: Float64Array): LatencyMs {
  const sorted = Float64Array.from(values).sort();
  let total = 0;
  for (const v of sorted) total += v;
  return {
    min: sorted[0] ?? 0,
    mean: sorted.length > 0 ? total / sorted.length : 0,
    p50: percentile(sorted, 0.5),
    p75: percentile(sorted, 0.75),
    p90: percentile(sorted, 0.9),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    p999: percentile(sorted, 0.999),
    max: sorted[sorted.length - 1] ?? 0,
  };
}

/** k6's TrendSink.P over sorted values: linear between the neighbours at i = p × (n − 1). */
export function percentile(sorted: Float64Array, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (n === 1) return sorted[0]!;
  const i = p * (n - 1);
  const j = sorted[Math.floor(i)]!;
  const k = sorted[Math.ceil(i)]!;
  return j + (k - j) * (i - Math.floor(i));
}

function concat(arrays: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

function addCounts(records: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const record of records) for (const [key, n] of Object.entries(record)) out[key] = (out[key] ?? 0) + n;
  return out;
}
