// The config problems that make a mode's (or an arm's) own Istio revision meaningless: off a
// cluster, on a mode whose data plane is not per namespace, a revision name taken twice or
// `default`. Pure.
import { armName, ARM_SIDES, expandArms } from './arms.ts';
import { istioRevisionOf } from './istio-revisions.ts';
import type { ConfigProblem } from './problem.ts';
import { meshOf, type ParsedConfig } from './schema.ts';

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
