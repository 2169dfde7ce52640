// What happened to the pods a repetition's traffic crosses while it ran, from two looks at them
// (before and after the load): a pod that is gone, terminating or replaced, and a container that
// restarted (its restart count rose; the kubelet's last termination says how it ended). Each is a
// disruption that makes the repetition invalid (its figures span the fault); a mesh proxy that
// ended by itself (OOMKilled, or an exit that is not a kill by signal) is a crash under the load,
// which the verdict reports as a failure rather than noise. Pure; disruptions.ts reads the pods.
import { formatCauses } from '../../results/errors.ts';
import type { Disruption, ProxyTraffic } from '../../results/types.ts';

/** One container of a pod as the kubelet last reported it. */
export interface ContainerLook {
  name: string;
  restarts: number;
  /** Running now (state.running). */
  running: boolean;
  /** How its last run ended: state.terminated when it has not been restarted yet, else lastState.terminated. */
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
        ...(later?.uid === pod.uid && later.terminating ? { terminating: true } : {}),
      });
      continue;
    }
    for (const container of later.containers) {
      const was = pod.containers.find((c) => c.name === container.name);
      // Restarted, or ended and not restarted yet (the kubelet's back-off after a second failure
      // leaves the count where it was for 10 s and more).
      if (!was || (container.restarts <= was.restarts && !(was.running && !container.running))) continue;
      // ztunnel's own container is called istio-proxy too: its pod says which it is.
      const proxy = pod.role === 'ztunnel' ? 'ztunnel' : PROXY_CONTAINERS[container.name];
      out.push({
        pod: key(pod),
        container: container.name,
        component: proxy ?? pod.role,
        event: 'restarted',
        ...(container.restarts - was.restarts + (container.running ? 0 : 1) > 1
          ? { restarts: container.restarts - was.restarts + (container.running ? 0 : 1) }
          : {}),
        ...(container.lastEnd?.reason ? { reason: container.lastEnd.reason } : {}),
        ...(container.lastEnd?.exitCode !== undefined ? { exitCode: container.lastEnd.exitCode } : {}),
        ...(proxy && crashed(container.lastEnd) ? { crash: true } : {}),
      });
    }
  }
  return out;
}

/** What the repetition's own figures say happened to its traffic across a disruption. */
export interface AcrossDisruption {
  requests: number;
  failures: number;
  errorCauses?: Record<string, number>;
  /** What the proxies read after the repetition counted of it (its path evidence), by proxy kind. */
  proxies?: readonly ProxyTraffic[];
}

/** A disruption as one reason of an invalid repetition, with what the traffic did across it. */
export function disruptionText(d: Disruption, across?: AcrossDisruption): string {
  const how = [d.reason, d.exitCode !== undefined ? `exit ${d.exitCode}` : undefined].filter(Boolean).join(', ');
  const failed = across
    ? across.failures > 0
      ? `; ${count(across.failures)} of its ${count(across.requests)} requests failed (${formatCauses(across.errorCauses)})`
      : `; none of its ${count(across.requests)} requests failed`
    : '';
  if (d.event === 'deleted')
    return `${d.component} pod ${d.pod} was ${d.reason === 'Evicted' ? 'evicted' : 'deleted'} during the repetition${d.replacement ? ` (replaced by ${d.replacement})` : ' (no replacement yet)'}${failed}${d.component === 'ztunnel' ? ztunnelHandover(d, across) : ''}`;
  const times = d.restarts ? ` ${d.restarts} times` : '';
  const what = d.container && d.component !== d.container ? `${d.component} (container ${d.container})` : d.component;
  if (d.crash)
    return `${what} in pod ${d.pod} crashed under the load${times}${how ? ` (${how})` : ''}${failed}: a finding about the mesh, not noise`;
  return `${what} in pod ${d.pod} restarted during the repetition${times}${how ? ` (${how})` : ''}${failed}`;
}

/**
 * Where the traffic went across a ztunnel replaced mid-repetition. Measured on the real node: a
 * deleted ztunnel stops answering its own /metrics at once but drains the connections it holds for
 * 25 s ("drain duration expired with pending connections, forcefully shutting down"), while its
 * replacement takes the new ones; k6 keeps its connections alive, so the load stays on the old
 * ztunnel until the drain ends and then reconnects through the new one, without a failed request.
 * The old one's counts are lost with it; the new one's say how much moved.
 */
function ztunnelHandover(d: Disruption, across: AcrossDisruption | undefined): string {
  const z = across?.proxies?.find((p) => p.proxy === 'ztunnel');
  if (!z) return '';
  const moved =
    z.count > 0 || (z.bytesReceived ?? 0) > 0
      ? `the new ztunnel counted ${count(z.count)} ${z.unit}${z.bytesReceived ? ` (${count(z.bytesReceived)} bytes)` : ''} of it once the old one's drain ended`
      : 'the new ztunnel counted none of it';
  const old = d.terminating
    ? 'the traffic stayed on the old ztunnel, still draining its connections when the repetition ended (its counters cannot be read once it is deleted)'
    : "the traffic stayed on the old ztunnel while it drained its connections, and the old one's counts went with it";
  return `: ${old}; ${moved}`;
}

const count = (n: number) => n.toLocaleString('en-US');
