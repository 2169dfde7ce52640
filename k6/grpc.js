// gRPC unary call to Fortio's ping service (fgrpc.PingServer/Ping), found by server reflection
// so no .proto file has to travel with the script. See mesh-perf-lib.js: status counts and the
// latency of OK calls come from grpc_req_duration's own status tag.
import grpc from 'k6/net/grpc';
import { params, optionsForInit, tagBucket, body, summary } from './mesh-perf-lib.js';

// k6 reads options only from the init context it runs first (__VU 0): a VU's init builds none
// (optionsForInit).
export const options = optionsForInit();

const ADDRESS = __ENV.MESH_PERF_GRPC || params.grpc;
const TIMEOUT = `${params.timeoutMs}ms`;
// Built once: k6 reads these objects on every call.
const MESSAGE = { payload: body() };
const CALL = { timeout: TIMEOUT };
const client = new grpc.Client();
let connected = false;
let bucketEnds = 0; // per VU: when its timeline tag next needs changing

export default function () {
  if (!connected) {
    client.connect(ADDRESS, { plaintext: true, reflect: true, timeout: TIMEOUT });
    connected = true;
  }
  const now = Date.now();
  if (now >= bucketEnds) bucketEnds = tagBucket(now);
  client.invoke('fgrpc.PingServer/Ping', MESSAGE, CALL);
}

export function handleSummary(data) {
  return summary(data);
}
