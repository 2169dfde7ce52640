// load[].replicas against the local control plane (real kube-apiserver, controller-manager and
// scheduler; kwok plays the kubelets): more echo pods than the nodes can hold fails the run with
// the field, the pod count and the scheduler's reason (which resource ran out), exit 3, and the
// run removes everything it created. The profile before it has run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';

let cluster: LocalCluster;
let access: ClusterAccess;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-scaling-'));
});

after(async () => {
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

async function json(path: string): Promise<any> {
  const response = await rawRequest(access, path);
  return response.status === 200 ? JSON.parse(response.body) : undefined;
}

test('more echo pods than the nodes can hold: the message names the field and the resource that ran out, exit 3, everything removed', {
  timeout: 300_000,
}, async () => {
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }],
    // Echo pods avoid the client's node: one 4-CPU node left, room for two 1500m pods.
    load: [
      { name: 'fits', rate: 10, duration: '2s', warmup: '0s', repetitions: 1 },
      { name: 'too-many', rate: 10, duration: '2s', warmup: '0s', repetitions: 1, replicas: 3 },
    ],
    out,
    kubernetes: { readyTimeout: '15s', resources: { app: { cpu: '1500m', cpuLimit: '2' } } },
  });
  const log = recordingLogger();
  let runId = '';
  // Nothing listens there: the first profile's requests fail, which does not matter here.
  const url = 'http://127.0.0.1:9/';
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => {
      runId = context.runId;
      return new KubernetesPlatform(context, { targetOverride: () => ({ url }) });
    },
  });
  const error = outcome.error as Error & { exitCode?: number };
  assert.ok(error, 'the run failed');
  assert.equal(error.exitCode, 3);
  assert.match(error.message, /^load\[1\]\.replicas 3: Deployment echo in namespace \S+ scaled to 3 pods did not become ready within 15s/);
  assert.match(error.message, /Insufficient cpu/);
  assert.equal(outcome.result.modes.find((m) => m.profile === 'fits')?.repetitions.length, 1, 'the profile before it ran');
  const left = await json(`/api/v1/namespaces?labelSelector=${encodeURIComponent(`mesh-perf.dev/run-id=${runId}`)}`);
  assert.deepEqual(left.items, []);
});
