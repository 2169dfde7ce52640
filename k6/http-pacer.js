// HTTP GET, or POST with a body the echo server sends back, open model, paced by mesh-perf's k6
// extension (k6/x/meshperf, k6ext/ in this repository) instead of k6's arrival-rate executor:
// one VU calls it once, and it sends the warm-up's and the measured scenario's arrivals at their
// intended times from Go, each through k6's own HTTP client, tagged with its scenario and
// timeline bucket. Every statistic is the same sub-metric http.js's run is read from (see
// mesh-perf-lib.js). Only a k6 built with the extension runs this script; mesh-perf runs http.js
// with any other k6 (src/load/script.ts).
import pacer from 'k6/x/meshperf';
import { params, optionsForInit, body, summary } from './mesh-perf-lib.js';

// k6 reads options only from the init context it runs first (__VU 0): a VU's init builds none.
export const options = optionsForInit();

if (pacer.version !== params.pacer.version)
  throw new Error(`this k6's k6/x/meshperf is ${pacer.version}; mesh-perf rendered parameters for ${params.pacer.version}`);

const RUN = JSON.stringify({
  url: __ENV.MESH_PERF_URL || params.url,
  method: params.method,
  body: params.method === 'POST' ? body() : null,
  headers: params.headers,
  timeoutMs: params.timeoutMs,
  rate: params.pacer.rate,
  maxWorkers: params.pacer.maxWorkers,
  phases: params.pacer.phases,
});

export default function () {
  pacer.run(RUN);
}

export function handleSummary(data) {
  return summary(data);
}
