// A mesh's system namespace (istio-system, linkerd) decides who owns the installation: absent →
// we create it with our labels and install; ours → converge; someone else's with the mesh's
// control plane running → use that mesh as it is and never remove it; someone else's without a
// control plane → refuse.
import { EnvironmentError } from '../../../util/errors.ts';
import { rawRequest } from '../access.ts';
import { COMPONENT, MANAGED_BY, MANAGER, readNamespace } from '../ownership.ts';
import type { MeshContext } from './types.ts';

export type SystemNamespaceState = 'created' | 'ours' | 'existing-mesh';

export async function claimSystemNamespace(
  context: MeshContext,
  namespace: string,
  component: string,
  controlPlaneDeployment: string,
): Promise<SystemNamespaceState> {
  const found = await readNamespace(context.access, namespace);
  if (found && found.metadata.labels?.[MANAGED_BY] === MANAGER) return 'ours';
  if (found) {
    const deployment = await rawRequest(context.access, `/apis/apps/v1/namespaces/${namespace}/deployments/${controlPlaneDeployment}`, {
      timeoutMs: 15_000,
    });
    if (deployment.status === 200) return 'existing-mesh';
    throw new EnvironmentError(
      `namespace ${namespace} exists but is not managed by mesh-perf and has no ${controlPlaneDeployment} Deployment; refusing to install ${component} into it. Remove it, or install ${component} yourself and use mode mesh "existing".`,
    );
  }
  const body = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels: { ...context.ownerLabels, [COMPONENT]: component } },
  };
  await context.applier.apply([body], { signal: context.signal });
  return 'created';
}
