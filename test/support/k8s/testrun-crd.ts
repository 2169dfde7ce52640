// The TestRun CRD (written from k6-operator v1.6.0's API, test/fixtures/k6-operator) installed
// into a local control plane, for the files that run load.engine k6-operator.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';

const CRD = join(import.meta.dirname, '../../fixtures/k6-operator/testrun-crd.yaml');

/**
 * Creates the CRD and waits until the API server serves k6.io/v1alpha1 testruns (discovery lags
 * the create). Returns the create's HTTP status: 201, or 409 when it was there already.
 */
export async function installTestRunCrd(access: ClusterAccess): Promise<number> {
  const crd = parse(readFileSync(CRD, 'utf8'), { maxAliasCount: -1 });
  const created = await rawRequest(access, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    method: 'POST',
    body: JSON.stringify(crd),
    contentType: 'application/json',
  });
  assert.ok([201, 409].includes(created.status), created.body);
  for (let i = 0; ; i++) {
    const discovery = await rawRequest(access, '/apis/k6.io/v1alpha1');
    if (discovery.status === 200 && JSON.parse(discovery.body).resources?.some((r: { name: string }) => r.name === 'testruns')) break;
    assert.ok(i < 100, 'k6.io/v1alpha1 testruns not served');
    await sleep(200);
  }
  return created.status;
}
