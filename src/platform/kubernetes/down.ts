// `mesh-perf down`: removes everything mesh-perf created for a suite in a cluster, from any run
// (including `up` and interrupted runs), found by label: k6-operator TestRuns, the mode and
// ingress namespaces, the meshes it installed (istioctl uninstall for Istio, label-based for
// Linkerd and the Gateway API CRDs) and their namespaces, and labelled cluster-scoped objects.
// Objects without our labels are never touched.
import { deleteLabelledClusterObjects } from './mesh/cleanup.ts';
import { deleteLabelledTestRuns } from './k6-operator/cleanup.ts';
import { ISTIO_NAMESPACE, uninstallIstio } from './mesh/istio.ts';
import { uninstallLinkerd } from './mesh/linkerd.ts';
import type { PlatformContext } from '../types.ts';
import { deleteNamespaces, readNamespace, SUITE, suiteSelector, workloadNamespaces } from './ownership.ts';
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
  // In the order a run's teardown removes them (KubernetesPlatform.teardown): workloads and their
  // namespaces gone before a mesh's CNI agent is, then the meshes, then their namespaces.
  const testRuns = await deleteLabelledTestRuns(access, selector);
  const namespaces = await deleteNamespaces(access, workloadNamespaces(selector), platform.readyTimeoutMs, context.signal);
  const istio = await readNamespace(access, ISTIO_NAMESPACE);
  if (istio?.metadata.labels?.[SUITE] === context.config.suite && (await uninstallIstio(mesh))) meshes.push('istio');
  if (await uninstallLinkerd(mesh, selector)) meshes.push('linkerd');
  namespaces.push(...(await deleteNamespaces(access, selector, platform.readyTimeoutMs, context.signal)));
  const clusterObjects = await deleteLabelledClusterObjects(access, selector);
  return { server: access.server, namespaces, clusterObjects, meshes, testRuns };
}
