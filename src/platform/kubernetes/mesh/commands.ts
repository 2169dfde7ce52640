// The exact command lines the product runs for the meshes' own CLIs (istioctl, linkerd). Pure,
// so every argument is unit-tested; installers only execute what these functions return.

export interface ClusterFlags {
  kubeconfigPath?: string;
  context?: string;
}

/** Resource requests/limits of one container, Kubernetes quantities. */
export interface ContainerResources {
  cpu: string;
  memory: string;
  cpuLimit: string;
  memoryLimit: string;
}

export function clusterArgs(flags: ClusterFlags): string[] {
  return [...(flags.kubeconfigPath ? ['--kubeconfig', flags.kubeconfigPath] : []), ...(flags.context ? ['--context', flags.context] : [])];
}

/** Go duration for CLI flags: whole seconds, "300s". */
export function goDuration(ms: number): string {
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/**
 * CPU as millicores ("1" → "1000m"): istioctl's --set parses a bare number as a number, and
 * Istio's resource fields are strings, so "limits.cpu=1" fails to unmarshal.
 */
export function cpuMillicores(quantity: string): string {
  return /^\d+(\.\d+)?$/.test(quantity) ? `${Math.round(Number(quantity) * 1000)}m` : quantity;
}

import { mirrorImage } from '../../../config/image-mirror.ts';

const setArgs = (values: Record<string, string>) => Object.entries(values).flatMap(([key, value]) => ['--set', `${key}=${value}`]);

export interface IstioInstallOptions {
  hub?: string;
  proxy: ContainerResources;
  readinessTimeoutMs: number;
  /** User's extra --set values, applied last so they win. */
  extra: Record<string, string>;
}

/**
 * Ambient profile (istiod + CNI + ztunnel) keeps the sidecar injector, so sidecar and ambient
 * namespaces coexist in one cluster. Requests are lowered to fit a 4-vCPU runner; sidecar and
 * waypoint proxies get the same requests/limits as Linkerd's proxies (resources.proxy).
 */
export function istioInstallArgs(flags: ClusterFlags, options: IstioInstallOptions): string[] {
  const values: Record<string, string> = {
    profile: 'ambient',
    ...(options.hub ? { hub: options.hub } : {}),
    ...istiodValues(),
    'values.ztunnel.resources.requests.cpu': '50m',
    'values.ztunnel.resources.requests.memory': '64Mi',
    'values.cni.resources.requests.cpu': '20m',
    'values.cni.resources.requests.memory': '32Mi',
    ...proxyValues('global.proxy', options.proxy),
    // Waypoints are proxies too: without these they keep Istio's 100m/128Mi, limits 2/1Gi
    // (global.waypoint.resources, configurable since Istio 1.24, istio/istio#51496).
    ...proxyValues('global.waypoint', options.proxy),
    ...options.extra,
  };
  return ['install', '-y', ...setArgs(values), '--readiness-timeout', goDuration(options.readinessTimeoutMs), ...clusterArgs(flags)];
}

/** Every istiod mesh-perf installs (the run's and each revision's): native sidecars, requests lowered to fit a 4-vCPU runner. */
function istiodValues(): Record<string, string> {
  return {
    'values.pilot.env.ENABLE_NATIVE_SIDECARS': 'true',
    'values.pilot.resources.requests.cpu': '100m',
    'values.pilot.resources.requests.memory': '256Mi',
  };
}

/** The requests and limits of one kind of proxy (`global.proxy`, `global.waypoint`): the same for every mesh (resources.proxy). */
function proxyValues(key: string, proxy: ContainerResources): Record<string, string> {
  return {
    [`values.${key}.resources.requests.cpu`]: cpuMillicores(proxy.cpu),
    [`values.${key}.resources.requests.memory`]: proxy.memory,
    [`values.${key}.resources.limits.cpu`]: cpuMillicores(proxy.cpuLimit),
    [`values.${key}.resources.limits.memory`]: proxy.memoryLimit,
  };
}

/**
 * One mode's own revision beside the run's install (config/istio-revisions.ts): istiod only
 * (profile minimal, with the ambient values the run's istiod has) under the revision's name,
 * without the base chart, so the CRDs and the default validator stay those of the run's install (a revision of an older Istio never rewrites CRDs a
 * newer one installed). Proxies and waypoints get the same requests/limits as every other mode's; the revision's
 * own values last.
 */
export function istioRevisionInstallArgs(flags: ClusterFlags, revision: string, options: IstioInstallOptions): string[] {
  const values: Record<string, string> = {
    profile: 'minimal',
    // The run's install is the ambient profile: its istiod runs with the ambient values (HBONE,
    // PILOT_ENABLE_AMBIENT), so a revision's does too (without installing CNI or ztunnel again),
    // and can deploy and program a waypoint.
    'values.profile': 'ambient',
    'components.base.enabled': 'false',
    ...(options.hub ? { hub: options.hub } : {}),
    ...istiodValues(),
    ...proxyValues('global.proxy', options.proxy),
    // A waypoint mode's revision deploys its waypoint: the same resources as the run's waypoints.
    ...proxyValues('global.waypoint', options.proxy),
    ...options.extra,
  };
  return [
    'install',
    '-y',
    '--revision',
    revision,
    ...setArgs(values),
    '--readiness-timeout',
    goDuration(options.readinessTimeoutMs),
    ...clusterArgs(flags),
  ];
}

/** The namespace's waypoint, bound to a mode's own revision when it has one (its istiod deploys and programs it). */
export function istioWaypointArgs(flags: ClusterFlags, namespace: string, timeoutMs: number, revision?: string): string[] {
  return [
    'waypoint',
    'apply',
    '--namespace',
    namespace,
    ...(revision ? ['--revision', revision] : []),
    '--enroll-namespace',
    '--wait',
    '--waypoint-timeout',
    goDuration(timeoutMs),
    ...clusterArgs(flags),
  ];
}

export function istioUninstallArgs(flags: ClusterFlags): string[] {
  return ['uninstall', '--purge', '-y', ...clusterArgs(flags)];
}

export function istioClientVersionArgs(): string[] {
  return ['version', '--remote=false', '--short'];
}

export interface LinkerdInstallOptions {
  proxy: ContainerResources;
  extra: Record<string, string>;
}

/** Linkerd's images (cr.l5d.io/linkerd/*) from the mirror: the chart's image-name values. */
export function linkerdMirrorValues(registry: string | undefined): Record<string, string> {
  if (!registry) return {};
  const at = (name: string) => mirrorImage(`cr.l5d.io/linkerd/${name}`, registry);
  return {
    controllerImage: at('controller'),
    'proxy.image.name': at('proxy'),
    'proxyInit.image.name': at('proxy-init'),
    'debugContainer.image.name': at('debug'),
  };
}

/** CRDs only; the Gateway API CRDs are installed by us first (pinned), so Linkerd must not. */
export function linkerdCrdsArgs(flags: ClusterFlags): string[] {
  return ['install', '--crds', '--set', 'installGatewayAPI=false', ...clusterArgs(flags)];
}

/** The control plane's --set values: native sidecars, the same proxy requests/limits as Istio's sidecars. */
export function linkerdControlPlaneValues(options: LinkerdInstallOptions): Record<string, string> {
  return {
    'proxy.nativeSidecar': 'true',
    'proxy.resources.cpu.request': options.proxy.cpu,
    'proxy.resources.memory.request': options.proxy.memory,
    'proxy.resources.cpu.limit': options.proxy.cpuLimit,
    'proxy.resources.memory.limit': options.proxy.memoryLimit,
    ...options.extra,
  };
}

/** Control plane on a cluster without one (`linkerd install` exits 1 when linkerd-config exists). */
export function linkerdInstallArgs(flags: ClusterFlags, options: LinkerdInstallOptions): string[] {
  return ['install', ...setArgs(linkerdControlPlaneValues(options)), ...clusterArgs(flags)];
}

/** CRDs over an existing installation; the chart is the same as install's, Gateway API left to us. */
export function linkerdUpgradeCrdsArgs(flags: ClusterFlags): string[] {
  return ['upgrade', '--crds', '--set', 'installGatewayAPI=false', ...clusterArgs(flags)];
}

/**
 * Control plane over an existing installation: `linkerd upgrade` reads the stored values and the
 * identity issuer from the cluster (so meshed pods keep their trust anchor) and applies ours on top.
 */
export function linkerdUpgradeArgs(flags: ClusterFlags, options: LinkerdInstallOptions): string[] {
  return ['upgrade', ...setArgs(linkerdControlPlaneValues(options)), ...clusterArgs(flags)];
}

export function linkerdCheckArgs(flags: ClusterFlags, timeoutMs: number): string[] {
  return ['check', '--wait', goDuration(timeoutMs), ...clusterArgs(flags)];
}

export function linkerdClientVersionArgs(): string[] {
  return ['version', '--client', '--short'];
}
