// Looks at the pods a mode's traffic crosses before and after each repetition (its echo and
// client pods, and the node proxies its mesh brings: ztunnel for ambient and waypoint modes) and
// says what did not last through it (disruption-compare.ts): a deleted or evicted pod, a restarted
// container. After one, the next repetition waits until the mode's pods are back (a replacement
// ready, the restarted container ready), for at most kubernetes.readyTimeout; a mode that does not
// come back stops the run (exit 3) saying which pod and why.
import type { MeshKind } from '../../config/schema.ts';
import type { Disruption, Repetition } from '../../results/types.ts';
import { EnvironmentError } from '../../util/errors.ts';
import type { ClusterAccess } from './access.ts';
import type { ApiOutage } from './api-outage.ts';
import { getJson } from './api-json.ts';
import { type ContainerLook, disruptionText, disruptionsBetween, type PodLook } from './disruption-compare.ts';
import type { DisruptionWatch } from '../types.ts';
import { ISTIO_NAMESPACE } from './mesh/istio.ts';
import { CLIENT_NAME, GATEWAY_NAME_LABEL } from './resources/groups.ts';
import { describeNotReady } from './wait.ts';

export interface DisruptionMode {
  kind: MeshKind;
  namespace: string;
  /** Where its k6 client pods are (the mode's namespace, or the ingress gateway's). */
  clientNamespace: string;
}

export interface DisruptionWatchOptions {
  modes: Record<string, DisruptionMode>;
  readyTimeoutMs: number;
  outage: ApiOutage;
  signal?: AbortSignal;
}

interface PodItem {
  metadata: { name: string; namespace?: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: {
    phase?: string;
    reason?: string;
    conditions?: { type: string; status: string; reason?: string }[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
  };
}

interface ContainerStatus {
  name: string;
  restartCount?: number;
  state?: { running?: object; terminated?: Termination; waiting?: object };
  lastState?: { terminated?: Termination };
}

interface Termination {
  reason?: string;
  exitCode?: number;
}

/** k6-operator's pods come and go with every repetition (its TestRun's initializer, starter and runners). */
const K6_OPERATOR_POD = (labels: Record<string, string>) => labels.app === 'k6' || labels.k6_cr !== undefined;

function roleOf(pod: PodItem, namespace: string): string | undefined {
  const labels = pod.metadata.labels ?? {};
  if (K6_OPERATOR_POD(labels)) return undefined;
  if (namespace === ISTIO_NAMESPACE) return labels.app === 'ztunnel' ? 'ztunnel' : undefined;
  if (labels['app.kubernetes.io/name'] === CLIENT_NAME) return 'k6 client';
  if (labels[GATEWAY_NAME_LABEL]) return 'waypoint';
  return 'echo server';
}

export function podLook(pod: PodItem, namespace: string): PodLook | undefined {
  const role = roleOf(pod, namespace);
  if (!role) return undefined;
  // Native sidecars (Linkerd's proxy, Istio's with native sidecars on) are init containers that keep running.
  const containers: ContainerLook[] = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].map((c) => {
    const end = c.state?.terminated ?? c.lastState?.terminated;
    return {
      name: c.name,
      restarts: c.restartCount ?? 0,
      running: c.state?.running !== undefined,
      ...(end
        ? { lastEnd: { ...(end.reason ? { reason: end.reason } : {}), ...(end.exitCode !== undefined ? { exitCode: end.exitCode } : {}) } }
        : {}),
    };
  });
  const ready = pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const reason = endReason(pod);
  return {
    namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    role,
    terminating: pod.metadata.deletionTimestamp !== undefined,
    ready,
    ...(reason ? { reason } : {}),
    containers,
  };
}

/**
 * Why the pod is ending, when it says: the kubelet's status.reason ("Evicted" under node pressure),
 * or the DisruptionTarget condition the API server sets on a pod the Eviction API evicts (a drain,
 * the descheduler), which leaves status.reason empty while the pod terminates.
 */
function endReason(pod: PodItem): string | undefined {
  if (pod.status?.reason) return pod.status.reason;
  const target = (pod.status?.conditions ?? []).find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  return target?.reason === 'EvictionByEvictionAPI' ? 'Evicted' : undefined;
}

export class PodDisruptionWatch implements DisruptionWatch {
  private before: PodLook[] = [];

