// Latency over time is kept in buckets: one second each for runs up to two minutes, wider for
// longer runs, so a 5-minute repetition still has at most ~120 points (each bucket is a k6
// sub-metric, and k6 matches every sample against every sub-metric).
const MAX_BUCKETS = 120;

export function timelineBucketMs(durationMs: number): number {
  const seconds = Math.ceil(durationMs / 1000 / MAX_BUCKETS);
  return Math.max(1, seconds) * 1000;
}
