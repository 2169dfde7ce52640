// Step 1 of every cluster run: the cluster answers, and nothing is created until every refusal
// has had its say: k6-operator's CRD when the run needs it, room for the k6 client pods
// (load.generators), a single-node cluster noted, and the Istio revisions of modes that bring
// their own checked against the cluster's. Creates nothing, so nothing to undo.
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../../../config/duration.ts';
import { istioRevisions } from '../../../config/istio-revisions.ts';
import { chooseGenerators } from '../../../load/ceiling.ts';
import { EnvironmentError } from '../../../util/errors.ts';
import type { ClusterAccess } from '../access.ts';
import type { ClusterRun } from '../cluster-run.ts';
import type { Logger } from '../../../util/log.ts';
import { requireTestRunCrd } from '../k6-operator/crd.ts';
import { refuseForeignRevisions } from '../mesh/istio.ts';
import {
  clientFitProblem,
  clusterLoadCapacity,
  cpuMillicoresOf,
  nodesReservedForEcho,
  runnerFitProblem,
  type NodeView,
  schedulableNodes,
  unschedulableNodes,
} from '../placement.ts';
import type { ClusterStep } from './step.ts';

export const checkCluster: ClusterStep = {
  name: 'cluster checks',
  phase: 'Cluster',
  async up(run) {
    const access = await run.connect();
    run.context.log.info(`Kubernetes ${run.serverVersion} at ${access.server} (context "${access.contextName}")`);
    // Before anything is installed: without k6-operator the run cannot measure at all.
    if (run.engine === 'k6-operator') await requireTestRunCrd(access);
    // The nodes, listed once for the three checks (undefined without permission to list them).
    const nodes = await awaitSchedulableNode(() => run.listNodes(access), {
      timeoutMs: run.readyTimeoutMs,
      log: run.context.log,
      signal: run.context.signal,
    });
    await checkClientFit(run, access, nodes);
    checkSingleNode(run, nodes);
    // Modes with their own Istio revision: refused here, before anything is created, when the
    // cluster's Istio is someone else's or a revision name is taken (mesh/istio.ts).
    const revisions = istioRevisions(
      run.placements.map((p) => p.mode),
      run.k8s.istio,
    );
    if (revisions.length > 0) await refuseForeignRevisions(run.meshContext(), revisions);
  },
};

/**
 * The most k6 instances any profile runs as (load.generators, auto chosen from the nodes): each
 * mode gets that many client pods, on separate nodes, apart from the echo server (clients.ts).
 * A cluster with too few schedulable nodes, or nodes too small for a client's CPU request, is
 * refused here, before anything is created, with the numbers (exit 3: the config may be right
 * for a larger cluster; kind's worker count is checked with the config, exit 2).
 */
async function checkClientFit(run: ClusterRun, access: ClusterAccess, listed: NodeView[] | undefined): Promise<void> {
  const profiles = run.config.profiles;
  const operator = run.engine === 'k6-operator';
  // k6-operator's runners keep off the echo pods' nodes even one at a time: checked always.
  if (!operator && profiles.every((p) => p.generators === 1)) return;
  // Listed again only when the first listing failed: its error (a missing permission) is this check's.
  const views = listed ?? (await run.listNodes(access));
  const nodes = schedulableNodes(views);
  const leftOut = unschedulableNodes(views);
  const client = run.k8s.resources.client;
  const requestMillicores = cpuMillicoresOf(client.cpu) ?? 0;
  // k6-operator's runners keep off every node their mode's echo pods may take (one each).
  const echoPods = profiles.map((p) => p.replicas ?? run.k8s.replicas);
  const reserved = nodesReservedForEcho(run.config);
  run.capacity = clusterLoadCapacity(nodes, cpuMillicoresOf(client.cpuLimit) ?? requestMillicores, requestMillicores, reserved);
  const choices = profiles.map((p) => chooseGenerators(p, run.capacity!));
  const counts = choices.map((c) => c.count);
  const instances = Math.max(1, ...counts);
  if (instances === 1 && !operator) return;
  const fieldOf = (name: string, i: number) => (profiles.length > 1 ? `load[${i}].${name}` : `load.${name}`);
  const index = counts.indexOf(instances);
  const field = fieldOf('generators', index);
  if (operator) {
    // Each profile's runners against its own echo pod count: the tightest decides.
    for (const [i, count] of counts.entries()) {
      const echoField = profiles[i]!.replicas === undefined ? 'kubernetes.replicas' : fieldOf('replicas', i);
      const problem = runnerFitProblem(nodes, {
        clients: count,
        field: fieldOf('generators', i),
        requestMillicores,
        echoPods: echoPods[i]!,
        echoField,
        leftOut,
      });
      if (problem) throw new EnvironmentError(problem);
    }
  } else {
    const problem = clientFitProblem(nodes, { clients: instances, field, requestMillicores, leftOut });
    if (problem) throw new EnvironmentError(problem);
  }
  profiles.forEach((p, i) => {
    if (p.generators === 'auto') run.context.log.info(`k6 for "${p.name}": ${choices[i]!.reason}`);
  });
  if (operator) {
    // The runners send the load; one client pod stays only to read the image's k6 version.
    run.context.log.info(
      `up to ${instances} k6-operator runner${instances === 1 ? '' : 's'} per repetition (${field}), each on its own node, apart from its mode's echo pods (${nodes.length} schedulable nodes)`,
    );
    return;
  }
  run.clientCount = instances;
  run.context.log.info(
    `${instances} k6 client pods per mode (${field}), each on its own node, apart from the echo server (${nodes.length} schedulable nodes)`,
  );
}

