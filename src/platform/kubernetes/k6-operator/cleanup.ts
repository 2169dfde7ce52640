// `down` and teardown: TestRuns (and their script ConfigMaps) a run left behind, found by our
// labels in any namespace. A cluster without k6-operator's API has none.
import { MANAGED_BY, MANAGER } from '../ownership.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { apiError } from '../api-errors.ts';
import { TESTRUN_API } from './version.ts';

/** Deletes labelled TestRuns and the ConfigMap of the same name beside each; returns "namespace/name" of each. */
export async function deleteLabelledTestRuns(access: ClusterAccess, selector: string): Promise<string[]> {
  if (!selector.includes(`${MANAGED_BY}=${MANAGER}`))
    throw new Error(`refusing to delete TestRuns by a selector without ${MANAGED_BY}=${MANAGER}: ${selector}`);
  const list = await rawRequest(access, `/apis/${TESTRUN_API}/testruns?labelSelector=${encodeURIComponent(selector)}`, {
    timeoutMs: 15_000,
  });
  if (list.status === 404) return [];
  if (list.status !== 200)
    throw apiError(Object.assign(new Error(list.body), { code: list.status, body: list.body }), {
      verb: 'list',
      resource: 'testruns.k6.io',
    });
  const deleted: string[] = [];
  for (const item of (JSON.parse(list.body) as { items: { metadata: { name: string; namespace: string } }[] }).items) {
    const { name, namespace } = item.metadata;
    for (const path of [
      `/apis/${TESTRUN_API}/namespaces/${namespace}/testruns/${name}`,
      `/api/v1/namespaces/${namespace}/configmaps/${name}`,
    ]) {
      const response = await rawRequest(access, `${path}?propagationPolicy=Background`, { method: 'DELETE', timeoutMs: 15_000 });
      if (response.status !== 200 && response.status !== 202 && response.status !== 404)
        throw apiError(Object.assign(new Error(response.body), { code: response.status, body: response.body }), {
          verb: 'delete',
          resource: path.includes('/testruns/') ? `testruns.k6.io/${name}` : `configmaps/${name}`,
          namespace,
        });
    }
    deleted.push(`${namespace}/${name}`);
  }
  return deleted;
}
