// Turns the JSON that our k6 script's handleSummary wrote into one repetition's measurements.
// Pure. Only sub-metrics tagged scenario:measure are read, so warm-up never leaks in. Latency
// is over successful requests only; failed requests are counted, their causes and latency kept apart.
import { COUNTED_HTTP_STATUSES, GRPC_STATUSES, K6_ERROR_CODES } from './script.ts';
import { WRAPPER_THRESHOLDS } from './user-script.ts';
import type { LatencyMs, Repetition, TimelinePoint } from '../results/types.ts';

/** What one k6 summary tells about a repetition; the engine adds plan position and validity. */
export type Measurement = Pick<
  Repetition,
  | 'durationS'
  | 'achievedRps'
  | 'droppedIterations'
  | 'requests'
  | 'failures'
  | 'errorRate'
  | 'statusCounts'
  | 'errorCauses'
  | 'failedLatencyMs'
  | 'bytesSent'
  | 'bytesReceived'
  | 'latencyMs'
  | 'timeline'
  | 'lateSends'
>;

interface K6Metric {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

interface K6Summary {
  metrics: Record<string, K6Metric>;
  mesh_perf?: {
    measureDurationS: number;
    bucketMs: number;
    buckets: number;
    protocol: 'http' | 'grpc';
    userScript?: boolean;
    /** Set by k6/http-pacer.js's runs. */
    engine?: 'pacer';
  };
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
  const grpc = meta.protocol === 'grpc';
  const latencyName = grpc ? 'grpc_req_duration' : 'http_req_duration';
  const success = grpc ? 'status:0' : 'expected_response:true';
  const values = (name: string) => data.metrics[name]?.values ?? {};
  const all = values(`${latencyName}{scenario:measure}`);
  const ok = values(`${latencyName}{scenario:measure,${success}}`);
  const requests = all.count ?? 0;
  const successes = ok.count ?? 0;
  const failures = requests - successes;
  const statusCounts = readStatusCounts(data.metrics, grpc, MEASURED);
  const measurement: Measurement = {
    durationS: meta.measureDurationS,
    achievedRps: requests / meta.measureDurationS,
    droppedIterations: values('dropped_iterations{scenario:measure}').count ?? 0,
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts,
    bytesSent: values('data_sent{scenario:measure}').count ?? 0,
    bytesReceived: values('data_received{scenario:measure}').count ?? 0,
    latencyMs: successes > 0 ? toLatency(ok) : null,
    timeline: readTimeline(data.metrics, latencyName, success, meta.buckets, meta.bucketMs),
  };
  if (meta.engine === 'pacer') {
    // Reported once per phase by the pacer (k6ext/pacer.go): a sum and the largest lag.
    measurement.lateSends = {
      count: values('mesh_perf_late_sends{scenario:measure}').count ?? 0,
      maxLagMs: values('mesh_perf_send_lag_max{scenario:measure}').max ?? 0,
    };
  }
  if (failures > 0) {
    measurement.errorCauses = grpc ? grpcCauses(statusCounts) : httpCauses(data.metrics, statusCounts, MEASURED);
    const failed = grpc ? undefined : values(`${latencyName}{scenario:measure,expected_response:false}`);
    if (failed?.count) measurement.failedLatencyMs = toLatency(failed);
  }
  return measurement;
}

/**
 * Why HTTP requests failed: each error status as "HTTP 503", each network error by k6's error
 * code ("timeout", "connection reset"), what is left as "other network error". A status k6
 * counts as expected (2xx/3xx) is not a cause.
 */
function httpCauses(metrics: Record<string, K6Metric>, statusCounts: Record<string, number>, scope: string): Record<string, number> {
  const causes: Record<string, number> = {};
  for (const [status, n] of Object.entries(statusCounts)) {
    if (status === '0' || status === 'other') continue;
    if (Number(status) >= 400) causes[`HTTP ${status}`] = n;
  }
  let named = 0;
  for (const [code, label] of Object.entries(K6_ERROR_CODES)) {
    const n = metrics[`http_reqs{${scope}error_code:${code}}`]?.values.count ?? 0;
    if (n > 0) causes[label] = (causes[label] ?? 0) + n;
    named += n;
  }
  const unnamed = (statusCounts['0'] ?? 0) - named;
  if (unnamed > 0) causes['other network error'] = unnamed;
  if (statusCounts.other) causes['other HTTP status'] = statusCounts.other;
  return causes;
}

function grpcCauses(statusCounts: Record<string, number>): Record<string, number> {
  const causes: Record<string, number> = {};
  for (const [status, n] of Object.entries(statusCounts))
    if (status !== '0') causes[`gRPC ${GRPC_STATUS_NAMES[Number(status)] ?? status}`] = n;
  return causes;
}

const GRPC_STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/**
 * A user's script has its own scenarios and no "measure" tag: the whole run is measured, with
 * HTTP metrics when it made HTTP calls and gRPC metrics otherwise.
 */
function parseUserScriptSummary(metrics: Record<string, K6Metric>, durationS: number): Measurement {
  const grpc = !metrics['http_req_duration'] && metrics['grpc_req_duration'];
  const all = (grpc ? metrics['grpc_req_duration'] : metrics['http_req_duration'])?.values ?? {};
  // Successful requests only, where k6 can tell (HTTP's expected_response, kept by the wrapper).
  const latency = grpc ? all : (metrics['http_req_duration{expected_response:true}']?.values ?? {});
  const requests = grpc ? (all.count ?? 0) : (metrics['http_reqs']?.values.count ?? 0);
  const failures = grpc ? 0 : (metrics['http_req_failed']?.values.passes ?? 0);
  const statusCounts = grpc ? {} : readStatusCounts(metrics, false, '');
  const measurement: Measurement = {
    durationS,
    achievedRps: durationS > 0 ? requests / durationS : 0,
    droppedIterations: metrics['dropped_iterations']?.values.count ?? 0,
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts,
    bytesSent: metrics['data_sent']?.values.count ?? 0,
    bytesReceived: metrics['data_received']?.values.count ?? 0,
    latencyMs: latency.count ? toLatency(latency) : null,
    timeline: [],
  };
  if (failures > 0 && !grpc) measurement.errorCauses = httpCauses(metrics, statusCounts, '');
  return measurement;
}

/**
 * k6's iteration_duration of the measured scenario (one iteration of the script, e.g. Kyma's
 * GET + POST), in the same percentiles as requests; undefined for a summary without it.
 */
export function iterationMs(text: string): LatencyMs | undefined {
  const values = (JSON.parse(text) as K6Summary).metrics?.['iteration_duration{scenario:measure}']?.values;
  return values?.count ? toLatency(values) : undefined;
}

/** Thresholds a script declared, by metric: expression → passed. Ours (always-true) are skipped. */
export function scriptThresholds(text: string): Record<string, Record<string, boolean>> | undefined {
  const data = JSON.parse(text) as K6Summary;
  if (!data.mesh_perf?.userScript) return undefined;
  const out: Record<string, Record<string, boolean>> = {};
  for (const [name, metric] of Object.entries(data.metrics)) {
    const own = Object.entries(metric.thresholds ?? {}).filter(([expr]) => WRAPPER_THRESHOLDS[name] !== expr);
    if (own.length === 0) continue;
    out[name] = Object.fromEntries(own.map(([expr, r]) => [expr, r.ok]));
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

/** Tag prefix of the sub-metrics our own script keeps; a user's script has no measured scenario. */
const MEASURED = 'scenario:measure,';

function readStatusCounts(metrics: Record<string, K6Metric>, grpc: boolean, scope: string): Record<string, number> {
  const name = grpc ? 'grpc_req_duration' : 'http_reqs';
  const codes = grpc ? GRPC_STATUSES : COUNTED_HTTP_STATUSES;
  const out: Record<string, number> = {};
  let counted = 0;
  for (const code of codes) {
    const n = metrics[`${name}{${scope}status:${code}}`]?.values.count ?? 0;
    if (n > 0) out[String(code)] = n;
    counted += n;
  }
  const total = scope
    ? (metrics[`${grpc ? 'grpc_req_duration' : 'http_req_duration'}{${scope.slice(0, -1)}}`]?.values.count ?? 0)
    : (metrics[grpc ? 'grpc_req_duration' : 'http_reqs']?.values.count ?? 0);
  if (total > counted) out.other = total - counted;
  return out;
}

function readTimeline(
  metrics: Record<string, K6Metric>,
  latencyName: string,
  success: string,
  buckets: number,
  bucketMs: number,
): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  for (let b = 0; b < buckets; b++) {
    const all = metrics[`${latencyName}{scenario:measure,mp_bucket:${b}}`]?.values;
    if (!all?.count) continue;
    const ok = metrics[`${latencyName}{scenario:measure,mp_bucket:${b},${success}}`]?.values ?? {};
    points.push({
      t: (b * bucketMs) / 1000,
      requests: all.count,
      failures: all.count - (ok.count ?? 0),
      p50: ok.med ?? 0,
      p90: ok['p(90)'] ?? 0,
      p99: ok['p(99)'] ?? 0,
      max: ok.max ?? 0,
    });
  }
  return points;
}
