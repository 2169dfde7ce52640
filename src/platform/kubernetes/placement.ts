// Whether a mode's N client pods can be placed, decided before anything is created, and the load
// capacity `load.generators: auto` chooses from. Client pods need a node each (required
// anti-affinity, see clients.ts) and the echo server needs at least one node without a client,
// so N generators need N + 1 schedulable nodes, N of them with room for a client's CPU request.
// Schedulable: Ready, not cordoned, no NoSchedule/NoExecute taint (our pods tolerate none).
// Free CPU is not subtracted (other pods' requests would need a cluster-wide pod list): a node
// that is full anyway leaves its client Pending, and the wait then names the scheduler's reason.
// Pure.
import { type GeneratorCapacity, RPS_PER_K6_PROCESS, rateCeiling } from '../../load/ceiling.ts';
import { quantityToNumber } from './environment.ts';
import { loadEngineOf } from '../../config/engine-checks.ts';
import type { Config } from '../../config/validate.ts';

export interface NodeView {
  metadata: { name: string };
  spec?: { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[] };
  status?: { allocatable?: Record<string, string>; conditions?: { type: string; status: string }[] };
}

export interface SchedulableNode {
  name: string;
  /** Allocatable CPU in millicores. */
  cpuMillicores: number;
}

/** CPU quantity ("2", "500m", "1.5") in millicores; undefined when it is not one. */
export function cpuMillicoresOf(quantity: string | undefined): number | undefined {
  const cores = quantityToNumber(quantity);
  return cores === undefined ? undefined : Math.round(cores * 1000);
}

