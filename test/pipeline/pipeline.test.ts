// The pipeline's own logic (plan order, teardown, partial results, verdict, files written) with
// a platform that replays a real k6 summary instead of running k6: test/support/replay-platform.ts,
// handed in through PipelineDeps.platform. Real k6 runs: test/integration/, test/presets/.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateConfig } from '../../src/config/validate.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { tailDistortionRps } from '../../src/plan/tail-distortion.ts';
import { pathInvalidReasons } from '../../src/platform/kubernetes/mesh/proxy-counters.ts';
import type { DisruptionWatch, PathProbe } from '../../src/platform/types.ts';
import type { Disruption, RunResult } from '../../src/results/types.ts';
import { EnvironmentError } from '../../src/util/errors.ts';
import { silentLogger } from '../../src/util/log.ts';
import { seededRandom } from '../../src/util/random.ts';
import { gaussian } from '../analysis/synthetic.ts';
import { withTempDir } from '../support/cli.ts';
import { REPLAY_LOAD, replayPlatform } from '../support/replay-platform.ts';

const config = (extra: Record<string, unknown> = {}) =>
  validateConfig({
    platform: 'local',
    out: 'out',
    modes: [{ name: 'direct' }, { name: 'proxied' }],
    load: { ...REPLAY_LOAD, repetitions: 3 },
    ...extra,
  });

