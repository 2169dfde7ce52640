// A cluster with a single schedulable node (a one-node k3s or minikube; the real-node tier's):
// against the local control plane with one kwok node, a baseline run must start and finish. The
// built-in echo server's rule against client nodes can never hold there; before the fix the echo
// pod stayed Pending ("didn't match pod anti-affinity rules") until readyTimeout, exit 3. Now the
// run goes on with both on that node, says so once, and records it (environment.placement).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';

let cluster: LocalCluster;
let server: Server;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 1 });
  server = createServer((_req, res) => res.end('echo'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-single-'));
});

after(async () => {
  server?.close();
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('one schedulable node: the echo server runs beside the k6 client, said once and recorded', { timeout: 180_000 }, async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }, { name: 'baseline-2', mesh: 'baseline' }],
    load: { rate: 10, duration: '2s', warmup: '0s', repetitions: 1 },
    out,
    kubernetes: { readyTimeout: '40s' },
  });
  const log = recordingLogger();
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new KubernetesPlatform(context, { targetOverride: () => ({ url }) }),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const warnings = log.lines.filter((l) => l.includes('one schedulable node'));
  assert.equal(warnings.length, 1, log.lines.join('\n'));
  assert.match(warnings[0]!, /^WARN the cluster has one schedulable node \(kwok-node-0\): the echo server runs beside the k6 client there/);
  const environment = outcome.result.run.environment as Record<string, any>;
  assert.deepEqual(environment.placement, { sharedNode: 'kwok-node-0', clientAndServer: 'same node' });
  for (const mode of outcome.result.modes) assert.ok(mode.repetitions[0]!.requests > 0, mode.name);
});
