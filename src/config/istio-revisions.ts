// Istio revisions per mode: an istio-sidecar mode (or arm) with `istio` runs under its own control
// plane, installed beside the run's with `istioctl install --revision`, its namespace labelled
// istio.io/rev; an istio-waypoint mode's waypoint is bound to its revision (the ztunnel under it
// stays the run's: one per node). This is how two arms differ in Istio version, hub or values in one cluster, the way
// Istio's own canary upgrades run two versions side by side. Here: each mode's effective revision
// (the refusals are in istio-revision-problems.ts). Pure.
import type { ModeConfig } from './schema.ts';

/** Istio's own image registry: what istioctl pulls from without a hub. */
export const ISTIO_HUB = 'docker.io/istio';

/** Default revision names start with this, so they never take a name a user's Istio would use. */
export const REVISION_PREFIX = 'mp-';

/** One mode's control plane as it will be installed. */
export interface IstioRevision {
  /** The mode (or arm) whose namespace it injects. */
  mode: string;
  revision: string;
  version: string;
  /** Unset: kubernetes.istio.hub, else the registry mirror, else istioctl's own. */
  hub?: string;
  set: Record<string, string>;
}

/** kubernetes.istio: what a revision's unset fields are. */
export interface IstioDefaults {
  version: string;
  hub?: string;
  set: Record<string, string>;
}

/** The revision a mode with `istio` runs under: its own name, else mp-<mode>. */
export function revisionName(mode: Pick<ModeConfig, 'name' | 'istio'>): string | undefined {
  return mode.istio ? (mode.istio.revision ?? `${REVISION_PREFIX}${mode.name}`) : undefined;
}

export function istioRevisionOf(mode: Pick<ModeConfig, 'name' | 'istio'>, defaults: IstioDefaults): IstioRevision | undefined {
  if (!mode.istio) return undefined;
  const hub = mode.istio.hub ?? defaults.hub;
  return {
    mode: mode.name,
    revision: revisionName(mode)!,
    version: mode.istio.version ?? defaults.version,
    ...(hub !== undefined ? { hub } : {}),
    set: mode.istio.set ?? defaults.set,
  };
}

/** The revisions a run installs, one per mode with `istio`, in mode order. */
export function istioRevisions(modes: readonly ModeConfig[], defaults: IstioDefaults): IstioRevision[] {
  return modes.flatMap((mode) => {
    const revision = istioRevisionOf(mode, defaults);
    return revision ? [revision] : [];
  });
}
