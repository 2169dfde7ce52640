// HTTP GET, or POST with a body the echo server sends back. Open model (constant-arrival-rate)
// or closed model (constant-vus), as mesh-perf's params say. See mesh-perf-lib.js: the request
// is all an iteration does, besides keeping the VU's timeline tag current.
import http from 'k6/http';
import { params, buildOptions, tagBucket, body, summary } from './mesh-perf-lib.js';

export const options = buildOptions();

const URL = __ENV.MESH_PERF_URL || params.url;
const BODY = params.method === 'POST' ? body() : null;
const request = { headers: params.headers || {}, timeout: `${params.timeoutMs}ms` };

export default function () {
  tagBucket();
  if (params.method === 'POST') http.post(URL, BODY, request);
  else http.get(URL, request);
}

export function handleSummary(data) {
  return summary(data);
}
