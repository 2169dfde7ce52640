// Removes cluster-scoped objects we applied (CRDs, RBAC, webhooks, admission policies, API
// services) by our labels. Namespaced objects go with their namespace.
import { rawRequest, type ClusterAccess } from '../access.ts';
import { apiError } from '../api-errors.ts';
import { MANAGED_BY, MANAGER } from '../ownership.ts';

/** Cluster-scoped kinds a mesh installation creates: list path of each. */
export const CLUSTER_SCOPED_PATHS = [
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies',
  '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  '/apis/apiregistration.k8s.io/v1/apiservices',
  '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
];

export async function deleteLabelledClusterObjects(access: ClusterAccess, selector: string): Promise<string[]> {
  if (!selector.includes(`${MANAGED_BY}=${MANAGER}`))
    throw new Error(`refusing to delete cluster objects by a selector without ${MANAGED_BY}=${MANAGER}: ${selector}`);
  const deleted: string[] = [];
  for (const path of CLUSTER_SCOPED_PATHS) {
    const list = await rawRequest(access, `${path}?labelSelector=${encodeURIComponent(selector)}`, { timeoutMs: 15_000 });
    if (list.status === 404) continue; // API not served by this cluster version
    if (list.status !== 200)
      throw apiError(Object.assign(new Error(list.body), { code: list.status, body: list.body }), {
        verb: 'list',
        resource: path.split('/').pop()!,
      });
    for (const item of (JSON.parse(list.body) as { items: { metadata: { name: string } }[] }).items) {
      const response = await rawRequest(access, `${path}/${item.metadata.name}`, { method: 'DELETE', timeoutMs: 15_000 });
      if (response.status !== 200 && response.status !== 202 && response.status !== 404) {
        throw apiError(Object.assign(new Error(response.body), { code: response.status, body: response.body }), {
          verb: 'delete',
          resource: `${path.split('/').pop()}/${item.metadata.name}`,
        });
      }
      deleted.push(`${path.split('/').pop()}/${item.metadata.name}`);
    }
  }
  return deleted;
}