export function schedulableNodes(nodes: readonly NodeView[]): SchedulableNode[] {
  return nodes
    .filter((n) => !n.spec?.unschedulable)
    .filter((n) => !(n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'))
    .filter((n) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((n) => ({ name: n.metadata.name, cpuMillicores: cpuMillicoresOf(n.status?.allocatable?.cpu) ?? 0 }))
    .sort((a, b) => b.cpuMillicores - a.cpuMillicores);
}

/**
 * The nodes schedulableNodes leaves out, each with why (cordoned, its NoSchedule/NoExecute taints,
 * not Ready): a refusal that counts nodes names them, so "1 schedulable node" on a cluster of two
 * says which taint took the other.
 */
export function unschedulableNodes(nodes: readonly NodeView[]): string[] {
  const usable = new Set(schedulableNodes(nodes).map((n) => n.name));
  return nodes
    .filter((n) => !usable.has(n.metadata.name))
    .map((n) => {
      const why = [
        ...(n.spec?.unschedulable ? ['cordoned'] : []),
        ...(n.spec?.taints ?? [])
          .filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
          .map((t) => `taint ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
        ...((n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? [] : ['not Ready']),
      ];
      return `${n.metadata.name} (${why.join(', ')})`;
    });
}

export interface ClientFit {
  /** Client pods per mode. */
  clients: number;
  /** The config field the count came from, for messages ("load.generators", "load[1].generators"). */
  field: string;
  /** CPU request of one client pod (kubernetes.resources.client.cpu), millicores. */
  requestMillicores: number;
  /** The cluster's nodes that are not schedulable, with why (unschedulableNodes): named when the count falls short. */
  leftOut?: readonly string[];
}

function leftOutText(fit: ClientFit): string {
  return fit.leftOut?.length ? `; not schedulable: ${fit.leftOut.join(', ')}` : '';
}

/** Why N client pods cannot be placed on these nodes, or undefined when they can. */
export function clientFitProblem(nodes: readonly SchedulableNode[], fit: ClientFit): string | undefined {
  if (fit.clients <= 1) return undefined;
  const roomy = nodes.filter((n) => n.cpuMillicores >= fit.requestMillicores);
  const listed = nodes.length === 0 ? '' : ` (${nodes.map((n) => `${n.name} ${formatCores(n.cpuMillicores)} CPU`).join(', ')})`;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (nodes.length < fit.clients + 1)
    return (
      `${fit.field} ${fit.clients} needs ${fit.clients} client pods on separate nodes and one more node for the echo server ` +
      `(${fit.clients + 1} schedulable nodes); the cluster has ${plural(nodes.length, 'schedulable node')}${listed}${leftOutText(fit)}. ` +
      `Lower ${fit.field} to ${Math.max(1, nodes.length - 1)} or add nodes.`
    );
  if (roomy.length < fit.clients)
    return (
      `${fit.field} ${fit.clients} needs ${fit.clients} nodes with ${formatCores(fit.requestMillicores)} CPU allocatable for a client pod each ` +
      `(kubernetes.resources.client.cpu); ${plural(roomy.length, 'node')} of ${nodes.length} ha${roomy.length === 1 ? 's' : 've'} that much${listed}.`
    );
  return undefined;
}

/**
 * Nodes kept out of what k6 instances can use: one for the echo server (client pods come first and
 * the echo pods avoid them), or under k6-operator as many as a mode's echo pods may take (its
 * runners come after them and avoid them).
 */
export function nodesReservedForEcho(config: Pick<Config, 'profiles' | 'kubernetes'>): number {
  if (loadEngineOf(config.profiles) !== 'k6-operator') return 1;
  return Math.max(1, ...config.profiles.map((p) => p.replicas ?? config.kubernetes.replicas));
}

export interface RunnerFit extends ClientFit {
  /** Echo pods of the mode the runners load (its profile's replicas). */
  echoPods: number;
  /** The config field that count came from ("kubernetes.replicas", "load[1].replicas"). */
  echoField: string;
}

/**
 * Why N k6-operator runners cannot be placed, or undefined when they can; checked for one runner
 * too. Runners come after the echo pods (a TestRun per repetition) and keep off the nodes of their
 * mode's echo pods, which spread over up to one node each (they avoid only the idle client pod's
 * node): N runners are sure of a node each only when N + (echo pods) nodes are schedulable, and
 * of room only when N + (echo pods) of them have the runner's CPU request allocatable (the
 * scheduler puts the echo pods on the roomiest nodes first). k6-operator starts no runner until
 * all run (k6_start.go: `if count != Parallelism { return }`), so one that stays Pending held the
 * whole repetition until kubernetes.readyTimeout: a one-node cluster waited there, saying nothing.
 */
export function runnerFitProblem(nodes: readonly SchedulableNode[], fit: RunnerFit): string | undefined {
  const need = fit.clients + fit.echoPods;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const runners = `${fit.field} ${fit.clients} runs ${plural(fit.clients, 'k6-operator runner')}, each on a node without one of the mode's ${plural(fit.echoPods, 'echo pod')} (${fit.echoField}), which may take a node each`;
  const instead =
    fit.clients > 1 && nodes.length > fit.echoPods
      ? `Lower ${fit.field} to ${nodes.length - fit.echoPods}${fit.echoPods > 1 ? ` or ${fit.echoField}` : ''}, or add nodes`
      : `Add ${need - nodes.length === 1 ? 'a node' : 'nodes'}${fit.echoPods > 1 ? `, lower ${fit.echoField}` : ''}, or use load.engine: k6 (k6 in a client pod, which may share the echo server's node)`;
  if (nodes.length < need) {
    const listed = nodes.length === 0 ? '' : ` (${nodes.map((n) => n.name).join(', ')})`;
    return `${runners}: that needs ${need} schedulable nodes; the cluster has ${plural(nodes.length, 'schedulable node')}${listed}${leftOutText(fit)}. ${instead}.`;
  }
  const roomy = nodes.filter((n) => n.cpuMillicores >= fit.requestMillicores);
  if (roomy.length < need) {
    const listed = nodes.map((n) => `${n.name} ${formatCores(n.cpuMillicores)} CPU`).join(', ');
    return (
      `${runners}, the roomiest first, and each runner needs ${formatCores(fit.requestMillicores)} CPU allocatable (kubernetes.resources.client.cpu) ` +
      `on another: ${need} such nodes; ${plural(roomy.length, 'node')} of ${nodes.length} ha${roomy.length === 1 ? 's' : 've'} that much (${listed}). ` +
      `Lower kubernetes.resources.client.cpu, or add nodes.`
    );
  }
  return undefined;
}

/**
 * What load.generators: auto chooses from on a cluster: one client pod per schedulable node with
 * room for its CPU request, `reserved` nodes kept for the echo server (k6-operator's runners keep
 * off every node an echo pod of their mode may take); each pod gets its CPU limit, or the
 * smallest such node's allocatable CPU when that is less. One k6 process holds what one core
 * does however many it may use (load/ceiling.ts), so a pod's share is capped there too.
 */
export function clusterLoadCapacity(
  nodes: readonly SchedulableNode[],
  limitMillicores: number,
  requestMillicores: number,
  reserved = 1,
): GeneratorCapacity {
  const roomy = nodes.filter((n) => n.cpuMillicores >= requestMillicores);
  const instances = Math.max(1, Math.min(roomy.length, nodes.length - reserved));
  const smallest = roomy.slice(0, instances).reduce((min, n) => Math.min(min, n.cpuMillicores), Number.POSITIVE_INFINITY);
  const millicores = Math.min(limitMillicores, Number.isFinite(smallest) ? smallest : limitMillicores);
  const perPod = rateCeiling(millicores / 1000, false);
  return {
    instances,
    rpsPerInstance: Math.min(RPS_PER_K6_PROCESS, perPod),
    totalRps: instances * perPod,
    describe: `${nodes.length} schedulable node${nodes.length === 1 ? '' : 's'} (${reserved === 1 ? 'one' : reserved} kept for the echo server), ${formatCores(millicores)} CPU per client pod`,
  };
}

function formatCores(millicores: number): string {
  return millicores % 1000 === 0 ? String(millicores / 1000) : `${millicores}m`;
}

interface PodTemplateView {
  spec?: {
    template?: {
      spec?: {
        affinity?: {
          podAntiAffinity?: {
            requiredDuringSchedulingIgnoredDuringExecution?: { labelSelector?: { matchLabels?: Record<string, string> } }[];
          };
        };
      };
    };
  };
}

/**
 * The server objects without the built-in echo server's rule that keeps it off client nodes
 * (manifests/echo.yaml: a required anti-affinity to mesh-perf-client pods), for a cluster with a
 * single schedulable node, where that rule can never hold and the echo pods would stay Pending
 * until readyTimeout. Only that term goes; a user's own rules stay. Returns copies.
 */
export function withoutClientAvoidance<T extends { kind?: string }>(objects: readonly T[], clientName: string): T[] {
  return objects.map((object) => {
    if (object.kind !== 'Deployment') return object;
    const copy = structuredClone(object) as T & PodTemplateView;
    const anti = copy.spec?.template?.spec?.affinity?.podAntiAffinity;
    const terms = anti?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!anti || !terms) return object;
    const kept = terms.filter((t) => t.labelSelector?.matchLabels?.['app.kubernetes.io/name'] !== clientName);
    if (kept.length === terms.length) return object;
    if (kept.length > 0) anti.requiredDuringSchedulingIgnoredDuringExecution = kept;
    else delete anti.requiredDuringSchedulingIgnoredDuringExecution;
    return copy;
  });
}
