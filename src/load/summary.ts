// Turns the JSON that our k6 script's handleSummary wrote into one repetition's measurements.
// Pure. Only sub-metrics tagged scenario:measure are read, so warm-up never leaks in.
import { COUNTED_HTTP_STATUSES, GRPC_STATUSES } from './script.ts';
import type { LatencyMs, Repetition, TimelinePoint } from '../results/types.ts';

/** What one k6 summary tells about a repetition; the engine adds plan position and validity. */
export type Measurement = Pick<
  Repetition,
  'durationS' | 'achievedRps' | 'droppedIterations' | 'requests' | 'failures' | 'errorRate' | 'statusCounts' | 'bytesSent' | 'bytesReceived' | 'latencyMs' | 'timeline'
>;

interface K6Metric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

interface K6Summary {
  metrics: Record<string, K6Metric>;
  mesh_perf?: { measureDurationS: number; bucketMs: number; buckets: number; protocol: 'http' | 'grpc'; userScript?: boolean };
}

export class SummaryFormatError extends Error {}

export function parseSummary(text: string): Measurement {
  let data: K6Summary;
  try {
    data = JSON.parse(text) as K6Summary;
  } catch (error) {
    throw new SummaryFormatError(`k6 summary is not JSON: ${(error as Error).message}`);
  }
  const meta = data.mesh_perf;
  if (!meta || !data.metrics) throw new SummaryFormatError('k6 summary lacks the mesh_perf block; was it written by a mesh-perf script?');
  if (meta.userScript) return parseUserScriptSummary(data.metrics, meta.measureDurationS);
  const latencyName = meta.protocol === 'grpc' ? 'grpc_req_duration' : 'http_req_duration';
  const latency = data.metrics[`${latencyName}{scenario:measure}`]?.values ?? {};
  const count = (name: string) => data.metrics[name]?.values.count ?? 0;
  const failedRate = data.metrics['mp_failed'];
  const requests = latency.count ?? 0;
  const failures = failedRate?.values.passes ?? 0; // a "pass" of the Rate is a failed request
  const statusCounts = readStatusCounts(data.metrics, meta.protocol);
  return {
    durationS: meta.measureDurationS,
    achievedRps: requests / meta.measureDurationS,
    droppedIterations: count('dropped_iterations{scenario:measure}'),
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts,
    bytesSent: count('data_sent{scenario:measure}'),
    bytesReceived: count('data_received{scenario:measure}'),
    latencyMs: toLatency(latency),
    timeline: readTimeline(data.metrics, latencyName, meta.buckets, meta.bucketMs),
  };
}

/**
 * A user's script has its own scenarios and no "measure" tag: the whole run is measured, with
 * HTTP metrics when it made HTTP calls and gRPC metrics otherwise.
 */
function parseUserScriptSummary(metrics: Record<string, K6Metric>, durationS: number): Measurement {
  const grpc = !metrics['http_req_duration'] && metrics['grpc_req_duration'];
  const latency = (grpc ? metrics['grpc_req_duration'] : metrics['http_req_duration'])?.values ?? {};
  const requests = grpc ? (latency.count ?? 0) : (metrics['http_reqs']?.values.count ?? 0);
  const failures = grpc ? 0 : (metrics['http_req_failed']?.values.passes ?? 0);
  return {
    durationS,
    achievedRps: durationS > 0 ? requests / durationS : 0,
    droppedIterations: metrics['dropped_iterations']?.values.count ?? 0,
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts: {},
    bytesSent: metrics['data_sent']?.values.count ?? 0,
    bytesReceived: metrics['data_received']?.values.count ?? 0,
    latencyMs: toLatency(latency),
    timeline: [],
  };
}

/**
 * k6's iteration_duration of the measured scenario (one iteration of the script, e.g. Kyma's
 * GET + POST), in the same percentiles as requests; undefined for a summary without it.
 */
export function iterationMs(text: string): LatencyMs | undefined {
  const values = (JSON.parse(text) as K6Summary).metrics?.['iteration_duration{scenario:measure}']?.values;
  return values && values.count ? toLatency(values) : undefined;
}

/** Thresholds a script declared, by metric: expression → passed. Ours (always-true) are skipped. */
export function scriptThresholds(text: string): Record<string, Record<string, boolean>> | undefined {
  const data = JSON.parse(text) as K6Summary;
  if (!data.mesh_perf?.userScript) return undefined;
  const out: Record<string, Record<string, boolean>> = {};
  for (const [name, metric] of Object.entries(data.metrics)) {
    if (!metric.thresholds) continue;
    out[name] = Object.fromEntries(Object.entries(metric.thresholds).map(([expr, r]) => [expr, r.ok]));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function toLatency(values: Record<string, number>): LatencyMs {
  const v = (key: string) => (Number.isFinite(values[key]) ? values[key]! : 0);
  return {
    min: v('min'),
    mean: v('avg'),
    p50: v('med'),
    p75: v('p(75)'),
    p90: v('p(90)'),
    p95: v('p(95)'),
    p99: v('p(99)'),
    p999: v('p(99.9)'),
    max: v('max'),
  };
}

function readStatusCounts(metrics: Record<string, K6Metric>, protocol: 'http' | 'grpc'): Record<string, number> {
  const prefix = protocol === 'grpc' ? 'mp_grpc_' : 'mp_status_';
  const codes = protocol === 'grpc' ? GRPC_STATUSES : COUNTED_HTTP_STATUSES;
  const out: Record<string, number> = {};
  for (const code of [...codes.map(String), 'other']) {
    const n = metrics[`${prefix}${code}`]?.values.count ?? 0;
    if (n > 0) out[code] = n;
  }
  return out;
}

function readTimeline(metrics: Record<string, K6Metric>, latencyName: string, buckets: number, bucketMs: number): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  for (let b = 0; b < buckets; b++) {
    const values = metrics[`${latencyName}{scenario:measure,mp_bucket:${b}}`]?.values;
    if (!values?.count) continue;
    points.push({
      t: (b * bucketMs) / 1000,
      requests: values.count,
      failures: metrics[`mp_failed{mp_bucket:${b}}`]?.values.passes ?? 0,
      p50: values.med ?? 0,
      p90: values['p(90)'] ?? 0,
      p99: values['p(99)'] ?? 0,
      max: values.max ?? 0,
    });
  }
  return points;
}
