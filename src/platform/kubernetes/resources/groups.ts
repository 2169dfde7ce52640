// Which part of the system a container belongs to, for the resource table: the app (echo
// server), its sidecar proxy, the k6 client, ztunnel, a waypoint, the CNI agent, or a mesh
// control plane. Pure: decided from namespace, pod name, pod labels and container name.
export type ResourceGroup = 'app' | 'sidecar' | 'client' | 'ztunnel' | 'waypoint' | 'cni' | 'control-plane' | 'gateway';

export interface ContainerIdentity {
  namespace: string;
  pod: string;
  container: string;
  podLabels?: Record<string, string>;
}

export interface GroupContext {
  /** Namespaces of the modes (workloads live here). */
  modeNamespaces: ReadonlySet<string>;
  /** Namespaces of mesh installations (istio-system, linkerd). */
  meshNamespaces: ReadonlySet<string>;
  /** Namespaces of the ingress gateway (kubernetes.ingress): the gateway's pods and the client. */
  gatewayNamespaces?: ReadonlySet<string>;
  /**
   * The Gateway the mode's traffic enters through (kubernetes.ingress): with modes under their own
   * Istio revisions each has its own, and another arm's gateway pods are no part of this mode's.
   */
  gateway?: string;
  /**
   * Client pods the trial's k6 instances use (load.generators of its profile): a mode has as many
   * client pods as its largest profile needs, and the idle ones are no part of the client group.
   */
  clientsInUse?: number;
}

export const CLIENT_NAME = 'mesh-perf-client';
/** On every client pod: its position in the mode's group of k6 instances (clients.ts), whatever the manifest's labels. */
export const CLIENT_INDEX = 'mesh-perf.dev/client-index';
const PROXY_CONTAINERS = new Set(['istio-proxy', 'linkerd-proxy']);
/** On every pod istiod deploys for a Gateway API Gateway (ingress gateways and waypoints): the Gateway's name. */
export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';

export function groupOf(id: ContainerIdentity, context: GroupContext): ResourceGroup | undefined {
  const labels = id.podLabels ?? {};
  if (context.modeNamespaces.has(id.namespace)) {
    const waypoint =
      labels['gateway.istio.io/managed'] !== undefined || labels[GATEWAY_NAME_LABEL] !== undefined || /^waypoint(-|$)/.test(id.pod);
    if (waypoint) return 'waypoint';
    if (PROXY_CONTAINERS.has(id.container)) return 'sidecar';
    if (isClient(id, labels)) return clientInUse(labels, context.clientsInUse) ? 'client' : undefined;
    return 'app';
  }
  if (context.gatewayNamespaces?.has(id.namespace)) {
    if (isClient(id, labels)) return clientInUse(labels, context.clientsInUse) ? 'client' : undefined;
    const gateway = labels[GATEWAY_NAME_LABEL];
    if (context.gateway !== undefined && gateway !== undefined && gateway !== context.gateway) return undefined;
    return 'gateway';
  }
  if (context.meshNamespaces.has(id.namespace)) {
    const app = labels.app ?? labels['k8s-app'] ?? '';
    if (app === 'ztunnel' || /^ztunnel-/.test(id.pod)) return 'ztunnel';
    if (app === 'istio-cni-node' || /^istio-cni-node-/.test(id.pod)) return 'cni';
    if (/^linkerd-cni-/.test(id.pod)) return 'cni';
    return 'control-plane';
  }
  return undefined;
}

function isClient(id: ContainerIdentity, labels: Record<string, string>): boolean {
  return labels['app.kubernetes.io/name'] === CLIENT_NAME || labels[CLIENT_INDEX] !== undefined || id.pod === CLIENT_NAME;
}

/** A client pod counts when its instance index is below the trial's instance count (a pod without the label always does). */
function clientInUse(labels: Record<string, string>, inUse: number | undefined): boolean {
  const index = labels[CLIENT_INDEX];
  return inUse === undefined || index === undefined || Number(index) < inUse;
}
