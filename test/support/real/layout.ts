// The real node's names, addresses and paths, in one place. Every address is in the benchmarking
// range 198.18.0.0/15 (RFC 2544), inside the node's own network namespace: the node's bridge holds
// 198.18.0.1 (the node IP, where the API server listens, and the pods' gateway), pods get
// 198.18.0.0/24, Services 198.19.0.0/16. Nothing here is routed off the machine.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE_NAME = 'mesh-perf-real';
export const NODE_IP = '198.18.0.1';
export const BRIDGE = 'mp0';
export const POD_CIDR = '198.18.0.0/24';
export const CLUSTER_CIDR = '198.18.0.0/16';
export const SERVICE_CIDR = '198.19.0.0/16';
export const KUBERNETES_SERVICE_IP = '198.19.0.1';
export const DNS_SERVICE_IP = '198.19.0.10';
/** The whole range the node may use; the containment check counts packets to it on the host. */
export const BENCHMARK_RANGE = '198.18.0.0/15';
export const API_PORT = 6443;
/** The registry name of the node's images (kubernetes.images.registry); nothing serves it: images are imported. */
export const LOCAL_REGISTRY = 'mesh-perf.local';
/** The kubelet's cgroup root (cgroupfs driver): every pod cgroup is under it, removed by down. */
export const CGROUP_ROOT = 'mesh-perf-real';

export function cacheBase(): string {
  return process.env.MESH_PERF_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf');
}

/** Host-side files of a node: its pid record, PKI, kubeconfig, configs, logs (removed by down but the logs). */
export function stateDir(): string {
  return process.env.MESH_PERF_REAL_STATE ?? join(cacheBase(), 'real');
}

export const paths = {
  state: () => join(stateDir(), 'node.json'),
  pki: () => join(stateDir(), 'pki'),
  etc: () => join(stateDir(), 'etc'),
  logs: () => join(stateDir(), 'logs'),
  /** Image archives, kept between runs (rebuilt when their inputs change). */
  images: () => join(cacheBase(), 'real-images'),
  kubeconfig: () => join(stateDir(), 'pki', 'admin.kubeconfig'),
};
