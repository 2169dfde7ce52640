// Latency over time is kept in buckets: one second each for runs up to a minute, wider for
// longer runs, so a repetition has at most 60 points. Each bucket is two k6 sub-metrics, and k6
// matches every latency sample against every sub-metric of its metric: 60 buckets cost a few
// µs per request (bench/harness-fidelity measures the engine with them).
const MAX_BUCKETS = 60;

export function timelineBucketMs(durationMs: number): number {
  const seconds = Math.ceil(durationMs / 1000 / MAX_BUCKETS);
  return Math.max(1, seconds) * 1000;
}
