// `down` and teardown: TestRuns (and their script ConfigMaps) a run left behind, found by our
// labels in any namespace. A cluster without k6-operator's API has none.
import { MANAGED_BY, MANAGER } from '../ownership.ts';
import type { ClusterAccess } from '../access.ts';
import { DELETED, listJson, sendJson } from '../api-json.ts';
import { TESTRUN_API } from './version.ts';

/** Deletes labelled TestRuns and the ConfigMap of the same name beside each; returns "namespace/name" of each. */
export async function deleteLabelledTestRuns(access: ClusterAccess, selector: string): Promise<string[]> {
  if (!selector.includes(`${MANAGED_BY}=${MANAGER}`))
    throw new Error(`refusing to delete TestRuns by a selector without ${MANAGED_BY}=${MANAGER}: ${selector}`);
  const items = await listJson<{ metadata: { name: string; namespace: string } }>(
    access,
    `/apis/${TESTRUN_API}/testruns?labelSelector=${encodeURIComponent(selector)}`,
    { verb: 'list', resource: 'testruns.k6.io' },
    { timeoutMs: 15_000 },
  );
  const deleted: string[] = [];
  for (const item of items ?? []) {
    const { name, namespace } = item.metadata;
    for (const path of [
      `/apis/${TESTRUN_API}/namespaces/${namespace}/testruns/${name}`,
      `/api/v1/namespaces/${namespace}/configmaps/${name}`,
    ]) {
      await sendJson(
        access,
        `${path}?propagationPolicy=Background`,
        { verb: 'delete', resource: path.includes('/testruns/') ? `testruns.k6.io/${name}` : `configmaps/${name}`, namespace },
        { method: 'DELETE', timeoutMs: 15_000, ok: DELETED },
      );
    }
    deleted.push(`${namespace}/${name}`);
  }
  return deleted;
}
