// Istio through its own CLI: `istioctl install` with the ambient profile (istiod, CNI, ztunnel,
// sidecar injector available, so sidecar and ambient namespaces coexist), strict mTLS mesh-wide,
// explicit readiness of istiod/ztunnel/CNI, a revision per mode that asks for its own control
// plane (`istioctl install --revision`, each with its version's istioctl), `istioctl waypoint
// apply` for waypoint modes, and `istioctl uninstall --purge` for removal (every revision with it),
// only when we installed it.
import { mirrorImage } from '../../../config/image-mirror.ts';
import { EnvironmentError } from '../../../util/errors.ts';
import { rawRequest } from '../access.ts';
import { COMPONENT, MANAGED_BY, MANAGER, readNamespace } from '../ownership.ts';
import { rolloutTarget, waitReady } from '../wait.ts';
import { ISTIO_HUB, type IstioRevision } from '../../../config/istio-revisions.ts';
import { istioClientVersionArgs, istioInstallArgs, istioRevisionInstallArgs, istioUninstallArgs, istioWaypointArgs } from './commands.ts';
import { runCli, runCliChecked } from './run-cli.ts';
import { deleteIstioLeftovers } from './cleanup.ts';
import { claimSystemNamespace } from './system-namespace.ts';
import { resolveTool } from './tools.ts';
import type { MeshContext, MeshInstallation } from './types.ts';

export const ISTIO_NAMESPACE = 'istio-system';
export const WAYPOINT_NAME = 'waypoint';

async function istioctl(context: MeshContext, version = context.config.kubernetes.istio.version): Promise<string> {
  return resolveTool('istioctl', version, context.log, context.env);
}

/**
 * Installs Istio (or adopts the cluster's), then each mode's own revision beside it. The caller
 * has run refuseForeignRevisions before creating anything, so a refusal leaves the cluster as it was.
 */
export async function installIstio(
  context: MeshContext,
  ambient: boolean,
  revisions: readonly IstioRevision[] = [],
): Promise<MeshInstallation> {
  const state = await claimSystemNamespace(context, ISTIO_NAMESPACE, 'istio', 'istiod');
  if (state === 'existing-mesh') {
    const version = await istiodVersion(context);
    if (ambient) await requireDaemonSet(context, 'ztunnel');
    context.log.info(`using the Istio already running in ${ISTIO_NAMESPACE} (${version}); it will not be changed or removed`);
    return { mesh: 'istio', version, installedByUs: false, namespace: ISTIO_NAMESPACE, details: { source: 'existing' } };
  }
  const binary = await istioctl(context);
  const k8s = context.config.kubernetes;
  const args = istioInstallArgs(context.flags, {
    // Istio's images are docker.io/istio/*; an explicit istio.hub wins over the mirror.
    hub: k8s.istio.hub ?? (k8s.images.registry ? mirrorImage(ISTIO_HUB, k8s.images.registry) : undefined),
    proxy: k8s.resources.proxy,
    readinessTimeoutMs: context.readyTimeoutMs,
    extra: k8s.istio.set,
  });
  context.log.info(`installing Istio (ambient profile) with istioctl`);
  await runCliChecked(
    binary,
    args,
    {
      timeoutMs: context.readyTimeoutMs + 120_000,
      signal: context.signal,
      env: context.env,
      onLine: (line) => context.log.progress(`istioctl: ${line.trim()}`),
    },
    'Istio install',
  );
  context.log.progressDone();
  // istioctl waited too; these explicit waits produce our pod/event report when something is stuck.
  await waitReady(
    context.access,
    rolloutTarget('Deployment', ISTIO_NAMESPACE, 'istiod', 'app=istiod'),
    context.readyTimeoutMs,
    context.signal,
  );
  await waitReady(
    context.access,
    rolloutTarget('DaemonSet', ISTIO_NAMESPACE, 'ztunnel', 'app=ztunnel'),
    context.readyTimeoutMs,
    context.signal,
  );
  await waitReady(
    context.access,
    rolloutTarget('DaemonSet', ISTIO_NAMESPACE, 'istio-cni-node', 'k8s-app=istio-cni-node'),
    context.readyTimeoutMs,
    context.signal,
  );
  await context.applier.apply(
    [
      {
        apiVersion: 'security.istio.io/v1',
        kind: 'PeerAuthentication',
        metadata: { name: 'default', namespace: ISTIO_NAMESPACE },
        spec: { mtls: { mode: 'STRICT' } },
      } as never,
    ],
    { labels: { ...context.ownerLabels, [COMPONENT]: 'istio' }, signal: context.signal },
  );
  const version = await clientVersion(binary, context);
  const installed = [];
  for (const revision of revisions) installed.push(await installRevision(context, revision));
  return {
    mesh: 'istio',
    version,
    installedByUs: true,
    namespace: ISTIO_NAMESPACE,
    details: {
      profile: 'ambient',
      mtls: 'STRICT',
      nativeSidecars: true,
      hub: k8s.istio.hub ?? 'default',
      ...(installed.length > 0 ? { revisions: installed } : {}),
    },
  };
}

