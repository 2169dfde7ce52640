// The names of the run-level statistics and their units, apart from how each is read from a
// repetition (metrics.ts): the persisted analysis types need the names without the readers.
export type Unit = 'ms' | 'rps' | 'fraction' | 'millicores' | 'MiB';

export const LATENCY_METRICS = ['min', 'mean', 'p50', 'p75', 'p90', 'p95', 'p99', 'p999', 'max'] as const;
export const METRIC_IDS = [...LATENCY_METRICS, 'achievedRps', 'errorRate', 'cpuPer1000Rps', 'memoryMiBPer1000Rps'] as const;
export type MetricId = (typeof METRIC_IDS)[number];
export type LatencyMetric = (typeof LATENCY_METRICS)[number];
