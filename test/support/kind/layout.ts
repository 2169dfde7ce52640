// The kind tier's names, addresses and paths, in one place. Docker runs inside namespaces of its
// own (the "kind host": network, mount, PID, UTS), so every bridge, address, rule and container of
// kind lives there. Every address is in the benchmarking range 198.18.0.0/15 (RFC 2544): docker0
// 198.18.0.0/24, the kind network 198.18.1.0/24 (the registry on its gateway, 198.18.1.1), any
// other Docker network from 198.18.64.0/18, pods 198.18.128.0/17 and Services 198.19.0.0/16 (the
// kind config's podSubnet/serviceSubnet: kubernetes.kind.networking). Nothing is routed off the
// machine: the host's network namespace has a loopback and Docker's bridges only.
import { join } from 'node:path';
import { cacheBase } from '../real/layout.ts';

export const HOST_NAME = 'mesh-perf-kind-host';
export const DOCKER0_CIDR = '198.18.0.1/24';
export const ADDRESS_POOL = 'base=198.18.64.0/18,size=24';
export const KIND_NETWORK = 'kind';
export const KIND_SUBNET = '198.18.1.0/24';
export const KIND_GATEWAY = '198.18.1.1';
export const POD_SUBNET = '198.18.128.0/17';
export const SERVICE_SUBNET = '198.19.0.0/16';
export const REGISTRY_PORT = 5000;
/** The registry as the nodes, Docker and the product name it: kubernetes.images.registry. */
export const REGISTRY = `${KIND_GATEWAY}:${REGISTRY_PORT}`;
/** Docker's containers (the nodes) go under this cgroup in every hierarchy: removed by down. */
export const CGROUP_PARENT = 'mesh-perf-kind';
/** The runtime name dockerd gives the harness's runc wrapper (scripts/kind/runc-wrapper). */
export const RUNTIME = 'mesh-perf-runc';

/** Host-side files: the record, Docker's socket, logs (state); images and layers kept between runs (data). */
export function stateDir(): string {
  return process.env.MESH_PERF_KIND_STATE ?? join(cacheBase(), 'kind');
}

export const paths = {
  state: () => join(stateDir(), 'host.json'),
  logs: () => join(stateDir(), 'logs'),
  socket: () => join(stateDir(), 'docker.sock'),
  /** A bin directory put first on PATH: `docker` is Debian's CLI, the daemon's own version. */
  bin: () => join(stateDir(), 'bin'),
  runtime: () => join(stateDir(), 'runc-wrapper'),
  /** A hostname whose next container create the wrapper fails once (the retry test). */
  failOnce: () => join(stateDir(), 'fail-create-once'),
  /** Docker's data root and the registry's storage: the built images stay between runs. */
  dockerData: () => join(cacheBase(), 'kind-data', 'docker'),
  registryData: () => join(cacheBase(), 'kind-data', 'registry'),
  /** The digests of what was pushed, by image reference (images.ts). */
  pushed: () => join(stateDir(), 'images.json'),
};
