// Shared by mesh-perf's k6 scripts. Everything a run needs arrives in one JSON environment
// variable, MESH_PERF_PARAMS, rendered by mesh-perf (src/load/script.ts), so these files never
// change between runs and can be read, diffed and run by hand:
//   k6 run -e MESH_PERF_PARAMS="$(cat params.json)" k6/http.js
// The measured scenario is named "measure"; warm-up is its own scenario before it, and every
// statistic mesh-perf reads is a sub-metric tagged scenario:measure.
//
// Bookkeeping costs tail latency, so the per-request path does nothing but the request: no
// custom metrics, no per-request tags (bench/harness-fidelity measured a Rate, 20 status
// Counters and a tag object per request at +40–100 µs of CPU per request and a p99 many times
// plain k6's). Everything is read from k6's built-in metrics through sub-metrics:
//   - latency of successes: <latency>{scenario:measure,expected_response:true} (HTTP) or
//     {status:0} (gRPC OK); of failures: the expected_response:false twin;
//   - status codes and network error codes: one sub-metric per code on http_reqs;
//   - latency over time: a VU-level tag mp_bucket, changed at most once a second per VU
//     (exec.vu.metrics.tags), so no request carries a tag object of its own.
import exec from 'k6/execution';

export const params = JSON.parse(__ENV.MESH_PERF_PARAMS || '{}');

const TREND_STATS = ['min', 'avg', 'med', 'p(75)', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max', 'count'];

/** Every sub-metric mesh-perf reads; thresholds that always pass make k6 keep them. */
export function buildOptions() {
  const thresholds = {};
  const keep = (name, expr) => (thresholds[name] = [expr]);
  const grpc = params.protocol === 'grpc';
  const latency = grpc ? 'grpc_req_duration' : 'http_req_duration';
  const counted = grpc ? 'grpc_req_duration' : 'http_reqs';
  keep(`${latency}{scenario:measure}`, 'max>=0');
  keep(`${latency}{scenario:measure,${params.successTag}}`, 'max>=0');
  if (!grpc) keep(`${latency}{scenario:measure,expected_response:false}`, 'max>=0');
  keep('dropped_iterations{scenario:measure}', 'count>=0');
  keep('data_sent{scenario:measure}', 'count>=0');
  keep('data_received{scenario:measure}', 'count>=0');
  for (const code of params.countedStatuses || []) keep(`${counted}{scenario:measure,status:${code}}`, grpc ? 'max>=0' : 'count>=0');
  for (const code of params.errorCodes || []) keep(`${counted}{scenario:measure,error_code:${code}}`, 'count>=0');
  keep('iteration_duration{scenario:measure}', 'max>=0');
  for (let b = 0; b < params.buckets; b++) {
    keep(`${latency}{scenario:measure,mp_bucket:${b}}`, 'max>=0');
    keep(`${latency}{scenario:measure,mp_bucket:${b},${params.successTag}}`, 'max>=0');
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

// Per VU: when the current bucket ends. Checked with one Date.now() per request.
let bucketEnds = 0;

/** Keeps this VU's mp_bucket tag on the timeline bucket the next request starts in. */
export function tagBucket() {
  const now = Date.now();
  if (now < bucketEnds) return;
  const scenario = exec.scenario;
  if (scenario.name !== 'measure') {
    exec.vu.metrics.tags.mp_bucket = 'warmup';
    bucketEnds = 0; // look again next request: this VU may move on to the measured scenario
    return;
  }
  const bucket = Math.min(params.buckets - 1, Math.floor((now - scenario.startTime) / params.bucketMs));
  exec.vu.metrics.tags.mp_bucket = String(bucket);
  bucketEnds = bucket === params.buckets - 1 ? Infinity : scenario.startTime + (bucket + 1) * params.bucketMs;
}

export function body() {
  return params.payloadBytes !== undefined && params.payloadBytes !== null ? 'x'.repeat(params.payloadBytes) : params.body || '';
}

export function summary(data) {
  // endedAtMs: with state.testRunDurationMs it places the measured window in time (resource samples).
  data.mesh_perf = { measureDurationS: params.measureDurationS, bucketMs: params.bucketMs, buckets: params.buckets, protocol: params.protocol, version: 2, endedAtMs: Date.now() };
  const out = {};
  out[params.summaryFile] = JSON.stringify(data);
  return out;
}
