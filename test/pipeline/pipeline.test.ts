// The pipeline's own logic (plan order, teardown, partial results, verdict, files written) with
// a platform that replays a real k6 summary instead of running k6: test/support/replay-platform.ts,
// handed in through PipelineDeps.platform. Real k6 runs: test/integration/, test/presets/.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateConfig } from '../../src/config/validate.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { tailDistortionRps } from '../../src/plan/tail-distortion.ts';
import type { RunResult } from '../../src/results/types.ts';
import { EnvironmentError } from '../../src/util/errors.ts';
import { silentLogger } from '../../src/util/log.ts';
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
