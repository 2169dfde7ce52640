// Explicit readiness waits (never sleeps): a watch on the object with a deadline, re-listing when
// the watch ends early (410 Gone, server timeout). On timeout the error lists what is not ready:
// pod phases, container waiting reasons, and recent warning events.
import { Watch } from '@kubernetes/client-node';
import { EnvironmentError } from '../../util/errors.ts';
import { formatDuration } from '../../config/duration.ts';
import { rawRequest, type ClusterAccess } from './access.ts';

interface KubeObject {
  metadata?: {
    name?: string;
    namespace?: string;
    generation?: number;
    resourceVersion?: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export interface WaitTarget {
  /** List path, e.g. /apis/apps/v1/namespaces/x/deployments. */
  listPath: string;
  name: string;
  /** Shown in messages: "Deployment echo in namespace mesh-perf-baseline". */
  description: string;
  ready: (object: KubeObject) => boolean;
  /** Where to look for pods when reporting what is not ready. */
  namespace: string;
  podSelector?: string;
}

export function deploymentReady(d: KubeObject): boolean {
  const spec = d.spec as { replicas?: number } | undefined;
  const status = (d.status ?? {}) as {
    observedGeneration?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    readyReplicas?: number;
    replicas?: number;
  };
  const want = spec?.replicas ?? 1;
  return (
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
    (status.updatedReplicas ?? 0) >= want &&
    (status.availableReplicas ?? 0) >= want &&
    (status.replicas ?? 0) === (status.updatedReplicas ?? 0)
  );
}

export function daemonSetReady(d: KubeObject): boolean {
  const status = (d.status ?? {}) as {
    observedGeneration?: number;
    desiredNumberScheduled?: number;
    numberAvailable?: number;
    updatedNumberScheduled?: number;
  };
  const want = status.desiredNumberScheduled ?? 0;
  return (
    (status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 1) &&
    (status.updatedNumberScheduled ?? 0) >= want &&
    (status.numberAvailable ?? 0) >= want
  );
}

export function podReady(p: KubeObject): boolean {
  const status = (p.status ?? {}) as { phase?: string; conditions?: { type: string; status: string }[] };
  return (
    !p.metadata?.deletionTimestamp &&
    status.phase === 'Running' &&
    (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

export function rolloutTarget(kind: 'Deployment' | 'DaemonSet', namespace: string, name: string, podSelector?: string): WaitTarget {
  const plural = kind === 'Deployment' ? 'deployments' : 'daemonsets';
  return {
    listPath: `/apis/apps/v1/namespaces/${namespace}/${plural}`,
    name,
    description: `${kind} ${name} in namespace ${namespace}`,
    ready: kind === 'Deployment' ? deploymentReady : daemonSetReady,
    namespace,
    podSelector,
  };
}

export function podTarget(namespace: string, name: string): WaitTarget {
  return {
    listPath: `/api/v1/namespaces/${namespace}/pods`,
    name,
    description: `pod ${name} in namespace ${namespace}`,
    ready: podReady,
    namespace,
    podSelector: `metadata.name=${name}`,
  };
}

export async function waitReady(access: ClusterAccess, target: WaitTarget, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const fieldSelector = `metadata.name=${target.name}`;
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new EnvironmentError(`cancelled while waiting for ${target.description}`);
    const list = await rawRequest(access, `${target.listPath}?fieldSelector=${encodeURIComponent(fieldSelector)}`, { timeoutMs: 15_000 });
    if (list.status !== 200)
      throw new EnvironmentError(`could not read ${target.description}: HTTP ${list.status}: ${list.body.slice(0, 200)}`);
    const parsed = JSON.parse(list.body) as { metadata: { resourceVersion: string }; items: KubeObject[] };
    if (parsed.items[0] && target.ready(parsed.items[0])) return;
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const watchStarted = Date.now();
    const became = await watchUntil(access, target, parsed.metadata.resourceVersion, fieldSelector, Math.min(remaining, 60_000), signal);
    if (became) return;
    // A watch the server ends at once (410 Gone, proxies without streaming) must not spin.
    if (Date.now() - watchStarted < 1000) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new EnvironmentError(
    `${target.description} did not become ready within ${formatDuration(timeoutMs)}.\n${await describeNotReady(access, target.namespace, target.podSelector)}`,
  );
}

/** Resolves true when the watch sees the object ready, false when the watch ends or times out. */
function watchUntil(
  access: ClusterAccess,
  target: WaitTarget,
  resourceVersion: string,
  fieldSelector: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve) => {
    let controller: AbortController | undefined;
    let settled = false;
    const finish = (value: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      controller?.abort();
      resolve(value);
    };
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    new Watch(access.kc)
      .watch(
        target.listPath,
        { fieldSelector, resourceVersion, allowWatchBookmarks: true, timeoutSeconds: Math.ceil(timeoutMs / 1000) },
        (phase, object: KubeObject) => {
          if ((phase === 'ADDED' || phase === 'MODIFIED') && target.ready(object)) finish(true);
        },
        () => finish(false),
      )
      .then((c) => {
        controller = c;
        if (settled) c.abort();
      })
      .catch(() => finish(false));
  });
}

interface ContainerStatusView {
  name: string;
  ready: boolean;
  image?: string;
  state?: { waiting?: { reason?: string; message?: string }; terminated?: { reason?: string; exitCode?: number } };
}

export interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
  spec?: { nodeName?: string; containers?: { name: string; image?: string }[]; initContainers?: { name: string; image?: string }[] };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: ContainerStatusView[];
    initContainerStatuses?: ContainerStatusView[];
  };
}

/** "pod x: Pending (ImagePullBackOff: ...)" lines plus recent warning events of the namespace. */
export async function describeNotReady(access: ClusterAccess, namespace: string, podSelector?: string): Promise<string> {
  const lines: string[] = [];
  const query = podSelector
    ? podSelector.startsWith('metadata.')
      ? `fieldSelector=${encodeURIComponent(podSelector)}`
      : `labelSelector=${encodeURIComponent(podSelector)}`
    : '';
  try {
    const pods = await rawRequest(access, `/api/v1/namespaces/${namespace}/pods?${query}`, { timeoutMs: 10_000 });
    const items = pods.status === 200 ? (JSON.parse(pods.body) as { items: PodView[] }).items : [];
    if (items.length === 0) lines.push(`  no pods${podSelector ? ` matching ${podSelector}` : ''} in namespace ${namespace}`);
    // Pods that are not ready first: with 90 replicas the ten shown must be the ones that explain.
    const ordered = [...items].sort((a, b) => Number(podReady(a as KubeObject)) - Number(podReady(b as KubeObject)));
    for (const pod of ordered.slice(0, 10)) lines.push(`  pod ${pod.metadata.name}: ${podState(pod)}`);
    if (items.length > 10) lines.push(`  … and ${items.length - 10} more pods`);
    lines.push(...imagePullHints(items));
    const events = await rawRequest(access, `/api/v1/namespaces/${namespace}/events?fieldSelector=${encodeURIComponent('type=Warning')}`, {
      timeoutMs: 10_000,
    });
    const warnings =
      events.status === 200
        ? (
            JSON.parse(events.body) as {
              items: {
                reason?: string;
                message?: string;
                involvedObject?: { kind?: string; name?: string };
                lastTimestamp?: string;
                eventTime?: string;
              }[];
            }
          ).items
        : [];
    for (const e of warnings.slice(-8))
      lines.push(`  event ${e.involvedObject?.kind}/${e.involvedObject?.name}: ${e.reason}: ${e.message?.trim()}`);
  } catch (error) {
    lines.push(`  (could not list pods or events: ${(error as Error).message.split('\n')[0]})`);
  }
  return `Not ready:\n${lines.join('\n')}`;
}

const IMAGE_PULL_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);

