// Shared by mesh-perf's k6 scripts. Everything a run needs arrives in one JSON environment
// variable, MESH_PERF_PARAMS, rendered by mesh-perf (src/load/script.ts), so these files never
// change between runs and can be read, diffed and run by hand:
//   k6 run -e MESH_PERF_PARAMS="$(cat params.json)" k6/http.js
// The measured scenario is named "measure"; warm-up is its own scenario before it, and every
// statistic mesh-perf reads is a sub-metric tagged scenario:measure.
import exec from 'k6/execution';
import { Counter, Rate } from 'k6/metrics';

export const params = JSON.parse(__ENV.MESH_PERF_PARAMS || '{}');

const TREND_STATS = ['min', 'avg', 'med', 'p(75)', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max', 'count'];

export function buildOptions(latencyMetric) {
  const thresholds = {};
  // Thresholds that always pass make k6 keep these sub-metrics in its summary.
  thresholds[`${latencyMetric}{scenario:measure}`] = ['max>=0'];
  thresholds['dropped_iterations{scenario:measure}'] = ['count>=0'];
  thresholds['data_sent{scenario:measure}'] = ['count>=0'];
  thresholds['data_received{scenario:measure}'] = ['count>=0'];
  thresholds['iteration_duration{scenario:measure}'] = ['max>=0'];
  for (let b = 0; b < params.buckets; b++) {
    thresholds[`${latencyMetric}{scenario:measure,mp_bucket:${b}}`] = ['max>=0'];
    thresholds[`mp_failed{mp_bucket:${b}}`] = ['rate>=0'];
  }
  return {
    discardResponseBodies: true,
    summaryTrendStats: TREND_STATS,
    scenarios: params.scenarios,
    thresholds,
    userAgent: 'mesh-perf (k6)',
    // The ingress gateway's certificate is self-signed by mesh-perf (kubernetes.ingress.tls).
    insecureSkipTLSVerify: params.insecureSkipTLSVerify === true,
  };
}

const failed = new Rate('mp_failed');
const statusCounters = {};
for (const code of params.countedStatuses || []) statusCounters[code] = new Counter(`${params.statusPrefix}${code}`);
const otherStatus = new Counter(`${params.statusPrefix || 'mp_status_'}other`);

function bucketOf() {
  return Math.min(params.buckets - 1, Math.floor((Date.now() - exec.scenario.startTime) / params.bucketMs));
}

/** Tag for a request: its timeline bucket while measuring, "warmup" before. */
export function bucketTag() {
  return exec.scenario.name === 'measure' ? String(bucketOf()) : 'warmup';
}

/** Counts one finished request of the measured window. status is a plain number. */
export function record(isFailure, status) {
  if (exec.scenario.name !== 'measure') return;
  failed.add(isFailure, { mp_bucket: String(bucketOf()) });
  (statusCounters[status] || otherStatus).add(1);
}

export function body() {
  return params.payloadBytes !== undefined && params.payloadBytes !== null ? 'x'.repeat(params.payloadBytes) : params.body || '';
}

export function summary(data) {
  // endedAtMs: with state.testRunDurationMs it places the measured window in time (resource samples).
  data.mesh_perf = { measureDurationS: params.measureDurationS, bucketMs: params.bucketMs, buckets: params.buckets, protocol: params.protocol, endedAtMs: Date.now() };
  const out = {};
  out[params.summaryFile] = JSON.stringify(data);
  return out;
}
