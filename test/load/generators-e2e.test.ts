// load.generators against real k6 1.4.2 and the project's echo server: one instance's raw samples
// give its own summary's statistics; two processes started together measure the same window
// (even when one takes far longer to initialize) and merge into one valid repetition; an
// instance killed mid-run makes the repetition invalid naming it, the CLI exits 3, and no k6
// process is left running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { buildInvocation, groupInvocations, runRepetition } from '../../src/load/engine.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { latencyOf, percentile } from '../../src/load/merge.ts';
import { parseSummary, iterationMs } from '../../src/load/k6-summary.ts';
import { startServer } from '../../src/platform/processes.ts';
import type { LatencyMs } from '../../src/results/types.ts';
import type { ArrivalEngine } from '../../src/load/pacer-params.ts';
import { pacerK6Path } from '../../src/tools/k6-pacer.ts';
import { localK6Dir } from '../support/k8s/tools.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const k6 = () => new LocalK6Runner(join(localK6Dir(), 'k6'));
const noProgress = () => {};

function trialFor(url: string, load: Record<string, unknown>) {
  const config = validateConfig({ platform: 'endpoints', modes: [{ name: 'a', url }], load: { repetitions: 1, ...load } });
  return buildPlan(config, 1).trials[0]!;
}

/** k6 writes durations from nanoseconds as "%f": 6 decimals, so raw and summary agree to 1e-6. */
function assertClose(actual: LatencyMs, expected: LatencyMs, what: string): void {
  for (const key of Object.keys(expected) as (keyof LatencyMs)[])
    assert.ok(Math.abs(actual[key] - expected[key]) <= 1e-6, `${what} ${key}: raw ${actual[key]}, summary ${expected[key]}`);
}

/** Live k6 processes whose command line carries the marker (and the segment, when given). */
function k6Pids(marker: string, segment?: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args.includes(`MESH_PERF_TEST_MARK=${marker}`) && (!segment || args.includes(segment))) pids.push(Number(entry));
  }
  return pids;
}

