// HTTP GET, or POST with a body the echo server sends back. Open model (constant-arrival-rate)
// or closed model (constant-vus), as mesh-perf's params say. See mesh-perf-lib.js.
import http from 'k6/http';
import { params, buildOptions, bucketTag, record, body, summary } from './mesh-perf-lib.js';

export const options = buildOptions('http_req_duration');

const URL = __ENV.MESH_PERF_URL || params.url;
const BODY = params.method === 'POST' ? body() : null;
const request = { headers: params.headers || {}, timeout: `${params.timeoutMs}ms`, tags: {} };

export default function () {
  request.tags = { mp_bucket: bucketTag() };
  const response = params.method === 'POST' ? http.post(URL, BODY, request) : http.get(URL, request);
  const status = Number(response.status);
  record(status === 0 || status >= 400, status);
}

export function handleSummary(data) {
  return summary(data);
}
