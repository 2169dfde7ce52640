// Istio revisions per mode: an istio-sidecar mode (or arm) with `istio` runs under its own control
// plane, installed beside the run's with `istioctl install --revision`, its namespace labelled
// istio.io/rev; an istio-waypoint mode's waypoint is bound to its revision (the ztunnel under it
// stays the run's: one per node). This is how two arms differ in Istio version, hub or values in one cluster, the way
// Istio's own canary upgrades run two versions side by side. Here: each mode's effective revision
// and the config problems that make one meaningless. Pure.
import type { ConfigProblem } from './problem.ts';
import type { ModeConfig, ParsedConfig } from './schema.ts';
import { armName, ARM_SIDES, expandArms, meshOf } from './arms.ts';

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

/** Modes' and arms' `istio` that cannot run: off a cluster, outside istio-sidecar and istio-waypoint, a revision name taken twice. */
export function istioRevisionProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const kubernetes = config.platform === 'kind' || config.platform === 'kubeconfig';
  config.modes.forEach((mode, i) => {
    const paths = [
      ...(mode.istio ? [`modes[${i}].istio`] : []),
      ...ARM_SIDES.filter((side) => mode.arms?.[side]?.istio).map((side) => `modes[${i}].arms.${side}.istio`),
    ];
    if (paths.length === 0) return;
    if (!kubernetes) {
      for (const path of paths)
        problems.push({
          path,
          message: `does not apply to platform "${config.platform}": an Istio revision is a control plane installed in the cluster (kind, kubeconfig)`,
        });
      return;
    }
    const mesh = meshOf(mode);
    // Ambient modes with arms are refused at modes[i].arms already (one ztunnel per node).
    if (mesh === 'istio-ambient' && mode.arms) return;
    if (mesh !== 'istio-sidecar' && mesh !== 'istio-waypoint')
      problems.push({
        path: paths[0]!,
        message:
          mesh === 'istio-ambient'
            ? `only an istio-sidecar or istio-waypoint mode runs under its own Istio revision: "${mode.name}" is ambient, whose data plane is one ztunnel per node shared by every revision; compare Istio versions of an ambient mode with history`
            : `only an istio-sidecar or istio-waypoint mode runs under its own Istio revision; "${mode.name}" is ${mesh ? `mesh ${mesh}` : 'not in a mesh (set mesh: istio-sidecar)'}`,
      });
  });
  // Two modes cannot share a revision: each is its own control plane, installed and removed with it.
  const seen = new Map<string, string>();
  const defaults = config.kubernetes.istio;
  for (const mode of expandArms(config.modes)) {
    const revision = istioRevisionOf(mode, defaults);
    if (!revision) continue;
    const index = config.modes.findIndex((m) => m.name === (mode.arm?.of ?? mode.name));
    const path = `modes[${index}]${mode.arm ? `.arms.${mode.arm.side}` : ''}.istio.revision`;
    const other = seen.get(revision.revision);
    if (revision.revision === 'default')
      problems.push({ path, message: `"default" is the revision of the run's own Istio install; choose another name` });
    else if (other)
      problems.push({
        path,
        message: `revision "${revision.revision}" is also ${other}'s: each mode's revision is its own control plane; give ${mode.name} another name`,
      });
    else seen.set(revision.revision, mode.arm ? armName(mode.arm.of, mode.arm.side) : mode.name);
  }
  return problems;
}

/** The revisions a run installs, one per mode with `istio`, in mode order. */
export function istioRevisions(modes: readonly ModeConfig[], defaults: IstioDefaults): IstioRevision[] {
  return modes.flatMap((mode) => {
    const revision = istioRevisionOf(mode, defaults);
    return revision ? [revision] : [];
  });
}
