// The k6 client pods of a mode: one per load generator (load.generators). One generator keeps
// the manifest's single pod as it is. N > 1 replicates it as <name>, <name>-1, … <name>-(N-1),
// each with a *required* anti-affinity to the mode's other client pods and to the echo server's
// pods (one node each): the point of N pods is N nodes' worth of CPU and network, and two k6
// pods sharing a node would cap the rate at one node's while reporting N generators. A rule the
// scheduler may bend (preferred) would hide that; a required one fails visibly (a Pending pod
// with the scheduler's reason), and the platform checks the fit before creating anything.
// Clients of different modes may share nodes: modes run one at a time. Pure.
import type { KubernetesObject } from '@kubernetes/client-node';
import { MANAGED_BY, MANAGER } from './ownership.ts';
import { CLIENT_INDEX } from './resources/groups.ts';
const ECHO_NAME = 'mesh-perf-echo';
const HOSTNAME = 'kubernetes.io/hostname';

/** Name of the client pod of instance `index` (0 keeps the manifest's name). */
export function clientPodName(base: string, index: number): string {
  return index === 0 ? base : `${base}-${index}`;
}

interface AffinityTerm {
  topologyKey: string;
  labelSelector: Record<string, unknown>;
  namespaceSelector?: Record<string, unknown>;
}

interface PodSpecView {
  affinity?: {
    podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[] } & Record<string, unknown>;
  } & Record<string, unknown>;
}

/** The terms that keep one mode's client pods on separate nodes, apart from every echo pod. */
export function spreadTerms(): AffinityTerm[] {
  return [
    // Same namespace (the default): one mode's generators never share a node.
    { topologyKey: HOSTNAME, labelSelector: { matchExpressions: [{ key: CLIENT_INDEX, operator: 'Exists' }] } },
    // Every mode's echo pods (they refuse client nodes too; this holds for pods created later).
    {
      topologyKey: HOSTNAME,
      labelSelector: { matchLabels: { 'app.kubernetes.io/name': ECHO_NAME } },
      namespaceSelector: { matchLabels: { [MANAGED_BY]: MANAGER } },
    },
  ];
}

/**
 * The client objects with the pod replicated `count` times. Other objects of a user's client
 * manifest (a ConfigMap, a ServiceAccount) are kept once.
 */
export function clientObjects(objects: readonly KubernetesObject[], podName: string, count: number): KubernetesObject[] {
  if (!Number.isInteger(count) || count < 1) throw new Error(`client pod count must be a whole number ≥ 1, got ${count}`);
  const out: KubernetesObject[] = [];
  for (const object of objects) {
    if (object.kind !== 'Pod' || object.metadata?.name !== podName) {
      out.push(object);
      continue;
    }
    for (let index = 0; index < count; index++) out.push(clientPod(object, index, count));
  }
  return out;
}

function clientPod(template: KubernetesObject, index: number, count: number): KubernetesObject {
  const pod = structuredClone(template) as KubernetesObject & { spec?: PodSpecView };
  pod.metadata = {
    ...pod.metadata,
    name: clientPodName(template.metadata!.name!, index),
    labels: { ...pod.metadata?.labels, [CLIENT_INDEX]: String(index) },
  };
  if (count === 1) return pod;
  const spec = (pod.spec ??= {});
  const affinity = (spec.affinity ??= {});
  const anti = (affinity.podAntiAffinity ??= {});
  anti.requiredDuringSchedulingIgnoredDuringExecution = [...(anti.requiredDuringSchedulingIgnoredDuringExecution ?? []), ...spreadTerms()];
  return pod;
}