  constructor(
    private readonly access: ClusterAccess,
    private readonly options: DisruptionWatchOptions,
  ) {}

  /** Looks at the mode's pods before its load. */
  async start(mode: string): Promise<void> {
    this.before = await this.look(mode);
  }

  /** Looks again after the load: what did not last through it. */
  async stop(mode: string): Promise<Disruption[]> {
    return disruptionsBetween(this.before, await this.look(mode));
  }

  reasons(disruptions: readonly Disruption[], repetition: Pick<Repetition, 'requests' | 'failures' | 'errorCauses' | 'path'>): string[] {
    const across = {
      requests: repetition.requests,
      failures: repetition.failures,
      ...(repetition.errorCauses ? { errorCauses: repetition.errorCauses } : {}),
      ...(repetition.path ? { proxies: repetition.path.proxies } : {}),
    };
    return disruptions.map((d) => disruptionText(d, across));
  }

  /** The namespaces to look in for a mode: its own, its client's, and istio-system's ztunnels when its path crosses them. */
  private namespacesOf(mode: string): string[] {
    const target = this.options.modes[mode];
    if (!target) return [];
    const ztunnel = target.kind === 'istio-ambient' || target.kind === 'istio-waypoint';
    return [...new Set([target.namespace, target.clientNamespace, ...(ztunnel ? [ISTIO_NAMESPACE] : [])])];
  }

  private async look(mode: string): Promise<PodLook[]> {
    const looks: PodLook[] = [];
    for (const namespace of this.namespacesOf(mode)) {
      const selector = namespace === ISTIO_NAMESPACE ? '?labelSelector=app%3Dztunnel' : '';
      const list = await this.options.outage.through(`looking at the pods in ${namespace}`, () =>
        getJson<{ items: PodItem[] }>(this.access, `/api/v1/namespaces/${namespace}/pods${selector}`, {
          verb: 'list',
          resource: 'pods',
          namespace,
        }),
      );
      for (const item of list?.items ?? []) {
        const look = podLook(item, namespace);
        if (look) looks.push(look);
      }
    }
    return looks;
  }

  /**
   * Waits until every role that lost a pod has as many ready pods again as before the repetition,
   * and every restarted pod is ready (bounded by kubernetes.readyTimeout; past it, throws naming them).
   */
  async settle(mode: string, found: readonly Disruption[]): Promise<void> {
    const wanted = new Map<string, number>();
    for (const pod of this.before)
      if (pod.ready) wanted.set(`${pod.namespace} ${pod.role}`, (wanted.get(`${pod.namespace} ${pod.role}`) ?? 0) + 1);
    const deadline = Date.now() + this.options.readyTimeoutMs;
    for (;;) {
      const now = await this.look(mode);
      const ready = new Map<string, number>();
      for (const pod of now)
        if (pod.ready && !pod.terminating) ready.set(`${pod.namespace} ${pod.role}`, (ready.get(`${pod.namespace} ${pod.role}`) ?? 0) + 1);
      const short = [...wanted].filter(([key, count]) => (ready.get(key) ?? 0) < count);
      if (short.length === 0) return;
      if (Date.now() > deadline || this.options.signal?.aborted) {
        const namespaces = [...new Set(short.map(([key]) => key.split(' ')[0]!))];
        const details = await Promise.all(namespaces.map((ns) => describeNotReady(this.access, ns)));
        throw new EnvironmentError(
          `mode ${mode}: ${found.map((d) => `${d.component} pod ${d.pod} ${d.event}`).join(', ')} during a repetition, and ${short
            .map(([key, count]) => `${key.split(' ').slice(1).join(' ')} in ${key.split(' ')[0]}: ${ready.get(key) ?? 0} of ${count} ready`)
            .join(
              ', ',
            )} after waiting ${Math.round(this.options.readyTimeoutMs / 1000)} s (kubernetes.readyTimeout); the run stops here.\n${details.join('\n')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
