// The exact merge of a group of k6 instances: percentiles of the union of their raw durations,
// however the requests were split between them, with k6's own interpolation; counts summed;
// an instance that dropped, crashed or lost its raw samples named in the reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latencyOf, mergeInstances, percentile, type InstanceResult } from '../../src/load/merge.ts';
import { NO_BUCKET, type RawSamples } from '../../src/load/raw-samples.ts';
import { executionSegments } from '../../src/load/segments.ts';
import type { Measurement } from '../../src/load/k6-summary.ts';

/** A deterministic, heavy-tailed set of durations (ms, 6 decimals like k6's CSV). */
function durations(n: number, seed = 7): number[] {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => Number((0.2 + -Math.log(1 - next()) * (next() < 0.02 ? 40 : 0.5)).toFixed(6)));
}

function rawOf(success: number[], buckets: number[], failures: number[] = []): RawSamples {
  return {
    successMs: Float64Array.from(success),
    successBucket: Uint16Array.from(buckets),
    failureMs: Float64Array.from(failures),
    failureBucket: Uint16Array.from(failures.map(() => 0)),
    iterationMs: Float64Array.from(success.map((v) => v + 0.1)),
    firstMs: 0,
    lastMs: 0,
  };
}

function measurementOf(requests: number, failures: number, extra: Partial<Measurement> = {}): Measurement {
  return {
    durationS: 10,
    achievedRps: requests / 10,
    droppedIterations: 0,
    requests,
    failures,
    errorRate: requests ? failures / requests : 0,
    statusCounts: { '200': requests - failures, ...(failures ? { '503': failures } : {}) },
    bytesSent: requests * 100,
    bytesReceived: requests * 200,
    latencyMs: null,
    timeline: [],
    ...(failures ? { errorCauses: { 'HTTP 503': failures } } : {}),
    ...extra,
  };
}

/** Deals the samples out to n instances the way no two splits agree: round robin with a skew. */
function split(all: number[], n: number): InstanceResult[] {
  const parts: number[][] = Array.from({ length: n }, () => []);
  all.forEach((v, i) => parts[(i * 7 + Math.floor(i / 13)) % n]!.push(v));
  return executionSegments(n).map((slice, i) => ({
    where: `k6 process ${i + 1} of ${n}`,
    slice,
    exitCode: 0,
    measurement: measurementOf(parts[i]!.length, 0),
    raw: rawOf(
      parts[i]!,
      parts[i]!.map((v) => Math.floor(v * 10) % 5),
    ),
    window: { startMs: 1000 + i, endMs: 11_000 + i },
    problems: [],
  }));
}

test("k6's percentile: sorted values, linear between neighbours at i = p × (n − 1)", () => {
  const sorted = Float64Array.from([1, 2, 3, 4, 10]);
  assert.equal(percentile(sorted, 0.5), 3);
  assert.equal(percentile(sorted, 0.9), 4 + 6 * (0.9 * 4 - 3)); // i = 3.6: between 4 and 10
  assert.equal(percentile(sorted, 0.99), 4 + 6 * (0.99 * 4 - 3));
  assert.equal(percentile(Float64Array.from([5]), 0.99), 5);
  assert.equal(percentile(new Float64Array(0), 0.5), 0);
});

test('split between 2, 3 and 4 instances, the merged percentiles are exactly the union’s', () => {
  const all = durations(20_011);
  const union = latencyOf(Float64Array.from(all));
  for (const n of [2, 3, 4]) {
    const instances = split(all, n);
    const merged = mergeInstances(instances, { durationS: 10, bucketMs: 1000 });
    assert.deepEqual(merged.measurement.latencyMs, union, `${n} instances`);
    assert.equal(merged.measurement.requests, all.length);
    assert.deepEqual(merged.reasons, []);
    // An average of per-instance p99s is not the union's: the reason the merge reads raw samples.
    const perInstance = instances.map((i) => latencyOf(i.raw!.successMs).p99);
    assert.notEqual(perInstance.reduce((a, b) => a + b) / n, union.p99);
    assert.deepEqual(merged.iterationMs, latencyOf(Float64Array.from(all.map((v) => v + 0.1))));
    assert.equal(merged.instances.length, n);
    assert.equal(merged.instances[1]!.segment, executionSegments(n)[1]!.segment);
  }
});

