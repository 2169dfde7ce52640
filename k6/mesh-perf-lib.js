// Shared by mesh-perf's k6 scripts. Everything a run needs arrives in one JSON environment
// variable, MESH_PERF_PARAMS, rendered by mesh-perf (src/load/script.ts), so these files never
// change between runs and can be read, diffed and run by hand:
//   k6 run --no-thresholds -e MESH_PERF_PARAMS="$(cat params.json)" k6/http.js
// The measured scenario is named "measure"; warm-up is its own scenario before it, and every
// statistic mesh-perf reads is a sub-metric tagged scenario:measure.
//
// Bookkeeping costs tail latency, so the per-request path does nothing but the request and one
// clock check: no custom metrics, no per-request tags, no checks, no response bodies
// (bench/harness-fidelity measures each part by switching it off). Everything is read from k6's
// built-in metrics through sub-metrics:
//   - latency of successes: <latency>{scenario:measure,expected_response:true} (HTTP) or
//     {status:0} (gRPC OK); of failures: the expected_response:false twin;
//   - status codes and network error codes: one sub-metric per code on http_reqs;
//   - latency over time: a VU-level tag mp_bucket, changed at most once a second per VU
//     (exec.vu.metrics.tags), so no request carries a tag object of its own.
// k6 creates a sub-metric only for a threshold that names it, so each one has a threshold that
// always passes; mesh-perf runs k6 with --no-thresholds (src/load/script.ts, K6_ENGINE_ARGS),
// which keeps the sub-metrics but stops k6 evaluating the thresholds every 2 s: that evaluation
// sorts every latency sub-metric's samples under the lock the metrics pipeline waits on.
import exec from 'k6/execution';

export const params = JSON.parse(__ENV.MESH_PERF_PARAMS || '{}');

const TREND_STATS = ['min', 'avg', 'med', 'p(75)', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max', 'count'];

/**
 * The options of this init context: all of them in the one k6 reads them from (the first, with
 * __VU 0; setup, teardown and handleSummary run in a VU 0 too), none in a VU's. Every VU runs
 * this module's init code, and one that built the options kept its own copy of the ~50
 * thresholds as its export for the whole run: measured with GODEBUG=gctrace=1, ~70 KB of live
 * heap a VU at 1 rps, a few MB at 5,000 rps (250 VUs), heap Go's collector marks on every cycle.
 * The sub-metrics exist either way: k6 creates them from the options it read.
 */
export function optionsForInit() {
  return __VU === 0 ? buildOptions() : undefined;
}

/** Every sub-metric mesh-perf reads, declared by a threshold that always passes. */
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
  if (params.pacer) {
    // The pacer's own account of the measured scenario (k6ext/pacer.go), reported once.
    keep('mesh_perf_late_sends{scenario:measure}', 'count>=0');
    keep('mesh_perf_send_lag_max{scenario:measure}', 'value>=0');
  }
  for (let b = 0; b < params.buckets; b++) {
    keep(`${latency}{scenario:measure,mp_bucket:${b}}`, 'max>=0');
    keep(`${latency}{scenario:measure,mp_bucket:${b},${params.successTag}}`, 'max>=0');
  }
  const options = {
    discardResponseBodies: true,
    summaryTrendStats: TREND_STATS,
    scenarios: params.scenarios,
    thresholds,
    userAgent: 'mesh-perf (k6)',
    // The ingress gateway's certificate is self-signed by mesh-perf (kubernetes.ingress.tls).
    insecureSkipTLSVerify: params.insecureSkipTLSVerify === true,
  };
  // The pacer sends through its one VU's HTTP transport, which keeps batchPerHost idle connections
  // (k6's default 6; 20 in all): as many as its workers, as k6's executor has a connection per VU.
  if (params.pacer) options.batch = options.batchPerHost = params.pacer.maxWorkers;
  return options;
}

/**
 * Puts this VU's mp_bucket tag on the timeline bucket a request starting at `now` falls in, and
 * returns when to call again: when that bucket ends. The scripts keep that time in a variable
 * of their own and compare Date.now() with it before each request, so this runs about once a
 * second per VU. In warm-up no tag is needed (every sub-metric is of the measured scenario):
 * call again when the measured scenario starts.
 */
export function tagBucket(now) {
  const scenario = exec.scenario;
  if (scenario.name !== 'measure') return Math.max(now + 1, scenario.startTime + (params.warmupMs || 0));
  const bucket = Math.min(params.buckets - 1, Math.floor((now - scenario.startTime) / params.bucketMs));
  exec.vu.metrics.tags.mp_bucket = String(bucket);
  return bucket === params.buckets - 1 ? Infinity : scenario.startTime + (bucket + 1) * params.bucketMs;
}

/**
 * k6's per-request parameters, built once: k6 reads every key of this object on every request,
 * so it holds only what differs from k6's defaults (the timeout, in ms as a number; headers
 * when there are any).
 */
export function requestParams() {
  const request = { timeout: params.timeoutMs };
  if (params.headers && Object.keys(params.headers).length > 0) request.headers = params.headers;
  return request;
}

export function body() {
  return params.payloadBytes !== undefined && params.payloadBytes !== null ? 'x'.repeat(params.payloadBytes) : params.body || '';
}

export function summary(data) {
  // endedAtMs: with state.testRunDurationMs it places the measured window in time (resource samples).
  data.mesh_perf = { measureDurationS: params.measureDurationS, bucketMs: params.bucketMs, buckets: params.buckets, protocol: params.protocol, version: 2, endedAtMs: Date.now() };
  if (params.pacer) data.mesh_perf.engine = 'pacer';
  const out = {};
  out[params.summaryFile] = JSON.stringify(data);
  return out;
}