test("one instance: its raw samples give its summary's percentiles, failures, iterations and timeline", { timeout: 60_000 }, async () => {
  let n = 0;
  const server = createServer((_req, res) => {
    res.statusCode = ++n % 10 === 0 ? 503 : 200; // a failure every 10th request, kept apart by both
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const trial = trialFor(url, { rate: 250, duration: '3s', warmup: '1s' });
    const [invocation] = groupInvocations(buildInvocation(trial, { mode: 'a', url, env: {}, description: 'a' }, process.cwd()), 1);
    const outcome = await k6().run(invocation!, noProgress, new AbortController().signal);
    assert.equal(outcome.exitCode, 0, outcome.stderrTail);
    const summary = parseSummary(outcome.summary!);
    const raw = outcome.raw!;
    assert.ok(summary.failures > 0 && summary.requests - summary.failures > 500);
    assert.equal(raw.successMs.length, summary.requests - summary.failures);
    assert.equal(raw.failureMs.length, summary.failures);
    assertClose(latencyOf(raw.successMs), summary.latencyMs!, 'successes');
    assertClose(latencyOf(raw.failureMs), summary.failedLatencyMs!, 'failures');
    assertClose(latencyOf(raw.iterationMs), iterationMs(outcome.summary!)!, 'iterations');
    for (const point of summary.timeline) {
      const bucket = Float64Array.from(raw.successMs.filter((_, i) => raw.successBucket[i] === point.t)).sort();
      const failed = raw.failureBucket.filter((b) => b === point.t).length;
      assert.equal(bucket.length + failed, point.requests, `bucket ${point.t} requests`);
      assert.equal(failed, point.failures);
      for (const [p, value] of [
        [0.5, point.p50],
        [0.9, point.p90],
        [0.99, point.p99],
      ] as const)
        assert.ok(Math.abs(percentile(bucket, p) - value) <= 1e-6, `bucket ${point.t} p${p * 100}`);
    }
  } finally {
    server.close();
  }
});

async function twoProcesses(engine: ArrivalEngine) {
  const echo = await startServer('echo', ['--port', '0'], 'echo server');
  try {
    const url = `http://127.0.0.1:${echo.port}/`;
    const target = { mode: 'a', url, env: {}, description: 'a' };
    const trial = trialFor(url, { rate: 300, duration: '3s', warmup: '1s', generators: 2 });
    const runner = engine === 'pacer' ? new LocalK6Runner(pacerK6Path()) : k6();
    const run = await runRepetition(trial, target, runner, noProgress, new AbortController().signal, { generators: 2, engine });
    const rep = run.repetition;
    if (engine === 'pacer') {
      // Each process owns the arrivals k6 gives its segment: the schedule exactly, half each.
      assert.deepEqual(
        rep.instances!.map((i) => i.requests),
        [450, 450],
      );
      assert.ok(rep.lateSends, "the pacer's account, summed over the processes");
    }
    assert.ok(rep.valid, rep.invalidReasons.join('; '));
    const [one, two] = rep.instances!;
    assert.deepEqual(
      rep.instances!.map((i) => [i.where, i.segment, i.exitCode, i.problems]),
      [
        ['k6 process 1 of 2', '0:1/2', 0, []],
        ['k6 process 2 of 2', '1/2:1', 0, []],
      ],
    );
    assert.equal(rep.requests, one!.requests + two!.requests);
    assert.ok(Math.abs(one!.requests - two!.requests) <= 2, `split ${one!.requests} / ${two!.requests}`);
    assert.ok(Math.abs(rep.requests - 900) <= 3, `${rep.requests} requests for 300 rps × 3 s`);
    assert.equal(rep.latencyMs!.min, Math.min(one!.latencyMs!.min, two!.latencyMs!.min));
    assert.equal(rep.latencyMs!.max, Math.max(one!.latencyMs!.max, two!.latencyMs!.max));
    assert.equal(rep.timeline.length, 3);
    assert.equal(
      rep.timeline.reduce((sum, p) => sum + p.requests, 0),
      rep.requests,
    );
    // The summaries place each window to some tens of ms (stamped after the run); the barrier
    // test below compares first requests, to the millisecond.
    const spread = Math.abs(one!.window!.startMs - two!.window!.startMs);
    assert.ok(spread < 250, `measured windows start ${spread} ms apart`);
    assert.deepEqual(run.window, {
      startMs: Math.max(one!.window!.startMs, two!.window!.startMs),
      endMs: Math.min(one!.window!.endMs, two!.window!.endMs),
    });
  } finally {
    await echo.stop();
  }
}

test('two processes: one merged, valid repetition, each with half the schedule, measured together', { timeout: 90_000 }, async () => {
  await twoProcesses('arrival-rate');
});

test("two processes paced by mesh-perf's pacer: the same, each sending exactly its segment's arrivals", { timeout: 90_000 }, async () => {
  await twoProcesses('pacer');
});

test('the barrier: an instance that takes seconds to initialize does not let the other start early', { timeout: 90_000 }, async () => {
  const echo = await startServer('echo', ['--port', '0'], 'echo server');
  try {
    const url = `http://127.0.0.1:${echo.port}/`;
    const trial = trialFor(url, { rate: 200, duration: '2s', warmup: '0s' });
    const [fast, slow] = groupInvocations(buildInvocation(trial, { mode: 'a', url, env: {}, description: 'a' }, process.cwd()), 2);
    // The second instance initializes 2,000 VUs (its half of 4,000); the first 10.
    const params = JSON.parse(slow!.env.MESH_PERF_PARAMS!);
    params.scenarios.measure.preAllocatedVUs = params.scenarios.measure.maxVUs = 4000;
    slow!.env = { ...slow!.env, MESH_PERF_PARAMS: JSON.stringify(params) };
    const started = Date.now();
    const outcomes = await k6().runGroup([fast!, slow!], noProgress, new AbortController().signal);
    const elapsed = Date.now() - started;
    const windows = outcomes.map((o) => {
      const s = JSON.parse(o.summary!) as { state: { testRunDurationMs: number }; mesh_perf: { endedAtMs: number } };
      return s.mesh_perf.endedAtMs - s.state.testRunDurationMs;
    });
    const firstSamples = outcomes.map((o) => o.raw!.firstMs);
    // The test can only fail if the slow initialization outlasts the 250 ms tolerance by a margin:
    // the group's time beyond the 2 s run is that initialization (1,500 VUs took 0.47 to 0.7 s on
    // this 2-core VM, once too close to a 500 ms precondition; 2,000 VUs and 350 ms, 1.4 × the
    // tolerance, keep the margin without making the test depend on a slow machine).
    assert.ok(elapsed - 2000 > 350, `the group took ${elapsed} ms: the slow instance's initialization should show`);
    assert.ok(Math.abs(windows[0]! - windows[1]!) < 250, `runs started ${windows[1]! - windows[0]!} ms apart`);
    // Unbarriered, the fast one would start seconds early; resumed, the 2,000-VU one still takes
    // up to ~100 ms to get its VUs going (seen: 96 ms), inside the merge's 250 ms limit.
    assert.ok(Math.abs(firstSamples[0]! - firstSamples[1]!) < 250, `first requests ${firstSamples[1]! - firstSamples[0]!} ms apart`);
  } finally {
    await echo.stop();
  }
});

test('an instance killed mid-run: the repetition is invalid naming it, exit 3, nothing left running', { timeout: 120_000 }, async () => {
  const echo = await startServer('echo', ['--port', '0'], 'echo server');
  const marker = randomBytes(6).toString('hex');
  try {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'mesh-perf.yaml'),
        `platform: endpoints
modes: [{ name: a, url: "http://127.0.0.1:${echo.port}/", env: { MESH_PERF_TEST_MARK: "${marker}" } }]
load: { rate: 200, duration: 6s, warmup: 1s, repetitions: 1, generators: 2 }
`,
      );
      const running = runCliInProcess(['run', '--out', 'out'], { cwd: dir });
      // Kill the second process once the measured scenario is under way.
      const deadline = Date.now() + 30_000;
      let killed: number | undefined;
      while (killed === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        const [pid] = k6Pids(marker, '1/2:1');
        if (pid && k6Pids(marker).length === 2) {
          await new Promise((r) => setTimeout(r, 3000));
          process.kill(pid, 'SIGKILL');
          killed = pid;
        }
      }
      assert.ok(killed, 'the second k6 process was found');
      const result = await running;
      assert.equal(result.code, 3, result.stderr);
      assert.deepEqual(k6Pids(marker), [], 'no k6 process of the run is left');
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
      const rep = results.modes[0].repetitions[0];
      assert.equal(results.verdict, 'invalid');
      assert.equal(rep.valid, false);
      assert.ok(rep.invalidReasons.includes('k6 process 2 of 2 exited with code 137 (killed by SIGKILL)'), rep.invalidReasons.join('\n'));
      assert.ok(
        rep.invalidReasons.includes('k6 process 1 of 2 was stopped because k6 process 2 of 2 died (exit code 137)'),
        rep.invalidReasons.join('\n'),
      );
      assert.deepEqual(rep.instances[1].problems.slice(0, 2), ['exited with code 137 (killed by SIGKILL)', 'wrote no summary']);
      assert.match(result.stderr, /k6 process 2 of 2 exited with code 137/);
    });
  } finally {
    await echo.stop();
  }
});

test('cancelling a group stops every process: the run says cancelled, nothing is left running', { timeout: 60_000 }, async () => {
  const echo = await startServer('echo', ['--port', '0'], 'echo server');
  const marker = randomBytes(6).toString('hex');
  try {
    const url = `http://127.0.0.1:${echo.port}/`;
    const trial = trialFor(url, { rate: 100, duration: '20s', warmup: '1s', generators: 2 });
    const controller = new AbortController();
    const target = { mode: 'a', url, env: { MESH_PERF_TEST_MARK: marker }, description: 'a' };
    const running = runRepetition(trial, target, k6(), noProgress, controller.signal, { generators: 2 });
    while (k6Pids(marker).length < 2) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2000));
    const started = Date.now();
    controller.abort();
    await assert.rejects(running, (error: Error) => error.name === 'CancelledError');
    assert.ok(Date.now() - started < 10_000, 'stopped within seconds, not at the end of the schedule');
    assert.deepEqual(k6Pids(marker), []);
  } finally {
    await echo.stop();
  }
});
