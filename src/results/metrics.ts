// The run-level statistics the analysis summarizes and gates on. Each metric knows how to read
// its value from one repetition, its unit, and which direction is worse; latency, throughput,
// errors and resource cost (CPU/memory per 1000 rps) all go through the same machinery.
import type { LatencyMetric, MetricId, Unit } from './metric-ids.ts';
import type { Repetition, ResourceUsage } from './types.ts';

/** Summarized for every mode (resources only when the platform sampled them). */
export const SUMMARY_METRICS: readonly MetricId[] = [
  'p50',
  'p90',
  'p95',
  'p99',
  'max',
  'mean',
  'achievedRps',
  'errorRate',
  'cpuPer1000Rps',
  'memoryMiBPer1000Rps',
];

/** Metrics an overhead (mode − baseline) makes sense for. */
export const OVERHEAD_METRICS: readonly MetricId[] = ['p50', 'p90', 'p95', 'p99', 'max', 'mean', 'cpuPer1000Rps', 'memoryMiBPer1000Rps'];

export interface MetricDefinition {
  id: MetricId;
  /** How people write it: "p(95)", "error_rate", "cpu_per_1000rps". */
  label: string;
  unit: Unit;
  /** Latency, errors and cost get worse upward; throughput downward. */
  higherIsWorse: boolean;
  extract(repetition: Repetition): number | undefined;
}

const latency = (id: LatencyMetric, label: string): MetricDefinition => ({
  id,
  label,
  unit: 'ms',
  higherIsWorse: true,
  extract: (r) => finite(r.latencyMs?.[id]),
});

export const METRICS: Record<MetricId, MetricDefinition> = {
  min: latency('min', 'min'),
  mean: latency('mean', 'avg'),
  p50: latency('p50', 'p(50)'),
  p75: latency('p75', 'p(75)'),
  p90: latency('p90', 'p(90)'),
  p95: latency('p95', 'p(95)'),
  p99: latency('p99', 'p(99)'),
  p999: latency('p999', 'p(99.9)'),
  max: latency('max', 'max'),
  achievedRps: { id: 'achievedRps', label: 'achieved_rps', unit: 'rps', higherIsWorse: false, extract: (r) => finite(r.achievedRps) },
  errorRate: { id: 'errorRate', label: 'error_rate', unit: 'fraction', higherIsWorse: true, extract: (r) => finite(r.errorRate) },
  cpuPer1000Rps: {
    id: 'cpuPer1000Rps',
    label: 'cpu_per_1000rps',
    unit: 'millicores',
    higherIsWorse: true,
    extract: (r) => resourceCost(r, 'cpu'),
  },
  memoryMiBPer1000Rps: {
    id: 'memoryMiBPer1000Rps',
    label: 'memory_per_1000rps',
    unit: 'MiB',
    higherIsWorse: true,
    extract: (r) => resourceCost(r, 'memory'),
  },
};

function finite(value: number | undefined | null): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Cost of serving the load in one repetition: every sampled group except the load generator
 * (group "client"), so a mode's overhead over the baseline is what its proxies and control
 * plane add. Uses the sampler's per-1000-rps figure, or derives it from the average.
 */
function resourceCost(repetition: Repetition, kind: 'cpu' | 'memory'): number | undefined {
  const groups = (repetition.resources ?? []).filter((g: ResourceUsage) => g.group !== 'client');
  if (groups.length === 0 || !(repetition.achievedRps > 0)) return undefined;
  let total = 0;
  for (const group of groups) {
    const perThousand = kind === 'cpu' ? group.cpuPer1000Rps : group.memoryMiBPer1000Rps;
    const average = kind === 'cpu' ? group.cpuMillicores?.avg : group.memoryMiB?.avg;
    const value = perThousand ?? (average !== undefined ? (average * 1000) / repetition.achievedRps : undefined);
    if (value === undefined || !Number.isFinite(value)) return undefined;
    total += value;
  }
  return total;
}

export function metricValues(repetitions: readonly Repetition[], metric: MetricId): number[] {
  const out: number[] = [];
  for (const r of repetitions) {
    const v = METRICS[metric].extract(r);
    if (v !== undefined) out.push(v);
  }
  return out;
}
