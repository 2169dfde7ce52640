// A/B arms: a mode with `arms` runs as two modes, `<name>-base` and `<name>-head`, each the mode
// with its side's overrides applied, in the same randomized blocks of the same run. Here: the
// expansion, and the problems that make a pair of arms meaningless or unrunnable. Pure.
import { type ArmOverrides, type ArmSide, meshOf, type ModeConfig, type ModeSpec, type ParsedConfig } from './schema.ts';
import type { ConfigProblem } from './problem.ts';
import { echoImageProblems, serverManifestsProblems } from './applicability.ts';
import { istioRevisionOf } from './istio-revisions.ts';
import { canonicalJson } from './fingerprint.ts';

export const ARM_SIDES: readonly ArmSide[] = ['base', 'head'];
/** Mode names are at most 40 characters (they become namespace names on Kubernetes). */
const MAX_NAME = 40;

export function armName(mode: string, side: ArmSide): string {
  return `${mode}-${side}`;
}

/** The modes the plan runs: every mode with arms replaced by its two arms, in place. */
export function expandArms(modes: readonly ModeSpec[]): ModeConfig[] {
  return modes.flatMap((mode): ModeConfig[] => {
    const { arms, ...rest } = mode;
    if (!arms) return [rest];
    // When either side (or the mode) names an Istio revision, both arms run under their own, so
    // neither is measured against a control plane the other does not have.
    const revisions = rest.istio !== undefined || ARM_SIDES.some((side) => arms[side]?.istio !== undefined);
    return ARM_SIDES.map((side) => applyArm(rest, arms[side] ?? {}, side, revisions));
  });
}

function applyArm(mode: Omit<ModeSpec, 'arms'>, overrides: ArmOverrides, side: ArmSide, revisions: boolean): ModeConfig {
  const arm: ModeConfig = { ...mode, name: armName(mode.name, side), arm: { of: mode.name, side } };
  if (overrides.url !== undefined) arm.url = overrides.url;
  if (overrides.grpc !== undefined) arm.grpc = overrides.grpc;
  if (overrides.env) arm.env = { ...mode.env, ...overrides.env };
  if (overrides.local) arm.local = { ...(mode.local ?? { hops: 0 }), ...defined(overrides.local) };
  if (overrides.namespaceLabels) arm.namespaceLabels = { ...mode.namespaceLabels, ...overrides.namespaceLabels };
  if (overrides.namespaceAnnotations) arm.namespaceAnnotations = { ...mode.namespaceAnnotations, ...overrides.namespaceAnnotations };
  if (overrides.echoImage !== undefined) arm.echoImage = overrides.echoImage;
  if (overrides.serverManifests !== undefined) arm.serverManifests = overrides.serverManifests;
  if (revisions) {
    // The mode's revision name would be both arms': each arm's is its own (default mp-<arm>).
    const { revision: _shared, ...shared } = mode.istio ?? {};
    arm.istio = { ...shared, ...defined(overrides.istio ?? {}) };
  }
  return arm;
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The name `baseline` resolves to: a mode with arms is represented by its base arm. */
export function resolveBaseline(config: ParsedConfig): string {
  const named = config.baseline ?? config.modes[0]!.name;
  const mode = config.modes.find((m) => m.name === named);
  return mode?.arms ? armName(named, 'base') : named;
}

export function armProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const expanded = expandArms(config.modes);
  const written = new Set(config.modes.map((m) => m.name));
  const kubernetes = config.platform === 'kind' || config.platform === 'kubeconfig';
  config.modes.forEach((mode, i) => {
    if (!mode.arms) return;
    const at = `modes[${i}]`;
    if (kubernetes) {
      const refusal = clusterArmsRefusal(mode);
      if (refusal) {
        problems.push({ path: `${at}.arms`, message: refusal });
        return;
      }
    }
    for (const side of ARM_SIDES) {
      const name = armName(mode.name, side);
      if (name.length > MAX_NAME)
        problems.push({
          path: `${at}.name`,
          message: `"${mode.name}" has arms, which run as "${name}" (${name.length} characters, over the ${MAX_NAME} a mode name may have); shorten the name to at most ${MAX_NAME - 5} characters`,
        });
      else if (written.has(name))
        problems.push({
          path: `${at}.arms`,
          message: `its ${side} arm runs as "${name}", the name of another mode; rename one of them`,
        });
      problems.push(...overrideProblems(config, mode, mode.arms[side], `${at}.arms.${side}`));
    }
    if (mode.local?.port !== undefined)
      problems.push({
        path: `${at}.local.port`,
        message: `a mode with arms runs two servers at once, which cannot share port ${mode.local.port}; remove the fixed port`,
      });
    const [base, head] = expanded.filter((m) => m.arm?.of === mode.name);
    if (base && head && sameSettings(base, head, config.kubernetes?.images?.echo, config.kubernetes?.istio))
      problems.push({
        path: `${at}.arms`,
        message: `base and head have the same settings, so they would measure the same thing; give head the change under test (${kubernetes ? 'echoImage, serverManifests, istio (an istio-sidecar or istio-waypoint mode), namespaceAnnotations such as config.linkerd.io/proxy-cpu-limit, namespaceLabels or env' : 'url, grpc, env or local'})`,
      });
  });
  return problems;
}

