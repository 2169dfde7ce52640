// CPU per 1000 rps is read inside the measured window, against the real control plane with
// kwok's resource-usage emulation and a known usage profile: kwok's CEL expression makes the echo
// container use 300m during the first 15 s of every 30 s of the clock and nothing in the other 15.
// The load runner starts the real k6 as a busy phase begins (the measured window ends ~6 s in, well
// inside it) and returns once the idle phase has lasted 3 s, as a slow exec or summary copy would
// leave the sampler running on a real cluster: the sampler sees idle time before and after the
// window, which used to dilute the figure. And a repetition too short for two samples says so.
// (The profile reads the clock, not an annotation the test would set: one set on the nodes did not
// reach kwok's CEL within 5 s here; its watches keep ending, as this etcd lacks RequestWatchProgress.)
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
import type { LoadRunner } from '../../src/load/types.ts';

const BUSY_MILLICORES = 300;
const CYCLE_S = 30;
const BUSY_S = 15;
const IDLE_AFTER_MS = 3000;
const USAGE = {
  echo: {
    cpu: '0m',
    cpuExpression: `int(UnixSecond(Now())) % ${CYCLE_S} < ${BUSY_S} ? Quantity("${BUSY_MILLICORES}m") : Quantity("0m")`,
    memory: '20Mi',
  },
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

/** Where the clock is in the usage cycle, in ms. */
const cyclePosition = (ms: number) => ms % (CYCLE_S * 1000);
/** Idle milliseconds of the profile between two instants. */
function idleMsBetween(fromMs: number, toMs: number): number {
  let idle = 0;
  for (let t = fromMs; t < toMs; t += 10) if (cyclePosition(t) >= BUSY_S * 1000) idle += 10;
  return idle;
}

/** The real in-cluster runner, started as a busy phase begins and returning well into the idle one. */
class RunInBusyPhase extends KubernetesPlatform {
  readonly spans: { fromMs: number; toMs: number }[] = [];
  override loadRunner(): LoadRunner {
    const inner = super.loadRunner();
    return {
      version: () => inner.version(),
      run: async (invocation, onProgress, signal) => {
        const fromMs = Date.now();
        await sleep(CYCLE_S * 1000 - cyclePosition(fromMs) + 50);
        try {
          return await inner.run(invocation, onProgress, signal);
        } finally {
          const position = cyclePosition(Date.now());
          await sleep((position < BUSY_S * 1000 ? BUSY_S * 1000 - position : 0) + IDLE_AFTER_MS);
          this.spans.push({ fromMs, toMs: Date.now() });
        }
      },
    };
  }
}

const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

test('CPU per 1000 rps equals the known usage inside the measured window; idle time around it no longer dilutes it', async () => {
  const config = clusterConfig(cluster, {
    load: { rate: 20, duration: '4s', warmup: '1s', repetitions: 1 },
    out,
    kubernetes: { sampleInterval: '500ms', readyTimeout: '2m' },
  });
  const log = recordingLogger();
  let platform: RunInBusyPhase | undefined;
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => (platform = new RunInBusyPhase(context, { targetOverride: () => ({ url: url() }) })),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const rep = outcome.result.modes[0]!.repetitions[0]!;
  const app = rep.resources?.find((u) => u.group === 'app');
  assert.ok(app, JSON.stringify(rep.resources));
  // The sampler ran through idle time around the window (the runner alone spent this much in it).
  const [span] = platform!.spans;
  assert.ok(idleMsBetween(span!.fromMs, span!.toMs) >= IDLE_AFTER_MS, JSON.stringify(span));
  const busy = BUSY_MILLICORES * config.kubernetes.replicas;
  // Every in-window rate is the busy one (kwok accrues value-now × time since the last scrape).
  assert.ok(Math.abs(app.cpuMillicores.avg - busy) <= busy * 0.1, `app CPU ${JSON.stringify(app.cpuMillicores)}, expected ${busy}m`);
  // kwok accrues a whole scrape interval at the value it reads at the end, so an idle instant reads 0.
  assert.ok(app.cpuMillicores.min >= busy * 0.5, `no idle instant inside the window: ${JSON.stringify(app.cpuMillicores)}`);
  const expected = busy / (rep.achievedRps / 1000);
  assert.ok(
    Math.abs(app.cpuPer1000Rps! - expected) <= expected * 0.1,
    `CPU per 1000 rps ${app.cpuPer1000Rps}, expected ${expected.toFixed(0)}`,
  );
  // 4 s at a scrape every 500 ms: the samples inside the window, not the dozens of the whole sampling.
  assert.ok(app.samples >= 6 && app.samples <= 10, `samples ${app.samples}`);
  assert.deepEqual(
    log.lines.filter((l) => l.startsWith('WARN')),
    [],
  );
});

test('repetitions too short for two samples warn once, name the minimum duration, and report no CPU figure', async () => {
  // One scrape every 3 s cannot put two inside a 1 s window.
  const config = clusterConfig(cluster, {
    load: { rate: 20, duration: '1s', warmup: '1s', repetitions: 2 },
    out,
    kubernetes: { sampleInterval: '3s', readyTimeout: '2m' },
  });
  const log = recordingLogger();
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new KubernetesPlatform(context, { targetOverride: () => ({ url: url() }) }),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const reps = outcome.result.modes[0]!.repetitions;
  assert.equal(reps.length, 2);
  for (const rep of reps) {
    assert.ok(rep.requests > 0);
    assert.equal(rep.resources, undefined, JSON.stringify(rep.resources));
  }
  const warnings = log.lines.filter((l) => l.includes('held fewer than the two kubelet samples'));
  assert.equal(warnings.length, 1, log.lines.join('\n'));
  assert.match(
    warnings[0]!,
    /^WARN mode baseline: the measured window \(1\.0 s\) held fewer than the two kubelet samples CPU needs for .*baseline\/app.*measure for at least 60 s to get CPU per 1000 rps\.$/,
  );
});