test('counts, bytes, status codes and causes are summed; the timeline is merged per bucket', () => {
  const a: InstanceResult = {
    where: 'k6 process 1 of 2',
    slice: executionSegments(2)[0]!,
    exitCode: 0,
    measurement: measurementOf(4, 1),
    raw: { ...rawOf([1, 2, 3], [0, 0, 1], [9]), failureBucket: Uint16Array.from([1]) },
    window: { startMs: 0, endMs: 10_000 },
    problems: [],
  };
  const b: InstanceResult = {
    where: 'k6 process 2 of 2',
    slice: executionSegments(2)[1]!,
    exitCode: 99,
    measurement: measurementOf(3, 0),
    raw: rawOf([4, 5, 6], [0, 1, NO_BUCKET]),
    window: { startMs: 20, endMs: 10_020 },
    problems: [],
  };
  const merged = mergeInstances([a, b], { durationS: 10, bucketMs: 2000 });
  const m = merged.measurement;
  assert.equal(m.requests, 7);
  assert.equal(m.failures, 1);
  assert.equal(m.achievedRps, 0.7);
  assert.deepEqual(m.statusCounts, { '200': 6, '503': 1 });
  assert.deepEqual(m.errorCauses, { 'HTTP 503': 1 });
  assert.equal(m.bytesSent, 700);
  assert.deepEqual(m.failedLatencyMs, latencyOf(Float64Array.from([9])));
  assert.deepEqual(
    m.timeline.map((p) => [p.t, p.requests, p.failures, p.p50, p.max]),
    [
      [0, 3, 0, 2, 4],
      [2, 3, 1, 4, 5],
    ],
  );
  assert.deepEqual(merged.window, { startMs: 20, endMs: 10_000 });
});

test('an instance that dropped iterations, crashed or lost its raw samples is named', () => {
  const [one, two, three, four] = split(durations(400), 4);
  two!.measurement = { ...two!.measurement!, droppedIterations: 37 };
  three!.exitCode = 137;
  three!.measurement = undefined; // killed: no summary, but a partial raw file, which must not count
  three!.problems.push('died (k6 exit code 137, killed by SIGKILL) before writing its summary');
  four!.raw = { ...four!.raw!, successMs: four!.raw!.successMs.slice(1), successBucket: four!.raw!.successBucket.slice(1) };
  const merged = mergeInstances([one!, two!, three!, four!], { durationS: 10, bucketMs: 1000 });
  assert.deepEqual(merged.reasons, [
    'k6 process 2 of 4 dropped 37 iterations',
    'k6 process 3 of 4 died (k6 exit code 137, killed by SIGKILL) before writing its summary',
    `k6 process 4 of 4 has ${four!.measurement!.requests - 1} requests in its raw samples but ${four!.measurement!.requests} in its summary (the raw file was cut short)`,
  ]);
  assert.deepEqual(merged.instances[1]!.problems, ['dropped 37 iterations']);
  assert.equal(merged.instances[2]!.exitCode, 137);
  assert.deepEqual(merged.instances[0]!.problems, []);
  const counted = [one!, two!, four!].flatMap((i) => [...i.raw!.successMs]);
  assert.deepEqual(merged.measurement.latencyMs, latencyOf(Float64Array.from(counted)));
});

test('instances that started their measured requests apart did not apply the load together', () => {
  const instances = split(durations(100), 2);
  // From the first measured request of each, when every instance has raw samples...
  instances[0]!.raw!.firstMs = 5000;
  instances[1]!.raw!.firstMs = 5080;
  assert.deepEqual(mergeInstances(instances, { durationS: 10, bucketMs: 1000 }).reasons, [], '80 ms apart is together');
  instances[0]!.raw!.firstMs = 5400;
  assert.deepEqual(mergeInstances(instances, { durationS: 10, bucketMs: 1000 }).reasons, [
    'the k6 instances did not measure together: k6 process 1 of 2 started its measured requests 320 ms after k6 process 2 of 2 (expected within 250 ms)',
  ]);
  // ...else from the windows the summaries place.
  instances[1]!.raw = undefined;
  instances[1]!.window = { startMs: 1900, endMs: 11_900 };
  const reasons = mergeInstances(instances, { durationS: 10, bucketMs: 1000 }).reasons;
  assert.match(reasons.at(-1)!, /k6 process 2 of 2 started its measured requests 900 ms after k6 process 1 of 2/);
});
