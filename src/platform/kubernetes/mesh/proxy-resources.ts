// Which requests/limits each mode's proxies actually ran with, recorded with the results so a
// comparison never silently pits a constrained proxy against a default-sized one. Pure.
import type { MeshKind } from '../../../config/schema.ts';
import type { ContainerResources } from './commands.ts';
import type { MeshInstallation } from './types.ts';

/** resources.proxy, or why a proxy did not get it. */
export type AppliedResources = ContainerResources | { source: string };

/** ztunnel is per node and shared by every ambient namespace: requests only, not resources.proxy. */
const ZTUNNEL = { source: 'per-node ztunnel: requests 50m/64Mi set by mesh-perf, no limits; not resources.proxy' };
const EXISTING = { source: "the existing mesh's own settings (not installed by mesh-perf)" };

export function proxyResourcesByMode(
  modes: { name: string; kind: MeshKind }[],
  meshes: MeshInstallation[],
  proxy: ContainerResources,
): Record<string, Record<string, AppliedResources>> {
  const ours = (mesh: MeshInstallation['mesh']) => meshes.find((m) => m.mesh === mesh)?.installedByUs === true;
  const istio = (): AppliedResources => (ours('istio') ? proxy : EXISTING);
  const byKind = (kind: MeshKind): Record<string, AppliedResources> => {
    switch (kind) {
      case 'baseline':
        return {};
      case 'istio-sidecar':
        return { sidecar: istio() };
      case 'istio-ambient':
        return { ztunnel: ours('istio') ? ZTUNNEL : EXISTING };
      case 'istio-waypoint':
        return { ztunnel: ours('istio') ? ZTUNNEL : EXISTING, waypoint: istio() };
      case 'linkerd':
        return { sidecar: ours('linkerd') ? proxy : EXISTING };
      case 'existing':
        return { proxies: { source: 'a mesh mesh-perf did not install: not known' } };
    }
  };
  return Object.fromEntries(modes.map((mode) => [mode.name, byKind(mode.kind)]));
}
