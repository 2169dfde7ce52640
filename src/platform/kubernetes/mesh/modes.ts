// Which mesh a mode uses and how its namespace is enrolled. Pure.
import { MESH_KINDS, type MeshKind, type ModeConfig } from '../../../config/schema.ts';
import { UsageError } from '../../../util/errors.ts';
import type { MeshNamespaceSetup } from './types.ts';

export function meshKindOf(mode: ModeConfig, index = 0): MeshKind {
  if (mode.mesh) return mode.mesh;
  if ((MESH_KINDS as readonly string[]).includes(mode.name)) return mode.name as MeshKind;
  throw new UsageError(
    `modes[${index}].mesh: mode "${mode.name}" needs a mesh on the kind/kubeconfig platforms; set mesh to one of ${MESH_KINDS.join(', ')}`,
  );
}

export function usesIstio(kind: MeshKind): boolean {
  return kind === 'istio-sidecar' || kind === 'istio-ambient' || kind === 'istio-waypoint';
}

/** Waypoints and Linkerd need the Gateway API CRDs. */
export function needsGatewayApi(kind: MeshKind): boolean {
  return kind === 'istio-waypoint' || kind === 'linkerd';
}

export function namespaceSetup(mode: ModeConfig, kind: MeshKind): MeshNamespaceSetup {
  switch (kind) {
    case 'baseline':
      return { labels: {}, annotations: {} };
    case 'istio-sidecar':
      return { labels: { 'istio-injection': 'enabled' }, annotations: {} };
    case 'istio-ambient':
    case 'istio-waypoint':
      // The waypoint itself is enrolled (istio.io/use-waypoint) once it exists.
      return { labels: { 'istio.io/dataplane-mode': 'ambient' }, annotations: {} };
    case 'linkerd':
      return { labels: {}, annotations: { 'linkerd.io/inject': 'enabled', 'config.linkerd.io/proxy-enable-native-sidecar': 'true' } };
    case 'existing':
      return { labels: { ...mode.namespaceLabels }, annotations: { ...mode.namespaceAnnotations } };
  }
}
