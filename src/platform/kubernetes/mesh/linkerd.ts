// Linkerd through its own CLI: the CLI renders the CRDs and the control plane (native sidecars,
// the same proxy requests/limits as Istio's sidecars), we apply them server-side with our labels
// (so removal is by label), wait for the control plane's rollouts, then `linkerd check` as the
// final explicit readiness check. Gateway API CRDs are installed before, pinned, by us.
import { EnvironmentError } from '../../../util/errors.ts';
import { parseManifests } from '../apply.ts';
import { rawRequest } from '../access.ts';
import { COMPONENT, MANAGED_BY, MANAGER, readNamespace } from '../ownership.ts';
import { rolloutTarget, waitReady } from '../wait.ts';
import {
  linkerdCheckArgs,
  linkerdClientVersionArgs,
  linkerdControlPlaneValues,
  linkerdCrdsArgs,
  linkerdInstallArgs,
  linkerdMirrorValues,
  linkerdUpgradeArgs,
  linkerdUpgradeCrdsArgs,
} from './commands.ts';
import { linkerdStep, parseLinkerdConfig, type LinkerdInstalled } from './linkerd-state.ts';
import { deleteLabelledClusterObjects } from './cleanup.ts';
import { runCli, runCliChecked } from './run-cli.ts';
import { claimSystemNamespace } from './system-namespace.ts';
import { resolveTool } from './tools.ts';
import type { MeshContext, MeshInstallation } from './types.ts';

export const LINKERD_NAMESPACE = 'linkerd';

export async function installLinkerd(context: MeshContext): Promise<MeshInstallation> {
  const state = await claimSystemNamespace(context, LINKERD_NAMESPACE, 'linkerd', 'linkerd-destination');
  if (state === 'existing-mesh') {
    context.log.info(`using the Linkerd already running in ${LINKERD_NAMESPACE}; it will not be changed or removed`);
    return {
      mesh: 'linkerd',
      version: await controlPlaneVersion(context),
      installedByUs: false,
      namespace: LINKERD_NAMESPACE,
      details: { source: 'existing' },
    };
  }
  const k8s = context.config.kubernetes;
  const binary = await resolveTool('linkerd', k8s.linkerd.version, context.log, context.env);
  const options = { timeoutMs: 120_000, signal: context.signal, env: context.env };
  const labels = { ...context.ownerLabels, [COMPONENT]: 'linkerd' };
  const clientVersion =
    (await runCli(binary, linkerdClientVersionArgs(), { timeoutMs: 30_000, env: context.env })).stdout.trim() || k8s.linkerd.version;
  const wanted = { proxy: k8s.resources.proxy, extra: { ...linkerdMirrorValues(k8s.images.registry), ...k8s.linkerd.set } };
  // Only our own earlier installation can be found here: the namespace is ours or was just created.
  const installed = state === 'ours' ? await readLinkerdConfig(context) : undefined;
  const step = linkerdStep(installed, { version: clientVersion, values: linkerdControlPlaneValues(wanted) });
  if (step === 'current') {
    context.log.info(`Linkerd ${clientVersion} installed by an earlier mesh-perf run already has these settings; not re-rendering it`);
  } else {
    const upgrade = step === 'upgrade';
    context.log.info(
      upgrade
        ? `upgrading the Linkerd installed by an earlier mesh-perf run (${installed?.version} → ${clientVersion}, or changed settings) with linkerd upgrade`
        : 'installing Linkerd CRDs and control plane with the linkerd CLI',
    );
    const crds = await runCliChecked(
      binary,
      upgrade ? linkerdUpgradeCrdsArgs(context.flags) : linkerdCrdsArgs(context.flags),
      options,
      'rendering the Linkerd CRDs',
    );
    await context.applier.apply(parseManifests(crds.stdout, `linkerd ${upgrade ? 'upgrade' : 'install'} --crds`), {
      labels,
      signal: context.signal,
    });
    const controlPlane = await runCliChecked(
      binary,
      upgrade ? linkerdUpgradeArgs(context.flags, wanted) : linkerdInstallArgs(context.flags, wanted),
      options,
      'rendering the Linkerd control plane',
    );
    await context.applier.apply(parseManifests(controlPlane.stdout, `linkerd ${upgrade ? 'upgrade' : 'install'}`), {
      labels,
      signal: context.signal,
    });
  }
  for (const name of ['linkerd-identity', 'linkerd-destination', 'linkerd-proxy-injector']) {
    await waitReady(
      context.access,
      rolloutTarget('Deployment', LINKERD_NAMESPACE, name, `linkerd.io/control-plane-component=${name.replace('linkerd-', '')}`),
      context.readyTimeoutMs,
      context.signal,
    );
  }
  await runCliChecked(
    binary,
    linkerdCheckArgs(context.flags, context.readyTimeoutMs),
    { ...options, timeoutMs: context.readyTimeoutMs + 60_000 },
    '`linkerd check`',
  );
  return {
    mesh: 'linkerd',
    version: clientVersion,
    installedByUs: true,
    namespace: LINKERD_NAMESPACE,
    details: { nativeSidecars: true, mtls: 'automatic', install: step },
  };
}

/** Removes what we applied for Linkerd (by label); its namespace goes with the mode namespaces. */
export async function uninstallLinkerd(context: MeshContext, selector: string): Promise<boolean> {
  const namespace = await readNamespace(context.access, LINKERD_NAMESPACE);
  if (!namespace || namespace.metadata.labels?.[MANAGED_BY] !== MANAGER) return false;
  await deleteLabelledClusterObjects(context.access, `${selector},${COMPONENT}=linkerd`);
  return true;
}

async function controlPlaneVersion(context: MeshContext): Promise<string> {
  const response = await rawRequest(context.access, `/apis/apps/v1/namespaces/${LINKERD_NAMESPACE}/deployments/linkerd-destination`, {
    timeoutMs: 15_000,
  });
  const labels = (JSON.parse(response.body) as { metadata?: { labels?: Record<string, string> } }).metadata?.labels ?? {};
  return labels['linkerd.io/control-plane-version'] ?? 'unknown';
}

/** The linkerd-config ConfigMap `linkerd install` leaves behind; undefined when there is none. */
export async function readLinkerdConfig(context: Pick<MeshContext, 'access'>): Promise<LinkerdInstalled | undefined> {
  const response = await rawRequest(context.access, `/api/v1/namespaces/${LINKERD_NAMESPACE}/configmaps/linkerd-config`, {
    timeoutMs: 15_000,
  });
  if (response.status === 404) return undefined;
  if (response.status !== 200)
    throw new EnvironmentError(
      `could not read ConfigMap ${LINKERD_NAMESPACE}/linkerd-config (HTTP ${response.status}) to tell whether Linkerd is already installed`,
    );
  return parseLinkerdConfig(JSON.parse(response.body) as Parameters<typeof parseLinkerdConfig>[0]);
}
