// What happened to the pods a repetition's traffic crosses while it ran, from two looks at them
// (before and after the load): a pod that is gone, terminating or replaced, and a container that
// restarted (its restart count rose; the kubelet's last termination says how it ended). Each is a
// disruption that makes the repetition invalid (its figures span the fault); a mesh proxy that
// ended by itself (OOMKilled, or an exit that is not a kill by signal) is a crash under the load,
// which the verdict reports as a failure rather than noise. Pure; disruptions.ts reads the pods.
import type { Disruption } from '../../results/types.ts';

/** One container of a pod as the kubelet last reported it. */
export interface ContainerLook {
  name: string;
  restarts: number;
  /** How its previous run ended (status.containerStatuses[].lastState.terminated). */
  lastEnd?: { reason?: string; exitCode?: number };
}

/** One pod at one look. */
export interface PodLook {
  namespace: string;
  name: string;
  uid: string;
  /** What the pod is in the mode's path: "echo server", "k6 client", "ztunnel". */
  role: string;
  terminating: boolean;
  /** Running with its Ready condition true. */
  ready: boolean;
  /** status.reason of a pod the kubelet ended (e.g. "Evicted"). */
  reason?: string;
  containers: ContainerLook[];
}

/** Containers that are a mesh's proxy, whatever pod they are in. */
const PROXY_CONTAINERS: Record<string, string> = { 'linkerd-proxy': 'linkerd-proxy', 'istio-proxy': 'sidecar' };

/** Exits that mean someone ended the process (SIGKILL, SIGTERM, a clean stop), not that it crashed. */
const KILLED_EXITS = new Set([0, 128 + 9, 128 + 15]);

/** A proxy's own end under the load: the kernel's OOM killer, or a crash (a panic's 101, SIGSEGV's 139, SIGABRT's 134, …). */
export function crashed(end: ContainerLook['lastEnd']): boolean {
  if (!end) return false;
  if (end.reason === 'OOMKilled') return true;
  return end.exitCode !== undefined && !KILLED_EXITS.has(end.exitCode);
}

const key = (p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`;

/**
 * The disruptions between two looks at the same pods. Pods first seen after (a replacement, or a
 * k6-operator runner) are not disruptions themselves; one of the same role names the replacement.
 */
export function disruptionsBetween(before: readonly PodLook[], after: readonly PodLook[]): Disruption[] {
  const now = new Map(after.map((p) => [key(p), p]));
  const earlier = new Set(before.map((p) => p.uid));
  const newcomers = after.filter((p) => !earlier.has(p.uid) && !p.terminating);
  const out: Disruption[] = [];
  for (const pod of before) {
    if (pod.terminating) continue; // already going when the repetition started: its replacement was awaited before it
    const later = now.get(key(pod));
    if (!later || later.uid !== pod.uid || later.terminating || later.reason) {
      const replacement = newcomers.find((p) => p.role === pod.role && p.namespace === pod.namespace);
      out.push({
        pod: key(pod),
        component: pod.role,
        event: 'deleted',
        ...(later?.reason ? { reason: later.reason } : {}),
        ...(replacement ? { replacement: replacement.name } : {}),
      });
      continue;
    }
    for (const container of later.containers) {
      const was = pod.containers.find((c) => c.name === container.name);
      if (!was || container.restarts <= was.restarts) continue;
      // ztunnel's own container is called istio-proxy too: its pod says which it is.
      const proxy = pod.role === 'ztunnel' ? 'ztunnel' : PROXY_CONTAINERS[container.name];
      out.push({
        pod: key(pod),
        container: container.name,
        component: proxy ?? pod.role,
        event: 'restarted',
        ...(container.restarts - was.restarts > 1 ? { restarts: container.restarts - was.restarts } : {}),
        ...(container.lastEnd?.reason ? { reason: container.lastEnd.reason } : {}),
        ...(container.lastEnd?.exitCode !== undefined ? { exitCode: container.lastEnd.exitCode } : {}),
        ...(proxy && crashed(container.lastEnd) ? { crash: true } : {}),
      });
    }
  }
  return out;
}

/** A disruption as one reason of an invalid repetition. */
export function disruptionText(d: Disruption): string {
  const how = [d.reason, d.exitCode !== undefined ? `exit ${d.exitCode}` : undefined].filter(Boolean).join(', ');
  if (d.event === 'deleted')
    return `${d.component} pod ${d.pod} was ${d.reason === 'Evicted' ? 'evicted' : 'deleted'} during the repetition${d.replacement ? ` (replaced by ${d.replacement})` : ' (no replacement yet)'}`;
  const times = d.restarts ? ` ${d.restarts} times` : '';
  const what = d.container && d.component !== d.container ? `${d.component} (container ${d.container})` : d.component;
  if (d.crash)
    return `${what} in pod ${d.pod} crashed under the load${times}${how ? ` (${how})` : ''}: a finding about the mesh, not noise`;
  return `${what} in pod ${d.pod} restarted during the repetition${times}${how ? ` (${how})` : ''}`;
}
