// `mesh-perf down`: removes everything mesh-perf created for a suite in a cluster, from any run
// (including `up` and interrupted runs), found by label: the meshes it installed (istioctl
// uninstall for Istio, label-based for Linkerd and the Gateway API CRDs), the mode namespaces,
// k6-operator TestRuns, and labelled cluster-scoped objects. Objects without our labels are never touched.
import { deleteLabelledClusterObjects } from './mesh/cleanup.ts';
import { deleteLabelledTestRuns } from './k6-operator/cleanup.ts';
import { ISTIO_NAMESPACE, uninstallIstio } from './mesh/istio.ts';
import { uninstallLinkerd } from './mesh/linkerd.ts';
import type { PlatformContext } from '../types.ts';
import { deleteNamespaces, readNamespace, SUITE, suiteSelector } from './ownership.ts';
import { KubernetesPlatform } from './platform.ts';

export interface RemovalReport {
  server: string;
  namespaces: string[];
  clusterObjects: string[];
  /** k6-operator TestRuns (namespace/name), removed before their namespaces. */
  testRuns: string[];
  meshes: string[];
}

export async function removeSuite(context: PlatformContext, env: NodeJS.ProcessEnv = process.env): Promise<RemovalReport> {
  const platform = new KubernetesPlatform(context, { env });
  const access = await platform.connect();
  const mesh = platform.meshContext();
  const selector = suiteSelector(context.config.suite);
  const meshes: string[] = [];
  const istio = await readNamespace(access, ISTIO_NAMESPACE);
  if (istio?.metadata.labels?.[SUITE] === context.config.suite && (await uninstallIstio(mesh))) meshes.push('istio');
  if (await uninstallLinkerd(mesh, selector)) meshes.push('linkerd');
  const testRuns = await deleteLabelledTestRuns(access, selector);
  const namespaces = await deleteNamespaces(access, selector, platform.readyTimeoutMs, context.signal);
  const clusterObjects = await deleteLabelledClusterObjects(access, selector);
  return { server: access.server, namespaces, clusterObjects, meshes, testRuns };
}