/** One mode's control plane: its version's istioctl installs istiod under the revision's name; waits until it runs. */
async function installRevision(
  context: MeshContext,
  revision: IstioRevision,
): Promise<{ revision: string; mode: string; version: string; hub: string }> {
  const k8s = context.config.kubernetes;
  const binary = await istioctl(context, revision.version);
  const hub = revision.hub ?? (k8s.images.registry ? mirrorImage(ISTIO_HUB, k8s.images.registry) : undefined);
  context.log.info(`installing Istio revision ${revision.revision} (${revision.version}) for ${revision.mode} with istioctl`);
  await runCliChecked(
    binary,
    istioRevisionInstallArgs(context.flags, revision.revision, {
      hub,
      proxy: k8s.resources.proxy,
      readinessTimeoutMs: context.readyTimeoutMs,
      extra: revision.set,
    }),
    {
      timeoutMs: context.readyTimeoutMs + 120_000,
      signal: context.signal,
      env: context.env,
      onLine: (line) => context.log.progress(`istioctl (${revision.revision}): ${line.trim()}`),
    },
    `Istio revision ${revision.revision} install`,
  );
  context.log.progressDone();
  await waitReady(
    context.access,
    rolloutTarget('Deployment', ISTIO_NAMESPACE, `istiod-${revision.revision}`, `app=istiod,istio.io/rev=${revision.revision}`),
    context.readyTimeoutMs,
    context.signal,
  );
  return {
    revision: revision.revision,
    mode: revision.mode,
    version: await clientVersion(binary, context, revision.version),
    hub: hub ?? 'default',
  };
}

/**
 * Revisions are installed only beside an Istio mesh-perf installs (istio-system ours or absent),
 * and never under a name someone else's installation uses: the injector webhook of a revision is
 * cluster-scoped, so a revision of another Istio is found even outside istio-system.
 */
export async function refuseForeignRevisions(context: MeshContext, revisions: readonly IstioRevision[]): Promise<void> {
  const namespace = await readNamespace(context.access, ISTIO_NAMESPACE);
  if (namespace?.metadata.labels?.[MANAGED_BY] === MANAGER) return;
  const modes = revisions.map((r) => `${r.mode} (revision ${r.revision})`).join(', ');
  if (namespace)
    throw new EnvironmentError(
      `${modes}: each would run under its own Istio revision, which mesh-perf installs only beside an Istio it installed; ${ISTIO_NAMESPACE} exists and is not mesh-perf's, so nothing was changed. Run the A/B on a cluster without Istio (kind), or remove the modes' istio settings and compare with history`,
    );
  for (const revision of revisions) {
    const webhook = `istio-sidecar-injector-${revision.revision}`;
    const found = await rawRequest(context.access, `/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/${webhook}`, {
      timeoutMs: 15_000,
    });
    if (found.status === 200)
      throw new EnvironmentError(
        `Istio revision "${revision.revision}" (${revision.mode}) already exists in this cluster (MutatingWebhookConfiguration ${webhook}, not mesh-perf's); nothing was changed. Give the mode another revision name (istio.revision), or remove that installation`,
      );
  }
}

/** Deploys the namespace's waypoint (bound to the mode's own revision, if any) and enrols the namespace; waits until it runs. */
export async function applyWaypoint(context: MeshContext, namespace: string, revision?: string): Promise<void> {
  const binary = await istioctl(context);
  await runCliChecked(
    binary,
    istioWaypointArgs(context.flags, namespace, context.readyTimeoutMs, revision),
    { timeoutMs: context.readyTimeoutMs + 60_000, signal: context.signal, env: context.env },
    `waypoint for namespace ${namespace}`,
  );
  await waitReady(
    context.access,
    rolloutTarget('Deployment', namespace, WAYPOINT_NAME, `gateway.networking.k8s.io/gateway-name=${WAYPOINT_NAME}`),
    context.readyTimeoutMs,
    context.signal,
  );
}

/** Removes Istio when mesh-perf installed it (istio-system carries our label). */
export async function uninstallIstio(context: MeshContext): Promise<boolean> {
  const namespace = await readNamespace(context.access, ISTIO_NAMESPACE);
  if (!namespace || namespace.metadata.labels?.[MANAGED_BY] !== MANAGER) return false;
  const binary = await istioctl(context);
  await runCliChecked(
    binary,
    istioUninstallArgs(context.flags),
    { timeoutMs: context.readyTimeoutMs, signal: context.signal, env: context.env },
    'Istio uninstall',
  );
  // What istioctl left terminating is finished quietly; what it did not delete at all is said.
  const left = await deleteIstioLeftovers(context.access);
  if (left.length > 0)
    context.log.info(`istioctl uninstall did not delete ${left.length} of Istio's cluster-scoped objects, deleted now: ${left.join(', ')}`);
  return true;
}

async function clientVersion(binary: string, context: MeshContext, fallback = context.config.kubernetes.istio.version): Promise<string> {
  const result = await runCli(binary, istioClientVersionArgs(), { timeoutMs: 30_000, env: context.env });
  // Prints "client version: 1.30.3" (or just the version in older releases).
  const last = result.stdout
    .trim()
    .split('\n')
    .pop()
    ?.replace(/^client version:\s*/i, '')
    .trim();
  return last || fallback;
}

async function istiodVersion(context: MeshContext): Promise<string> {
  const response = await rawRequest(context.access, `/apis/apps/v1/namespaces/${ISTIO_NAMESPACE}/deployments/istiod`, {
    timeoutMs: 15_000,
  });
  const image =
    (JSON.parse(response.body) as { spec?: { template?: { spec?: { containers?: { image?: string }[] } } } }).spec?.template?.spec
      ?.containers?.[0]?.image ?? '';
  return image.split(':').pop() ?? 'unknown';
}

async function requireDaemonSet(context: MeshContext, name: string): Promise<void> {
  const response = await rawRequest(context.access, `/apis/apps/v1/namespaces/${ISTIO_NAMESPACE}/daemonsets/${name}`, {
    timeoutMs: 15_000,
  });
  if (response.status !== 200) {
    throw new EnvironmentError(
      `the Istio in ${ISTIO_NAMESPACE} (not installed by mesh-perf) has no ${name} DaemonSet, which the ambient modes need; install Istio with the ambient profile, or drop the ambient modes`,
    );
  }
}