test('interleaved blocks, one teardown, results.json, summary.md and report.html with the overhead', async () => {
  await withTempDir(async (dir) => {
    const replay = replayPlatform({ slowdown: { proxied: 1.5 } });
    const outcome = await runPipeline(config({ plan: { seed: 7 } }), {
      log: silentLogger,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.result.verdict, 'pass', outcome.result.verdictReasons.join('\n'));
    assert.equal(replay.calls[0], 'prepare');
    assert.equal(replay.calls.at(-1), 'teardown');
    assert.equal(replay.calls.filter((c) => c === 'teardown').length, 1);
    const runs = replay.calls.filter((c) => c.startsWith('run:'));
    assert.equal(runs.length, 6);
    for (let block = 0; block < 3; block++)
      assert.deepEqual(runs.slice(block * 2, block * 2 + 2).sort(), ['run:direct', 'run:proxied'], `block ${block + 1}`);
    assert.deepEqual((await readdir(outcome.outDir)).sort(), ['report.html', 'results.json', 'summary.md']);
    const written = JSON.parse(await readFile(join(outcome.outDir, 'results.json'), 'utf8')) as RunResult;
    assert.equal(written.plan.seed, 7);
    assert.deepEqual(
      written.modes.map((m) => [m.name, m.repetitions.length]),
      [
        ['direct', 3],
        ['proxied', 3],
      ],
    );
    const p50 = (name: string) => written.modes.find((m) => m.name === name)!.repetitions[0]!.latencyMs!.p50;
    assert.ok(Math.abs(p50('proxied') / p50('direct') - 1.5) < 1e-9, `${p50('proxied')} vs ${p50('direct')}`);
    const overhead = written.analysis?.overheads?.find((o) => o.mode === 'proxied' && o.metric === 'p50');
    assert.equal(overhead?.ratio?.value, 1.5, JSON.stringify(overhead));
  });
});

test('a threshold the replayed latencies break fails the run, naming the gate', async () => {
  await withTempDir(async (dir) => {
    const replay = replayPlatform();
    const outcome = await runPipeline(config({ gates: { thresholds: ['p(99) < 1ms'] } }), {
      log: silentLogger,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    assert.equal(outcome.result.verdict, 'fail');
    assert.match(outcome.result.verdictReasons.join('\n'), /^direct \[200rps\] p\(99\): 1\.79 ms .*threshold < 1 ms → fail/m);
  });
});

test('a rate above the tail-distortion rate for this runner is warned about once, before any load, as plan does', async () => {
  await withTempDir(async (dir) => {
    const replay = replayPlatform();
    const said: string[] = [];
    const log = { ...silentLogger, warn: (m: string) => said.push(`warn:${m}`), phase: (m: string) => said.push(`phase:${m}`) };
    const rate = tailDistortionRps(availableParallelism()) + 1;
    await runPipeline(config({ load: { ...REPLAY_LOAD, rate, repetitions: 1 } }), {
      log,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    const warnings = said.filter((m) => m.startsWith('warn:'));
    assert.equal(warnings.length, 1, said.join('\n'));
    assert.match(
      warnings[0]!,
      /^warn:Profile "[^"]+" \([\d,]+ rps\) is above [\d,]+ rps, the rate above which a \d+-core runner's own work/,
    );
    assert.ok(said.indexOf(warnings[0]!) < said.findIndex((m) => m.startsWith('phase:Measuring')), 'before any load');
    said.length = 0;
    await runPipeline(config(), { log, signal: new AbortController().signal, cwd: dir, platform: replayPlatform().factory });
    assert.deepEqual(
      said.filter((m) => m.startsWith('warn:')),
      [],
    );
  });
});

test('a platform that cannot prepare: error returned, teardown still called, results written invalid', async () => {
  await withTempDir(async (dir) => {
    const replay = replayPlatform({ prepareError: new EnvironmentError('cluster unreachable') });
    const outcome = await runPipeline(config(), {
      log: silentLogger,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    assert.ok(outcome.error instanceof EnvironmentError);
    assert.deepEqual(replay.calls, ['prepare', 'teardown']);
    const written = JSON.parse(await readFile(join(outcome.outDir, 'results.json'), 'utf8')) as RunResult;
    assert.equal(written.verdict, 'invalid');
    assert.match(written.run.aborted ?? '', /cluster unreachable/);
  });
});

test('cancelled after the first repetition: no more load, partial results say cancelled', async () => {
  await withTempDir(async (dir) => {
    const controller = new AbortController();
    const replay = replayPlatform({ afterRun: (runs) => runs === 1 && controller.abort() });
    const outcome = await runPipeline(config(), { log: silentLogger, signal: controller.signal, cwd: dir, platform: replay.factory });
    assert.equal(replay.calls.filter((c) => c.startsWith('run:')).length, 1);
    assert.equal(replay.calls.at(-1), 'teardown');
    assert.equal(outcome.result.verdict, 'invalid');
    assert.match(outcome.result.verdictReasons.join(' '), /cancelled/);
  });
});

test('a run slower than its nominal pace: the looks the time cannot reach move to where it ends, and the results say which were planned', async () => {
  await withTempDir(async (dir) => {
    // Each repetition takes twice its nominal 4 s on the clock the pipeline reads (k6's start-up,
    // a busy machine); the head arm's p50 wanders ±12 % around the base's, so no look decides early.
    let clockMs = 0;
    const r = seededRandom(5);
    const replay = replayPlatform({
      jitter: (mode) => (mode === 'svc-head' ? Math.exp(0.12 * gaussian(r)) : 1),
      afterRun: () => {
        clockMs += 8_000;
      },
    });
    const logged: string[] = [];
    const log = { ...silentLogger, info: (line: string) => logged.push(line), phase: (line: string) => logged.push(line) };
    const outcome = await runPipeline(
      validateConfig({
        platform: 'local',
        out: 'out',
        modes: [{ name: 'svc', arms: { head: { env: { SIDE: 'head' } } } }],
        load: REPLAY_LOAD,
        // 10 blocks × 2 arms × 8 s = 160 s; 200 s left hold 12 more blocks of 16 s: looks 10, 20, 22.
        plan: { seed: 3, budget: { maxDuration: '6m' } },
      }),
      { log, signal: new AbortController().signal, cwd: dir, platform: replay.factory, clock: () => clockMs },
    );
    assert.equal(outcome.error, undefined);
    const stopping = outcome.result.analysis!.stopping!;
    assert.deepEqual(stopping.plannedLooks, [10, 20, 30, 40], JSON.stringify(stopping));
    assert.deepEqual(stopping.looks, [10, 20, 22]);
    assert.equal(stopping.reason, 'budget-time');
    assert.equal(stopping.blocks, 22);
    const gate = outcome.result.analysis!.ab!.gates[0]!;
    assert.equal(gate.reason, 'budget-spent', 'undecided at the moved last look');
    assert.equal(gate.pairs, 22);
    assert.ok(
      logged.some((l) =>
        /at the measured pace \(2\.00 × nominal\) plan\.budget\.maxDuration 6m holds 22 blocks; looks now 10, 20, 22/.test(l),
      ),
      logged.join('\n'),
    );
    const summary = await readFile(join(outcome.outDir, 'summary.md'), 'utf8');
    assert.match(
      summary,
      /stopped at look 3 of 3: plan\.budget\.maxDuration held no more blocks at the measured pace; looks planned at 10, 20, 30, 40 blocks, the time budget at the measured pace held 10, 20, 22/,
    );
  });
});

test('three modes with arms share one alpha, and the final re-analysis keeps the decisions of the look that ended the run', async () => {
  await withTempDir(async (dir) => {
    const r = seededRandom(11);
    const replay = replayPlatform({
      slowdown: { 'a-head': 1.3 },
      jitter: (mode) => (mode.endsWith('-head') ? Math.exp(0.04 * gaussian(r)) : 1),
    });
    const arms = { head: { env: { SIDE: 'head' } } };
    const outcome = await runPipeline(
      validateConfig({
        platform: 'local',
        out: 'out',
        modes: [
          { name: 'a', arms },
          { name: 'b', arms },
          { name: 'c', arms },
        ],
        load: REPLAY_LOAD,
        plan: { seed: 4 },
      }),
      { log: silentLogger, signal: new AbortController().signal, cwd: dir, platform: replay.factory },
    );
    const analysis = outcome.result.analysis!;
    assert.equal(analysis.stopping!.look, 0, 'decided at the first look');
    const [a, b, c] = analysis.ab!.gates;
    assert.deepEqual([a!.decision, b!.decision, c!.decision], ['fail', 'pass', 'pass']);
    assert.equal(a!.family, 3);
    assert.equal(a!.alphaShare, 1 / 3);
    // 12 minutes hold 30 blocks of six 4 s arms (10 × 6 × 4 s, then 20 × 24 s): looks 10, 20, 30,
    // and the first look's level at a third of 1 % is 0.01/3 × (10/30)². Spending everything at the
    // look that ended the run would have shown 0.01/3 and judged the gates at it.
    assert.deepEqual(analysis.stopping!.looks, [10, 20, 30]);
    assert.ok(Math.abs(a!.nominalAlpha - 0.01 / 3 / 9) < 1e-9, String(a!.nominalAlpha));
    assert.ok(a!.p <= a!.nominalAlpha);
    assert.equal(outcome.result.verdict, 'fail');
    assert.match(analysis.verdictReasons.join('\n'), /a head vs base \[200rps\]: .*1\/3 of the run's alpha over 3 A\/B gates/);
  });
});

test("a repetition whose traffic skipped its mode's proxies (their own counters say so) is invalid, and so is the run", async () => {
  await withTempDir(async (dir) => {
    // What a Kubernetes platform's probe reads: ztunnel ran (one pod read) and counted nothing of
    // "proxied" (an ambient mode whose namespace was never enrolled), nothing of "direct" either.
    const ztunnel = {
      proxy: 'ztunnel' as const,
      pods: 1,
      unit: 'connections' as const,
      count: 0,
      mtls: 0,
      plaintext: 0,
      bytesReceived: 0,
      peers: [],
    };
    const kinds = { direct: 'baseline', proxied: 'istio-ambient' } as const;
    const probe: PathProbe = {
      start: async () => undefined,
      stop: async () => ({ proxies: [ztunnel] }),
      invalidReasons: (mode, requests, evidence) => pathInvalidReasons(kinds[mode as keyof typeof kinds], false, requests, evidence),
    };
    const replay = replayPlatform({ pathProbe: probe });
    const outcome = await runPipeline(config({ load: { ...REPLAY_LOAD, repetitions: 2 } }), {
      log: silentLogger,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    const [direct, proxied] = outcome.result.modes;
    for (const rep of direct!.repetitions) assert.ok(rep.valid, rep.invalidReasons.join('; '));
    for (const rep of proxied!.repetitions) {
      assert.equal(rep.valid, false);
      assert.match(
        rep.invalidReasons.join('\n'),
        /^the traffic did not cross its ztunnel: 1 ztunnel pod counted none of its \d+ requests/m,
      );
      assert.deepEqual(rep.path, { proxies: [ztunnel] });
    }
    assert.equal(outcome.result.verdict, 'invalid', outcome.result.verdictReasons.join('\n'));
  });
});

test('a repetition across a disruption is invalid with the disruption first, before what it did to the load; the mode waits for its pods before the next', async () => {
  await withTempDir(async (dir) => {
    // What a Kubernetes platform's watch finds when the echo pod is deleted mid-repetition: the
    // pod went, and k6 could not start every arrival while nothing answered.
    const deleted: Disruption = { pod: 'mesh-perf-b/echo-1', component: 'echo server', event: 'deleted', replacement: 'echo-2' };
    const settled: string[] = [];
    let looked = 0;
    let loaded = 0;
    const watch: DisruptionWatch = {
      start: async () => undefined,
      stop: async (mode) => (mode === 'proxied' && ++looked === 1 ? [deleted] : []),
      settle: async (mode) => void settled.push(mode),
      reasons: (disruptions) => disruptions.map((d) => `${d.component} pod ${d.pod} was ${d.event} during the repetition`),
    };
    const replay = replayPlatform({ disruptionWatch: watch, dropped: (mode) => (mode === 'proxied' && ++loaded === 1 ? 90 : 0) });
    const outcome = await runPipeline(config({ load: { ...REPLAY_LOAD, repetitions: 2 } }), {
      log: silentLogger,
      signal: new AbortController().signal,
      cwd: dir,
      platform: replay.factory,
    });
    const [direct, proxied] = outcome.result.modes;
    for (const rep of direct!.repetitions) assert.ok(rep.valid, rep.invalidReasons.join('; '));
    const [first, second] = proxied!.repetitions;
    assert.equal(first!.valid, false);
    assert.deepEqual(first!.disruptions, [deleted]);
    assert.equal(first!.invalidReasons[0], 'echo server pod mesh-perf-b/echo-1 was deleted during the repetition');
    assert.match(first!.invalidReasons[1] ?? '', /^90 dropped iterations: /);
    assert.deepEqual(settled, ['proxied']);
    assert.ok(second!.valid, second!.invalidReasons.join('; '));
  });
});

test("what the run ran is recorded: the platform's images and kind's facts, the files the config names, each mode's fingerprint", async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'script.js'), 'export default function () {}\n');
    const replay = replayPlatform({
      provenance: {
        images: { 'istiod/discovery': `docker.io/istio/pilot@sha256:${'1'.repeat(64)}` },
        kind: { version: 'v0.31.0', nodeImage: 'kindest/node:v1.35.0', nodeImageId: `sha256:${'2'.repeat(64)}`, docker: '28.5.1' },
      },
    });
    process.env.MESH_PERF_ACTION_SHA = 'a'.repeat(40);
    process.env.ImageOS = 'ubuntu24';
    try {
      const outcome = await runPipeline(config({ load: { ...REPLAY_LOAD, repetitions: 1, script: 'script.js' } }), {
        log: silentLogger,
        signal: new AbortController().signal,
        cwd: dir,
        platform: replay.factory,
      });
      const provenance = outcome.result.run.provenance!;
      assert.deepEqual(provenance.kind, { version: '0.31.0', nodeImage: `kindest/node:v1.35.0 (image ID sha256:${'2'.repeat(64)})` });
      assert.deepEqual(provenance.runner, { imageOS: 'ubuntu24', docker: '28.5.1' });
      assert.deepEqual(provenance.images, { 'istiod/discovery': `docker.io/istio/pilot@sha256:${'1'.repeat(64)}` });
      assert.deepEqual(provenance.action, { sha: 'a'.repeat(40) });
      assert.deepEqual(provenance.files, { 'script.js': createHash('sha256').update('export default function () {}\n').digest('hex') });
      assert.deepEqual(Object.keys(provenance.settings), ['direct', 'proxied']);
    } finally {
      delete process.env.MESH_PERF_ACTION_SHA;
      delete process.env.ImageOS;
    }
  });
});