/**
 * Why two arms of this mode cannot run side by side in one cluster, or undefined when they can.
 * Two arms are two namespaces of the same cluster: they can differ in what a namespace carries
 * (Linkerd's per-workload proxy annotations, labels, the k6 env, a waypoint's or sidecar's Istio
 * revision), not in what the cluster has one of: an ambient mode's whole data plane is the
 * ztunnel, one per node. A waypoint mode's L7 proxy is per namespace, so its arms can differ there
 * (the ztunnel under both is the run's).
 */
export function clusterArmsRefusal(mode: Pick<ModeSpec, 'mesh' | 'name'>): string | undefined {
  const mesh = meshOf(mode);
  if (mesh === 'istio-ambient')
    return `two arms of an ambient mode cannot differ in one cluster: its data plane is one ztunnel per node, shared by every namespace; compare "${mode.name}" with history (remove arms), or A/B an istio-sidecar, istio-waypoint or linkerd mode`;
  return undefined;
}

/** Namespace keys that put a namespace in its mesh or pick its control plane: an arm cannot change them. */
export const ENROLMENT_KEYS: Record<string, string> = {
  'istio-injection': 'the mesh sets it (istio-sidecar enrols the namespace)',
  'istio.io/dataplane-mode': 'the mesh sets it (ambient enrols the namespace)',
  'linkerd.io/inject': 'the mesh sets it (linkerd enrols the namespace)',
  'istio.io/ingress-use-waypoint': "the mesh sets it (an istio-waypoint mode's gateway traffic goes through its waypoint)",
  'istio.io/rev':
    "the tool labels an arm's namespace with its own revision: give the arm istio: { version, hub, set } (and revision for its name), and it installs that control plane beside the run's",
};

/** Overrides that mean nothing on the run's platform, as the same fields on a mode would. */
function overrideProblems(config: ParsedConfig, mode: ModeSpec, overrides: ArmOverrides | undefined, at: string): ConfigProblem[] {
  if (!overrides) return [];
  const problems: ConfigProblem[] = [];
  const notOn = (field: string, why: string) =>
    problems.push({ path: `${at}.${field}`, message: `does not apply to platform "${config.platform}": ${why}` });
  if (config.platform === 'local') {
    if (overrides.url) notOn('url', 'the local platform starts its own echo server per arm; use local: { hops, delay } to change it');
    if (overrides.grpc) notOn('grpc', 'the local platform starts its own servers; use platform endpoints to measure a gRPC address');
  }
  if (config.platform === 'endpoints' && overrides.local)
    notOn('local', 'it describes servers the local platform starts; on endpoints give the arm its own url (or grpc)');
  const kubernetes = config.platform === 'kind' || config.platform === 'kubeconfig';
  if (kubernetes) {
    const inCluster =
      'the tool deploys the workload in the cluster; two arms differ in their echo server image (echoImage) or server manifests (serverManifests), their Istio revision (istio), their namespace (namespaceLabels, namespaceAnnotations) or env';
    if (overrides.url) notOn('url', inCluster);
    if (overrides.grpc) notOn('grpc', inCluster);
    if (overrides.local) notOn('local', inCluster);
    for (const field of ['namespaceLabels', 'namespaceAnnotations'] as const)
      for (const key of Object.keys(overrides[field] ?? {}))
        if (key in ENROLMENT_KEYS)
          problems.push({ path: `${at}.${field}.${key}`, message: `cannot differ between arms: ${ENROLMENT_KEYS[key]}` });
  } else if (overrides.namespaceLabels || overrides.namespaceAnnotations)
    notOn(
      overrides.namespaceLabels ? 'namespaceLabels' : 'namespaceAnnotations',
      'namespaces exist only on the kind and kubeconfig platforms',
    );
  problems.push(...echoImageProblems(config, overrides.echoImage, `${at}.echoImage`));
  // The arm runs its own or the mode's manifests and image: the two together are refused wherever the arm brings one.
  if (overrides.serverManifests !== undefined || overrides.echoImage !== undefined)
    problems.push(
      ...serverManifestsProblems(
        config,
        overrides.serverManifests ?? mode.serverManifests,
        overrides.echoImage ?? mode.echoImage,
        `${at}.${overrides.serverManifests !== undefined ? 'serverManifests' : 'echoImage'}`,
      ),
    );
  return problems;
}

/**
 * Whether two arms would run alike: unset local is no hops; an unset echo image is the run's; an
 * Istio revision is compared on what it installs (version, hub, values), not on its name.
 */
function sameSettings(
  a: ModeConfig,
  b: ModeConfig,
  echoImage: string | undefined,
  istio: ParsedConfig['kubernetes']['istio'] | undefined,
): boolean {
  const settings = (m: ModeConfig) => {
    const { name: _name, arm: _arm, ...rest } = m;
    const revision = istio && istioRevisionOf(m, istio);
    const installs = revision && { version: revision.version, hub: revision.hub, set: revision.set };
    return canonicalJson({ ...rest, local: rest.local ?? { hops: 0 }, echoImage: rest.echoImage ?? echoImage, istio: installs });
  };
  return settings(a) === settings(b);
}
