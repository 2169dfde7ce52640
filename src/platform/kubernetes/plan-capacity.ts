// What `plan` shows for load.generators: auto on a cluster: the capacity the run will choose
// from (placement.ts). kubeconfig: the cluster's nodes, read (list only) with a short deadline;
// kind: the cluster mesh-perf would create, kubernetes.kind.workers nodes that each see this
// machine's cores (kind nodes are containers on it). Only asked when a profile says auto.
import { cpus } from 'node:os';
import type { Config } from '../../config/validate.ts';
import type { GeneratorCapacity } from '../../load/ceiling.ts';
import { messageOf } from '../../util/errors.ts';
import { loadAccess, rawRequest } from './access.ts';
import {
  clusterLoadCapacity,
  cpuMillicoresOf,
  nodesReservedForEcho,
  schedulableNodes,
  type NodeView,
  type SchedulableNode,
} from './placement.ts';

export interface PlanCapacity {
  capacity?: GeneratorCapacity;
  /** Why there is none, for the plan's output. */
  note?: string;
}

export async function clusterPlanCapacity(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  cores = cpus().length,
): Promise<PlanCapacity> {
  const client = config.kubernetes.resources.client;
  const request = cpuMillicoresOf(client.cpu) ?? 0;
  const limit = cpuMillicoresOf(client.cpuLimit) ?? request;
  if (config.platform === 'kind') {
    const nodes: SchedulableNode[] = Array.from({ length: config.kubernetes.kind.workers }, (_, i) => ({
      name: `worker-${i + 1}`,
      cpuMillicores: cores * 1000,
    }));
    const capacity = clusterLoadCapacity(nodes, limit, request, nodesReservedForEcho(config));
    return { capacity: { ...capacity, describe: `${capacity.describe}; kind's nodes share this machine's ${cores} cores` } };
  }
  try {
    const access = loadAccess({ kubeconfig: config.kubernetes.kubeconfig, context: config.kubernetes.context }, env);
    const response = await rawRequest(access, '/api/v1/nodes', { timeoutMs: 5000, attempts: 1 });
    if (response.status !== 200)
      return { note: `auto is chosen at run time: the cluster's nodes could not be listed (HTTP ${response.status})` };
    const nodes = schedulableNodes((JSON.parse(response.body) as { items: NodeView[] }).items);
    return { capacity: clusterLoadCapacity(nodes, limit, request, nodesReservedForEcho(config)) };
  } catch (error) {
    return { note: `auto is chosen at run time: the cluster could not be read now (${messageOf(error).split('\n')[0]})` };
  }
}
