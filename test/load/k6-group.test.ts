// The group protocol (load/k6-group.ts) against an adapter whose instances are in memory: the
// barrier (no resume until every instance is paused), a death stopping the others and saying why,
// a resume that fails, a stuck initialization, a cancel, and cleanup in every case. The real
// adapters run under real k6 in test/load/generators-e2e.test.ts (processes) and
// test/kubernetes/generators.test.ts (pods).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type GroupAdapter, runK6Group } from '../../src/load/k6-group.ts';
import type { K6Invocation } from '../../src/load/types.ts';
import { EnvironmentError } from '../../src/util/errors.ts';

interface Fake {
  index: number;
  /** ms after start when it reports paused; undefined: never. */
  pausedAfterMs?: number;
  /** Exit code it dies with right after it is started, instead of waiting for the resume. */
  diesWith?: number;
  resumeFails?: boolean;
  startedAt?: number;
  end?: (code: number) => void;
}

const invocation = (i: number): K6Invocation => ({
  files: {},
  entry: 'x.js',
  args: [],
  env: {},
  summaryFile: 's.json',
  expectedSeconds: 1,
  instance: { index: i, count: 2, segment: '', sequence: '' },
});

function fakeAdapter(fakes: Fake[], initTimeoutMs = 2000) {
  const log: string[] = [];
  const adapter: GroupAdapter<Fake, { exitCode: number }> = {
    pollMs: 5,
    initTimeoutMs,
    async prepare(_invocation, index) {
      log.push(`prepare ${index}`);
      return fakes[index]!;
    },
    where: (f) => `k6 ${f.index + 1} of ${fakes.length}`,
    start(f) {
      f.startedAt = Date.now();
      const ended = new Promise<{ exitCode: number }>((resolve) => {
        f.end = (exitCode) => resolve({ exitCode });
      });
      if (f.diesWith !== undefined) setTimeout(() => f.end!(f.diesWith!), 10);
      return { launched: Promise.resolve(), ended };
    },
    async pausedBeforeRun(f) {
      return f.pausedAfterMs !== undefined && Date.now() - f.startedAt! >= f.pausedAfterMs;
    },
    async resume(f) {
      if (f.resumeFails) throw new Error('HTTP 500: no');
      log.push(`resume ${f.index} after ${Date.now() - f.startedAt!} ms`);
      setTimeout(() => f.end!(0), 10);
    },
    async stop(f) {
      log.push(`stop ${f.index}`);
      setTimeout(() => f.end!(130), 5);
    },
    async collect(f, end) {
      return { exitCode: end instanceof Error ? 255 : end.exitCode, extraFiles: {}, stderrTail: `fake ${f.index}` };
    },
    async cleanup(f) {
      log.push(`cleanup ${f.index}`);
    },
  };
  return { adapter, log };
}

const run = (adapter: GroupAdapter<Fake, { exitCode: number }>, n: number, signal = new AbortController().signal) =>
  runK6Group(
    adapter,
    Array.from({ length: n }, (_, i) => invocation(i)),
    () => {},
    signal,
  );

test('the barrier: no instance is resumed before the slowest reports paused; all end normally and are cleaned up', async () => {
  const fakes: Fake[] = [
    { index: 0, pausedAfterMs: 0 },
    { index: 1, pausedAfterMs: 120 },
  ];
  const { adapter, log } = fakeAdapter(fakes);
  const outcomes = await run(adapter, 2);
  assert.deepEqual(
    outcomes.map((o) => [o.where, o.exitCode, o.stoppedBecause]),
    [
      ['k6 1 of 2', 0, undefined],
      ['k6 2 of 2', 0, undefined],
    ],
  );
  const resumes = log.filter((l) => l.startsWith('resume'));
  assert.equal(resumes.length, 2);
  for (const line of resumes) assert.ok(Number(/after (\d+) ms/.exec(line)![1]) >= 115, line);
  assert.deepEqual(
    log.filter((l) => l.startsWith('cleanup')),
    ['cleanup 0', 'cleanup 1'],
  );
});

test('one instance dies: the others are stopped saying why, and no one is resumed', async () => {
  const fakes: Fake[] = [
    { index: 0, pausedAfterMs: 0 },
    { index: 1, diesWith: 137 },
    { index: 2, pausedAfterMs: 0 },
  ];
  const { adapter, log } = fakeAdapter(fakes);
  const outcomes = await run(adapter, 3);
  assert.deepEqual(
    outcomes.map((o) => [o.exitCode, o.stoppedBecause]),
    [
      [130, 'k6 2 of 3 died (exit code 137)'],
      [137, undefined],
      [130, 'k6 2 of 3 died (exit code 137)'],
    ],
  );
  assert.equal(log.filter((l) => l.startsWith('resume')).length, 0);
  assert.equal(log.filter((l) => l.startsWith('cleanup')).length, 3);
});

test('a resume that fails stops the whole group, naming the instance and what it said', async () => {
  const fakes: Fake[] = [
    { index: 0, pausedAfterMs: 0 },
    { index: 1, pausedAfterMs: 0, resumeFails: true },
  ];
  const { adapter } = fakeAdapter(fakes);
  const outcomes = await run(adapter, 2);
  assert.equal(outcomes[1]!.stoppedBecause, 'k6 2 of 2 could not be resumed: HTTP 500: no');
});

test('an instance that never finishes initializing: the group is stopped and the error names it', async () => {
  const fakes: Fake[] = [{ index: 0, pausedAfterMs: 0 }, { index: 1 }];
  const { adapter, log } = fakeAdapter(fakes, 150);
  await assert.rejects(
    run(adapter, 2),
    (error: Error) =>
      error instanceof EnvironmentError &&
      error.message === 'k6 2 of 2 did not finish initializing its VUs within 0.15 s; the group was stopped before it started',
  );
  assert.deepEqual(
    log.filter((l) => l.startsWith('stop') || l.startsWith('cleanup')),
    ['stop 0', 'stop 1', 'cleanup 0', 'cleanup 1'],
  );
});

test('cancelled while initializing: every instance stopped, the outcomes say cancelled', async () => {
  const fakes: Fake[] = [{ index: 0, pausedAfterMs: 0 }, { index: 1 }];
  const { adapter } = fakeAdapter(fakes);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const outcomes = await run(adapter, 2, controller.signal);
  assert.deepEqual(
    outcomes.map((o) => o.stoppedBecause),
    ['the run was cancelled', 'the run was cancelled'],
  );
});
