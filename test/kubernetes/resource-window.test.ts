// CPU per 1000 rps is read inside the measured window, against the real control plane with
// kwok's resource-usage emulation and a known usage profile: the echo container uses 300m while
// k6 runs (a node annotation the test sets around the real k6 run; kwok's CEL expression reads
// it) and nothing otherwise. The load runner waits 2.5 s before and after k6, as a slow exec or
// summary copy does on a real cluster, so the sampler sees as much idle time as busy: before the
// window, that idle time halved the figure. And a repetition too short for two samples says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo } from 'node:net';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest } from '../../src/platform/kubernetes/access.ts';
import type { LoadRunner } from '../../src/load/types.ts';

const BUSY = 'mesh-perf.test~1busy'; // JSON-pointer-escaped annotation key
const BUSY_MILLICORES = 300;
const IDLE_AROUND_MS = 2500;
const USAGE = {
  echo: { cpu: '0m', cpuExpression: `"mesh-perf.test/busy" in node.metadata.annotations ? Quantity("${BUSY_MILLICORES}m") : Quantity("0m")`, memory: '20Mi' },
  k6: { cpu: '40m', memory: '64Mi' },
  default: { cpu: '2m', memory: '8Mi' },
};

let cluster: LocalCluster;
let server: Server;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2, usage: USAGE });
  server = createServer((_req, res) => res.end('echo'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-window-'));
});

after(async () => {
  server?.close();
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Marks every node busy (or not): kwok's expression for the echo container reads it. */
async function setBusy(busy: boolean): Promise<void> {
  const access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  for (const node of cluster.nodes) {
    const patch = busy ? [{ op: 'add', path: `/metadata/annotations/${BUSY}`, value: 'true' }] : [{ op: 'remove', path: `/metadata/annotations/${BUSY}` }];
    const response = await rawRequest(access, `/api/v1/nodes/${node}`, { method: 'PATCH', body: JSON.stringify(patch), contentType: 'application/json-patch+json' });
    assert.equal(response.status, 200, response.body);
  }
}

/** The real in-cluster runner, with idle time around k6 and the echo container busy while k6 runs. */
class BusyWhileK6Runs extends KubernetesPlatform {
  override loadRunner(): LoadRunner {
    const inner = super.loadRunner();
    return {
      version: () => inner.version(),
      run: async (invocation, onProgress, signal) => {
        await sleep(IDLE_AROUND_MS);
        await setBusy(true);
        try {
          return await inner.run(invocation, onProgress, signal);
        } finally {
          await setBusy(false);
          await sleep(IDLE_AROUND_MS);
        }
      },
    };
  }
}

const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

test('CPU per 1000 rps equals the known usage inside the measured window; idle time around it no longer dilutes it', async () => {
  const config = clusterConfig(cluster, { load: { rate: 20, duration: '4s', warmup: '1s', repetitions: 1 }, out, kubernetes: { sampleInterval: '500ms', readyTimeout: '2m' } });
  const log = recordingLogger();
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new BusyWhileK6Runs(context, { targetOverride: () => ({ url: url() }) }),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const rep = outcome.result.modes[0]!.repetitions[0]!;
  const app = rep.resources?.find((u) => u.group === 'app');
  assert.ok(app, JSON.stringify(rep.resources));
  const busy = BUSY_MILLICORES * config.kubernetes.replicas;
  // Every in-window rate is the busy one (kwok accrues value-now × time since the last scrape).
  assert.ok(Math.abs(app.cpuMillicores.avg - busy) <= busy * 0.1, `app CPU ${JSON.stringify(app.cpuMillicores)}, expected ${busy}m`);
  assert.ok(app.cpuMillicores.min >= busy * 0.8, `no idle instant inside the window: ${JSON.stringify(app.cpuMillicores)}`);
  const expected = busy / (rep.achievedRps / 1000);
  assert.ok(Math.abs(app.cpuPer1000Rps! - expected) <= expected * 0.1, `CPU per 1000 rps ${app.cpuPer1000Rps}, expected ${expected.toFixed(0)}`);
  // 4 s at a scrape every 500 ms: the samples inside the window, not the ~18 of the whole sampling.
  assert.ok(app.samples >= 6 && app.samples <= 10, `samples ${app.samples}`);
  assert.deepEqual(log.lines.filter((l) => l.startsWith('WARN')), []);
});

test('a repetition too short for two samples warns, names the minimum duration, and reports no CPU figure', async () => {
  // One scrape every 3 s cannot put two inside a 1 s window.
  const config = clusterConfig(cluster, { load: { rate: 20, duration: '1s', warmup: '1s', repetitions: 1 }, out, kubernetes: { sampleInterval: '3s', readyTimeout: '2m' } });
  const log = recordingLogger();
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new KubernetesPlatform(context, { targetOverride: () => ({ url: url() }) }),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const rep = outcome.result.modes[0]!.repetitions[0]!;
  assert.ok(rep.requests > 0);
  assert.equal(rep.resources, undefined, JSON.stringify(rep.resources));
  const warning = log.lines.find((l) => l.includes('held fewer than two kubelet samples'));
  assert.ok(warning, log.lines.join('\n'));
  assert.match(warning, /^WARN mode baseline: the measured window \(1\.0 s\) held fewer than two kubelet samples of .*baseline\/app.*measure for at least 30 s to get CPU per 1000 rps\.$/);
});