/**
 * One line per image that could not be pulled, naming the image (from the pod's spec: the waiting
 * message words it differently per runtime) and what decides where it comes from: a mirror that
 * lacks an image, or a registry that wants credentials, looks the same from here.
 */
export function imagePullHints(pods: readonly PodView[]): string[] {
  const images = new Map<string, string>();
  for (const pod of pods)
    for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const reason = c.state?.waiting?.reason;
      if (!reason || !IMAGE_PULL_FAILURES.has(reason)) continue;
      const image = c.image ?? [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].find((s) => s.name === c.name)?.image;
      if (image && !images.has(image)) images.set(image, reason);
    }
  return [...images].map(
    ([image, reason]) =>
      `  image ${image} could not be pulled (${reason}): it is not in that registry, or the registry needs credentials the cluster lacks; kubernetes.images.registry (a mirror for every image mesh-perf deploys) and kubernetes.istio.hub decide where images come from`,
  );
}

export function podState(pod: PodView): string {
  const status = pod.status ?? {};
  const parts: string[] = [status.phase ?? 'Unknown'];
  if (!pod.spec?.nodeName) {
    const scheduled = status.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    parts.push(scheduled ? `not scheduled: ${scheduled.message ?? scheduled.reason}` : 'not scheduled yet');
  }
  for (const c of [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])]) {
    if (c.state?.waiting?.reason)
      parts.push(`${c.name} waiting: ${c.state.waiting.reason}${c.state.waiting.message ? `: ${c.state.waiting.message}` : ''}`);
    else if (c.state?.terminated && c.state.terminated.exitCode !== 0)
      parts.push(`${c.name} terminated: ${c.state.terminated.reason} (exit ${c.state.terminated.exitCode})`);
    else if (!c.ready) parts.push(`${c.name} not ready`);
  }
  if (pod.metadata.deletionTimestamp) parts.push('terminating');
  return parts.join('; ');
}
