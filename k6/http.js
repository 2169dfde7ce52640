// HTTP GET, or POST with a body the echo server sends back. Open model (constant-arrival-rate)
// or closed model (constant-vus), as mesh-perf's params say. See mesh-perf-lib.js: an iteration
// is the request and one clock check that keeps the VU's timeline tag current.
import http from 'k6/http';
import { params, optionsForInit, tagBucket, requestParams, body, summary } from './mesh-perf-lib.js';

// k6 reads options only from the init context it runs first (__VU 0): a VU's init builds none
// (optionsForInit).
export const options = optionsForInit();

const URL = __ENV.MESH_PERF_URL || params.url;
const BODY = params.method === 'POST' ? body() : null;
const REQUEST = requestParams();
let bucketEnds = 0; // per VU: when its timeline tag next needs changing

function get() {
  const now = Date.now();
  if (now >= bucketEnds) bucketEnds = tagBucket(now);
  http.get(URL, REQUEST);
}

function post() {
  const now = Date.now();
  if (now >= bucketEnds) bucketEnds = tagBucket(now);
  http.post(URL, BODY, REQUEST);
}

// Chosen once, not per request.
export default params.method === 'POST' ? post : get;

export function handleSummary(data) {
  return summary(data);
}