/**
 * A cluster with a single schedulable node (a one-node k3s or minikube, the real-node tier's)
 * cannot keep the echo server off the k6 client's node: the built-in rule that does would leave
 * the echo pods Pending until readyTimeout. The run goes on with both on that node, said once and
 * recorded (environment.placement): their CPU competes alike in every mode, so overheads stay
 * comparable, while absolute figures are a shared node's. Without permission to list nodes the
 * manifests stay as they are.
 */
function checkSingleNode(run: ClusterRun, listed: NodeView[] | undefined): void {
  if (run.clientCount > 1 || run.engine === 'k6-operator' || !listed) return;
  const nodes = schedulableNodes(listed);
  if (nodes.length !== 1) return;
  run.sharedNode = nodes[0]!.name;
  run.context.log.warn(
    `the cluster has one schedulable node (${run.sharedNode}): the echo server runs beside the k6 client there, as nothing else can. Their CPU competes alike in every mode, so overheads stay comparable; absolute figures are a shared node's (recorded as environment.placement)`,
  );
}

/**
 * A cluster with nodes but none schedulable right now is waited for, up to readyTimeout, then
 * refused naming each node and why. A node the control plane marked NotReady (its kubelet could
 * not post its status while the API server was away; the fault tier saw it after a 40 s outage)
 * is back within seconds, but a run placed meanwhile counted no node, so it kept the echo
 * server's rule against the client's node on a single-node cluster: its echo pods stayed Pending
 * until readyTimeout, for a reason that read as anti-affinity. Without permission to list nodes,
 * or with no nodes listed at all, nothing is waited for (as before). Returns the nodes as last
 * listed, undefined when they could not be.
 */
export async function awaitSchedulableNode(
  list: () => Promise<NodeView[]>,
  options: { timeoutMs: number; log: Logger; signal?: AbortSignal; intervalMs?: number },
): Promise<NodeView[] | undefined> {
  let nodes = await list().catch(() => undefined);
  if (!nodes || nodes.length === 0 || schedulableNodes(nodes).length > 0) return nodes;
  const started = Date.now();
  options.log.info(
    `no node is schedulable yet (${unschedulableNodes(nodes).join('; ')}): waiting up to ${formatDuration(options.timeoutMs)} (kubernetes.readyTimeout) for one`,
  );
  while (Date.now() - started < options.timeoutMs) {
    await sleep(options.intervalMs ?? 2000, undefined, { signal: options.signal });
    nodes = await list();
    const usable = schedulableNodes(nodes);
    if (usable.length > 0) {
      options.log.info(`${usable.map((n) => n.name).join(', ')} schedulable after ${Math.round((Date.now() - started) / 1000)} s`);
      return nodes;
    }
  }
  throw new EnvironmentError(
    `no node of the cluster became schedulable within ${formatDuration(options.timeoutMs)} (kubernetes.readyTimeout): ${unschedulableNodes(nodes).join('; ')}. Nothing was created; the run's pods could not have been placed.`,
  );
}
