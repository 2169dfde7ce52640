// gRPC unary call to Fortio's ping service (fgrpc.PingServer/Ping), found by server reflection
// so no .proto file has to travel with the script. See mesh-perf-lib.js.
import grpc from 'k6/net/grpc';
import { params, buildOptions, bucketTag, record, body, summary } from './mesh-perf-lib.js';

export const options = buildOptions('grpc_req_duration');

const ADDRESS = __ENV.MESH_PERF_GRPC || params.grpc;
const PAYLOAD = body();
const TIMEOUT = `${params.timeoutMs}ms`;
const client = new grpc.Client();
let connected = false;

export default function () {
  if (!connected) {
    client.connect(ADDRESS, { plaintext: true, reflect: true, timeout: TIMEOUT });
    connected = true;
  }
  const response = client.invoke('fgrpc.PingServer/Ping', { payload: PAYLOAD }, { timeout: TIMEOUT, tags: { mp_bucket: bucketTag() } });
  // k6 hands back the status as a wrapped Go value; Number() makes it a plain key.
  const status = response ? Number(response.status) : 2;
  record(status !== Number(grpc.StatusOK), status);
}

export function handleSummary(data) {
  return summary(data);
}
