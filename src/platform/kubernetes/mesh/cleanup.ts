// Removes cluster-scoped objects we applied (CRDs, RBAC, webhooks, admission policies, API
// services) by our labels. Namespaced objects go with their namespace.
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError } from '../../../util/errors.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { DELETED, listJson, sendJson } from '../api-json.ts';
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

/**
 * Deletes them and waits until they are gone: a CRD is deleted only once every object of its kind
 * is (the API server's finalizer), which took seconds for the Gateway API's HTTPRoute CRD on a real
 * node, and `down` must not say it removed what is still there. Past `waitMs`, an error names what
 * is still terminating.
 */
export async function deleteLabelledClusterObjects(access: ClusterAccess, selector: string, waitMs = 120_000): Promise<string[]> {
  if (!selector.includes(`${MANAGED_BY}=${MANAGER}`))
    throw new Error(`refusing to delete cluster objects by a selector without ${MANAGED_BY}=${MANAGER}: ${selector}`);
  return (await deleteClusterObjects(access, selector, CLUSTER_SCOPED_PATHS, { waitMs })).deleted;
}

/**
 * The cluster-scoped kinds `istioctl uninstall --purge` removes, by the component label it selects
 * on (Istio's operator/pkg/uninstall/prune.go: AllClusterResources, manifest.IstioComponentLabel).
 */
const ISTIO_PURGED_PATHS = [
  '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
  '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
];
const ISTIO_COMPONENT_LABEL = 'operator.istio.io/component';

/**
 * What `istioctl uninstall --purge` asked to delete and is still there, deleted again and waited
 * for. istioctl deletes with foreground propagation: each object waits, terminating, for the
 * garbage collector in kube-controller-manager to clear its foregroundDeletion finalizer. On the
 * real node all 16 of Istio's cluster-scoped objects were still terminating when istioctl
 * returned, every time, and after an API server restart six ClusterRoles were still there when
 * the run ended, with nothing said. A delete with background propagation takes that finalizer off
 * (none of these has dependents to wait for). Returns what istioctl had not deleted at all (not
 * terminating): those are worth saying. Only runs where istioctl itself just purged the same
 * selection (an Istio this run, or `up`, installed).
 */
export async function deleteIstioLeftovers(access: ClusterAccess, waitMs = 60_000): Promise<string[]> {
  const { deleted, terminating } = await deleteClusterObjects(access, ISTIO_COMPONENT_LABEL, ISTIO_PURGED_PATHS, {
    waitMs,
    propagation: 'Background',
  });
  return deleted.filter((name) => !terminating.has(name));
}

/**
 * Deletes the cluster-scoped objects a selector picks among `paths` and waits until they are gone:
 * a CRD is deleted only once every object of its kind is (the API server's finalizer), which took
 * seconds for the Gateway API's HTTPRoute CRD on a real node, and `down` must not say it removed
 * what is still there. Past `waitMs`, an error names what is still terminating.
 */
async function deleteClusterObjects(
  access: ClusterAccess,
  selector: string,
  paths: readonly string[],
  options: { waitMs: number; propagation?: 'Background' },
): Promise<{ deleted: string[]; terminating: Set<string> }> {
  const deleted: string[] = [];
  const terminating = new Set<string>();
  const pending: string[] = [];
  const body = options.propagation
    ? JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: options.propagation })
    : undefined;
  for (const path of paths) {
    const resource = path.split('/').pop()!;
    // undefined: an API this cluster version does not serve, so nothing of it to delete.
    const items = await listJson<{ metadata: { name: string; deletionTimestamp?: string } }>(
      access,
      `${path}?labelSelector=${encodeURIComponent(selector)}`,
      { verb: 'list', resource },
      { timeoutMs: 15_000 },
    );
    for (const item of items ?? []) {
      await sendJson(
        access,
        `${path}/${item.metadata.name}`,
        { verb: 'delete', resource: `${resource}/${item.metadata.name}` },
        { method: 'DELETE', timeoutMs: 15_000, ok: DELETED, ...(body ? { body, contentType: 'application/json' } : {}) },
      );
      deleted.push(`${resource}/${item.metadata.name}`);
      if (item.metadata.deletionTimestamp) terminating.add(`${resource}/${item.metadata.name}`);
      pending.push(`${path}/${item.metadata.name}`);
    }
  }
  const deadline = Date.now() + options.waitMs;
  for (let left = pending; ; ) {
    const still: string[] = [];
    for (const path of left) if ((await rawRequest(access, path, { timeoutMs: 15_000 })).status !== 404) still.push(path);
    if (still.length === 0) return { deleted, terminating };
    if (Date.now() > deadline)
      throw new EnvironmentError(
        `still being deleted after ${Math.round(options.waitMs / 1000)} s: ${still.map((p) => p.split('/').slice(-2).join('/')).join(', ')} (a CRD goes once every object of its kind has; list them with kubectl get)`,
      );
    left = still;
    await sleep(500);
  }
}
