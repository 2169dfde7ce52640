// A second up/run finds the Linkerd an earlier run installed by its linkerd-config ConfigMap, read
// from a real kube-apiserver: the stored version and values decide between `linkerd upgrade` and
// leaving it alone, and without the ConfigMap the step is a fresh `linkerd install`. (The linkerd
// CLI itself cannot run here: its command lines are pinned in unit/mesh-commands.test.ts.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { clusterConfig } from '../support/k8s/harness.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { Applier } from '../../src/platform/kubernetes/apply.ts';
import { LINKERD_NAMESPACE, readLinkerdConfig } from '../../src/platform/kubernetes/mesh/linkerd.ts';
import { linkerdControlPlaneValues } from '../../src/platform/kubernetes/mesh/commands.ts';
import { linkerdStep } from '../../src/platform/kubernetes/mesh/linkerd-state.ts';

let cluster: LocalCluster;
let access: ClusterAccess;

before(async () => {
  cluster = await startLocalCluster({ nodes: 1 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
});

after(async () => {
  await cluster?.stop();
});

// The ConfigMap as `linkerd install` renders it (chart template config.yaml: data.values is the
// chart's values as YAML, the CLI stamps linkerd.io/created-by).
function linkerdConfig(version: string, cpuLimit: string) {
  const values = [
    `linkerdVersion: ${version}`,
    'controllerLogLevel: info',
    'proxy:',
    '  nativeSidecar: true',
    '  resources:',
    '    cpu:',
    `      limit: ${cpuLimit}`,
    '      request: 20m',
    '    memory:',
    '      limit: 256Mi',
    '      request: 32Mi',
    '',
  ].join('\n');
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'linkerd-config', namespace: LINKERD_NAMESPACE, annotations: { 'linkerd.io/created-by': `linkerd/cli ${version}` } },
    data: { 'linkerd-crds-chart-version': 'linkerd-crds-1.0.0-edge', values },
  };
}

test('linkerd-config on the cluster decides install, upgrade or nothing', { timeout: 120_000 }, async () => {
  const config = clusterConfig(cluster);
  const wanted = {
    version: 'edge-26.9.1',
    values: linkerdControlPlaneValues({ proxy: config.kubernetes.resources.proxy, extra: config.kubernetes.linkerd.set }),
  };
  const applier = new Applier(access);
  await applier.apply([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LINKERD_NAMESPACE } } as never], {});

  assert.equal(await readLinkerdConfig({ access }), undefined, 'no ConfigMap: nothing installed');
  assert.equal(linkerdStep(await readLinkerdConfig({ access }), wanted), 'install');

  await applier.apply([linkerdConfig('edge-26.9.1', '1') as never], {});
  const installed = await readLinkerdConfig({ access });
  assert.equal(installed?.version, 'edge-26.9.1');
  assert.equal(linkerdStep(installed, wanted), 'current');

  await applier.apply([linkerdConfig('edge-26.5.2', '1') as never], {});
  assert.equal(linkerdStep(await readLinkerdConfig({ access }), wanted), 'upgrade', 'an older control plane is upgraded');

  await applier.apply([linkerdConfig('edge-26.9.1', '2') as never], {});
  assert.equal(linkerdStep(await readLinkerdConfig({ access }), wanted), 'upgrade', 'changed proxy resources are upgraded');

  const deleted = await rawRequest(access, `/api/v1/namespaces/${LINKERD_NAMESPACE}/configmaps/linkerd-config`, { method: 'DELETE' });
  assert.equal(deleted.status, 200);
  assert.equal(await readLinkerdConfig({ access }), undefined);
});
