// A pod of a mode's path that does not last through a repetition (issue 51 item 3), against a real
// API server, controller manager and scheduler with kwok nodes: the echo pod deleted while a
// repetition runs makes that repetition invalid, naming the pod and its replacement, and the next
// repetition waits for the replacement; when no replacement can become ready (every node
// cordoned), the run stops after kubernetes.readyTimeout, exit 3, saying which pod and why. The
// real-node tier breaks real proxies the same way (test/real/faults.test.ts).
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
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { exitCodeOf } from '../../src/util/errors.ts';

let cluster: LocalCluster;
let access: ClusterAccess;
let server: Server;
let url: string;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath }, process.env);
  server = createServer((_req, res) => res.end('echo'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-disruptions-'));
});

after(async () => {
  server?.close();
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** The echo pods of a namespace, as the API server lists them. */
async function echoPods(namespace: string): Promise<string[]> {
  const response = await rawRequest(access, `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3Decho`);
  return (JSON.parse(response.body) as { items: { metadata: { name: string; deletionTimestamp?: string } }[] }).items
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => p.metadata.name);
}

async function setCordoned(cordoned: boolean): Promise<void> {
  for (const node of cluster.nodes) {
    const response = await rawRequest(access, `/api/v1/nodes/${node}`, {
      method: 'PATCH',
      body: JSON.stringify({ spec: { unschedulable: cordoned } }),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(response.status, 200, response.body);
  }
}

/**
 * A baseline run of two repetitions whose echo pod `beforeDelete` prepares for and the harness
 * deletes once repetition 1 is under load (the pipeline's own live line says so).
 */
async function runWithEchoDeleted(readyTimeout: string, beforeDelete: () => Promise<void> = async () => {}) {
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }],
    load: { rate: 20, duration: '4s', warmup: '1s', repetitions: 2 },
    out: join(out, readyTimeout),
    kubernetes: { readyTimeout },
  });
  const namespace = `${config.kubernetes.namespacePrefix}-baseline`;
  const log = recordingLogger();
  let deleted: Promise<string> | undefined;
  const progress = log.progress;
  log.progress = (line) => {
    progress(line);
    if (deleted || !/rep 1\/2 · measuring/.test(line)) return;
    deleted = (async () => {
      await beforeDelete();
      const [pod] = await echoPods(namespace);
      const response = await rawRequest(access, `/api/v1/namespaces/${namespace}/pods/${pod}`, { method: 'DELETE' });
      assert.equal(response.status, 200, response.body);
      return pod!;
    })();
  };
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new KubernetesPlatform(context, { targetOverride: () => ({ url }) }),
  });
  assert.ok(deleted, `repetition 1 was never under load:\n${log.lines.join('\n')}`);
  return { outcome, log, namespace, pod: await deleted };
}

test('the echo pod deleted mid-repetition: that repetition invalid, naming the pod and its replacement; the next waits for it and is valid', {
  timeout: 180_000,
}, async () => {
  const { outcome, log, namespace, pod } = await runWithEchoDeleted('60s');
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const [first, second] = outcome.result.modes[0]!.repetitions;
  assert.equal(first!.valid, false);
  assert.deepEqual(
    first!.disruptions?.map((d) => [d.component, d.event, d.pod]),
    [['echo server', 'deleted', `${namespace}/${pod}`]],
  );
  assert.match(
    first!.invalidReasons.join('; '),
    new RegExp(
      `echo server pod ${namespace}/${pod} was deleted during the repetition \\(replaced by echo-\\S+\\); none of its \\d+ requests failed`,
    ),
  );
  // The local server behind the target did not go away: only the pod did, which is what is named.
  assert.ok(second!.valid, second!.invalidReasons.join('; '));
  assert.equal(second!.disruptions, undefined);
  assert.equal(outcome.result.verdict, 'invalid');
});

test('no replacement can become ready (every node cordoned): the run stops after kubernetes.readyTimeout, exit 3, naming the pod and why', {
  timeout: 180_000,
}, async () => {
  try {
    const { outcome, namespace, pod } = await runWithEchoDeleted('15s', () => setCordoned(true));
    assert.ok(outcome.error, 'the run stopped');
    assert.equal(exitCodeOf(outcome.error), 3);
    assert.match(
      outcome.error.message,
      new RegExp(
        `mode baseline: echo server pod ${namespace}/${pod} deleted during a repetition, and echo server in ${namespace}: 0 of 1 ready after waiting 15 s \\(kubernetes\\.readyTimeout\\); the run stops here`,
      ),
    );
    assert.match(outcome.error.message, /not scheduled: .*unschedulable/);
    assert.equal(outcome.result.verdict, 'invalid');
    assert.match(outcome.result.run.aborted ?? '', /0 of 1 ready/);
    assert.equal(outcome.result.modes[0]!.repetitions[0]!.valid, false, 'the repetition the pod was lost in is kept, invalid');
  } finally {
    await setCordoned(false);
  }
});
