// load.engine k6-operator where its runners cannot be scheduled (issue 51 item 6), against a real
// API server with kwok nodes: refused before anything is created, exit 3, with the reason, and
// never a wait until kubernetes.readyTimeout (k6-operator starts no runner until all run, so one
// Pending runner held the repetition there). Before, a single runner (load.generators 1) was
// never checked: a one-node cluster, or one whose other node a taint or too little CPU took,
// created namespaces, installed nothing useful and waited. The one-node case is also run on a
// real one-node cluster by the real-node tier (test/real/faults.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { randomName } from '../support/k8s/harness.ts';
import { installTestRunCrd } from '../support/k8s/testrun-crd.ts';
import { runCli } from '../support/cli.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { MANAGED_BY, MANAGER } from '../../src/platform/kubernetes/ownership.ts';

let cluster: LocalCluster;
let access: ClusterAccess;
let work: string;

before(async () => {
  // kwok-node-1 has 100m CPU allocatable: less than a runner's request (kubernetes.resources.client.cpu).
  cluster = await startLocalCluster({ nodes: 2, nodeCpu: ['4', '100m'] });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath }, process.env);
  await installTestRunCrd(access);
  work = mkdtempSync(join(tmpdir(), 'mesh-perf-k6op-refusals-'));
});

after(async () => {
  await cluster?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `mesh-perf run` of one baseline mode under k6-operator with one runner; a generous readyTimeout, so a wait would show. */
async function run(name: string) {
  const dir = mkdtempSync(join(work, `${name}-`));
  writeFileSync(
    join(dir, 'mesh-perf.yaml'),
    [
      'platform: kubeconfig',
      `suite: ${randomName('refusal')}`,
      'modes: [{ name: baseline }]',
      'load: { rate: 10, duration: 2s, warmup: 1s, repetitions: 1, engine: k6-operator }',
      `kubernetes: { kubeconfig: ${cluster.kubeconfigPath}, namespacePrefix: ${randomName('mp')}, readyTimeout: 5m }`,
      '',
    ].join('\n'),
  );
  const started = Date.now();
  const result = await runCli(['run', '--config', join(dir, 'mesh-perf.yaml'), '--out', join(dir, 'out')], {
    cwd: dir,
    env: { COLUMNS: '1000' },
    timeoutMs: 120_000,
  });
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

async function managedNamespaces(): Promise<string[]> {
  const response = await rawRequest(access, `/api/v1/namespaces?labelSelector=${encodeURIComponent(`${MANAGED_BY}=${MANAGER}`)}`);
  return (JSON.parse(response.body) as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name);
}

async function taint(node: string, taints: unknown[]): Promise<void> {
  const response = await rawRequest(access, `/api/v1/nodes/${node}`, {
    method: 'PATCH',
    body: JSON.stringify({ spec: { taints } }),
    contentType: 'application/merge-patch+json',
  });
  assert.equal(response.status, 200, response.body);
}

test('one runner, the only node apart from the echo pod too small for its CPU request: refused before anything is created, exit 3, naming the nodes and the request', async () => {
  const result = await run('cpu');
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    /load\.generators 1 runs 1 k6-operator runner, each on a node without one of the mode's 1 echo pod \(kubernetes\.replicas\), which may take a node each, the roomiest first, and each runner needs 200m CPU allocatable \(kubernetes\.resources\.client\.cpu\) on another: 2 such nodes; 1 node of 2 has that much \(kwok-node-0 4 CPU, kwok-node-1 100m CPU\)/,
  );
  assert.ok(result.seconds < 60, `refused in ${result.seconds} s, not after a wait`);
  assert.deepEqual(await managedNamespaces(), [], 'nothing was created');
});

test('a taint takes the other node (one schedulable node left, as on a one-node cluster): refused before anything is created, exit 3, naming the taint', async () => {
  await taint('kwok-node-1', [{ key: 'mesh-perf.dev/faults', value: 'test', effect: 'NoSchedule' }]);
  try {
    const result = await run('taint');
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      /that needs 2 schedulable nodes; the cluster has 1 schedulable node \(kwok-node-0\); not schedulable: kwok-node-1 \(taint mesh-perf\.dev\/faults=test:NoSchedule\)\. Add a node, or use load\.engine: k6/,
    );
    assert.ok(result.seconds < 60, `refused in ${result.seconds} s, not after a wait`);
    assert.deepEqual(await managedNamespaces(), [], 'nothing was created');
  } finally {
    await taint('kwok-node-1', []);
  }
});
