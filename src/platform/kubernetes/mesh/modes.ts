// Which mesh a mode uses and how its namespace is enrolled. Pure.
import { MESH_KINDS, type MeshKind, meshOf, type ModeConfig } from '../../../config/schema.ts';
import { revisionName } from '../../../config/istio-revisions.ts';
import { UsageError } from '../../../util/errors.ts';
import type { MeshNamespaceSetup } from './types.ts';

/** The mode's mesh (config/schema.ts meshOf); validation refuses a cluster mode without one, this is the guard. */
export function meshKindOf(mode: ModeConfig, index = 0): MeshKind {
  const kind = meshOf(mode);
  if (kind) return kind;
  throw new UsageError(
    `modes[${index}].mesh: mode "${mode.name}" needs a mesh on the kind/kubeconfig platforms; set mesh to one of ${MESH_KINDS.join(', ')}`,
  );
}

/** On an istio-waypoint mode's namespace: Istio's ingress gateways then send its traffic through its waypoint. */
export const INGRESS_USE_WAYPOINT = 'istio.io/ingress-use-waypoint';

/** Which proxies a mode's traffic crosses after the ingress gateway, in words for plan and results. */
export function ingressPath(kind: MeshKind): 'gateway' | 'gateway+waypoint' {
  return kind === 'istio-waypoint' ? 'gateway+waypoint' : 'gateway';
}

export function usesIstio(kind: MeshKind): boolean {
  return kind === 'istio-sidecar' || kind === 'istio-ambient' || kind === 'istio-waypoint';
}

/** Waypoints and Linkerd need the Gateway API CRDs. */
export function needsGatewayApi(kind: MeshKind): boolean {
  return kind === 'istio-waypoint' || kind === 'linkerd';
}

/**
 * A mode's namespace labels and annotations: the mode's own (namespaceLabels, namespaceAnnotations:
 * e.g. Linkerd's per-workload proxy settings, config.linkerd.io/proxy-cpu-limit, which is how two
 * arms of a Linkerd mode differ), then the mesh's enrolment, which wins: a mode stays in its mesh.
 */
export function namespaceSetup(mode: ModeConfig, kind: MeshKind): MeshNamespaceSetup {
  const enrolment = meshEnrolment(mode, kind);
  return {
    labels: { ...mode.namespaceLabels, ...enrolment.labels },
    annotations: { ...mode.namespaceAnnotations, ...enrolment.annotations },
  };
}

/** The keys that put a namespace in its mesh: a mode's own keys cannot change them (config/arms.ts refuses arms that try). */
function meshEnrolment(
  mode: Pick<ModeConfig, 'name' | 'namespaceLabels' | 'namespaceAnnotations' | 'istio'>,
  kind: MeshKind,
): MeshNamespaceSetup {
  switch (kind) {
    case 'baseline':
      return { labels: {}, annotations: {} };
    case 'istio-sidecar': {
      // A mode with its own revision is injected by that control plane (istio-injection would win over it).
      const revision = revisionName(mode);
      return { labels: revision ? { 'istio.io/rev': revision } : { 'istio-injection': 'enabled' }, annotations: {} };
    }
    case 'istio-ambient':
      return { labels: { 'istio.io/dataplane-mode': 'ambient' }, annotations: {} };
    case 'istio-waypoint':
      // The waypoint itself is enrolled (istio.io/use-waypoint) once it exists. Istio's gateways
      // skip a service's waypoint unless told otherwise (Istio 1.30 pilot/pkg/features/ambient.go:
      // "Gateways will call service waypoints if the 'istio.io/ingress-use-waypoint' label set";
      // the Service's label, else the namespace's: serviceregistry/ambient/services.go), so
      // traffic through kubernetes.ingress would measure ambient alone, not the waypoint.
      return { labels: { 'istio.io/dataplane-mode': 'ambient', [INGRESS_USE_WAYPOINT]: 'true' }, annotations: {} };
    case 'linkerd':
      return { labels: {}, annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/proxy-enable-native-sidecar': 'true' } };
    case 'existing':
      // The user's namespace setup is the enrolment (an operator-managed mesh).
      return { labels: { ...mode.namespaceLabels }, annotations: { ...mode.namespaceAnnotations } };
  }
}
