// A confirmation decided end to end through the real pipeline and A/B gate, on a platform that
// replays a real k6 summary (test/support/replay-platform.ts) with each arm's latency set by its
// settings, as the local platform's injected delay would: a step one setting makes is confirmed
// and named, the cause among four settings bisected, a harmless change withdrawn, a runner that
// moved told from a step that did not hold, and what cannot be an arm (or is gone, or masked)
// said without running anything. Real load: test/integration/confirm.test.ts, bench/confirm.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Config } from '../../src/config/validate.ts';
import type { ModeConfig } from '../../src/config/schema.ts';
import { type ConfirmDeps, confirmChangePoint } from '../../src/confirm/run.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { wordConfirmation } from '../../src/report/confirm-words.ts';
import type { RunResult } from '../../src/results/types.ts';
import { silentLogger } from '../../src/util/log.ts';
import { seededRandom } from '../../src/util/random.ts';
import { withTempDir } from '../support/cli.ts';
import { REPLAY_LOAD, replayPlatform } from '../support/replay-platform.ts';
import { changePoint, storedRun } from './support.ts';

const OPTIONS = { maxDuration: '30m', maxBisectRuns: 3, duration: REPLAY_LOAD.duration, warmup: REPLAY_LOAD.warmup, seed: 11 };

/** Confirmation runs on the replay platform: `factorOf` says how much slower an arm's settings make it; 1 % noise per repetition. */
function deps(dir: string, factorOf: (mode: ModeConfig) => number, rounds: RunResult[] = [], prepareError?: Error): ConfirmDeps {
  const random = seededRandom(5);
  const noise = () => Math.exp(0.01 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  return {
    runRound: async (config: Config, index: number) => {
      const replay = replayPlatform({ factorOf, jitter: noise, ...(prepareError ? { prepareError } : {}) });
      const { result } = await runPipeline(
        { ...config, out: `${dir}/run-${index}` },
        { log: silentLogger, signal: new AbortController().signal, cwd: dir, platform: replay.factory },
      );
      rounds.push(result);
      return result;
    },
    now: () => new Date('2026-11-21T04:00:00Z'),
    runner: 'linux-x64-2c',
    tool: 'test',
  };
}

const local = (mode: Record<string, unknown>) =>
  storedRun({ platform: 'local', load: { ...REPLAY_LOAD }, modes: [{ name: 'svc', ...mode }] });
const slowerAt = (delay: string, factor: number) => (mode: ModeConfig) => (mode.local?.delay === delay ? factor : 1);

test('one setting moved it: confirmed in one A/B run, the setting named', async () => {
  await withTempDir(async (dir) => {
    const input = {
      changePoint: changePoint('svc', 'p50'),
      suite: 'daily',
      before: local({ local: { delay: '20ms' } }),
      after: local({ local: { delay: '24ms' } }),
    };
    const record = wordConfirmation(await confirmChangePoint(input, OPTIONS, deps(dir, slowerAt('24ms', 1.2))));
    assert.equal(record.verdict, 'confirmed', record.line);
    assert.deepEqual(record.culprits, [{ settings: ['local.delay'], together: false }]);
    assert.equal(record.rounds.length, 1);
    assert.match(
      record.line,
      /^confirmed: local\.delay 20ms → 24ms moved 200rps · svc · p50 by \+\d+\.\d+% \[\+\d+\.\d+%, \+\d+\.\d+%\] in a same-run A\/B \(\d+ blocks\)$/,
    );
  });
});

test('the cause among four differing settings is named by bisection; the others are not', async () => {
  await withTempDir(async (dir) => {
    const rounds: RunResult[] = [];
    const input = {
      changePoint: changePoint('svc', 'p50'),
      suite: 'daily',
      before: local({ local: { delay: '20ms' }, env: { A: '1', B: '1', C: '1' } }),
      after: local({ local: { delay: '24ms' }, env: { A: '2', B: '2', C: '2' } }),
    };
    const record = wordConfirmation(await confirmChangePoint(input, OPTIONS, deps(dir, slowerAt('24ms', 1.15), rounds)));
    assert.equal(record.verdict, 'confirmed', record.line);
    assert.deepEqual(record.culprits, [{ settings: ['local.delay'], together: false }]);
    assert.deepEqual(
      record.rounds.map((r) => [r.purpose, r.groups.map((g) => `${g.settings.join('+')}:${g.decision}`)]),
      [
        ['ab', ['env.A+env.B+env.C+local.delay:fail']],
        ['bisect', ['env.A+env.B:pass', 'env.C+local.delay:fail']],
        ['bisect', ['env.C:pass', 'local.delay:fail']],
      ],
    );
    // The bisection runs are real confirmation runs: two modes with arms side by side.
    assert.deepEqual(
      rounds[1]!.modes.map((m) => m.name),
      ['svc-g1-base', 'svc-g1-head', 'svc-g2-base', 'svc-g2-head'],
    );
    assert.match(record.line, /^confirmed: local\.delay 20ms → 24ms moved/);
  });
});

test('a harmless change is withdrawn; what could not be an arm beside it makes it "cannot re-run"', async () => {
  await withTempDir(async (dir) => {
    const before = local({ local: { delay: '20ms' }, env: { A: '1' } });
    const after = local({ local: { delay: '20ms' }, env: { A: '2' } });
    const withdrawn = wordConfirmation(
      await confirmChangePoint(
        { changePoint: changePoint('svc'), suite: 'daily', before, after },
        OPTIONS,
        deps(dir, () => 1),
      ),
    );
    assert.equal(withdrawn.verdict, 'withdrawn', withdrawn.line);
    assert.match(withdrawn.line, /^withdrawn: env\.A 1 → 2 measure .* within \d+\.\d+%: the step was noise or the environment$/);
    const newK6 = { ...after, run: { ...after.run, tools: { ...after.run.tools, k6: '1.5.0' } } };
    const fixed = wordConfirmation(
      await confirmChangePoint(
        { changePoint: changePoint('svc'), suite: 'daily', before, after: newK6 },
        OPTIONS,
        deps(dir, () => 1),
      ),
    );
    assert.equal(fixed.verdict, 'cannot-rerun', fixed.line);
    assert.match(fixed.line, /what else changed cannot be an arm here: tools\.k6 \S+ → 1\.5\.0 \(k6/);
  });
});

test('nothing an arm can carry: an A/A says whether the level stayed (environment) or came back (withdrawn)', async () => {
  await withTempDir(async (dir) => {
    const run = local({ local: { delay: '20ms' } });
    // Today's level on the replay platform, to place the change point's segments around it.
    const probe = await confirmChangePoint(
      { changePoint: changePoint('svc', 'p50', [1, 1000]), suite: 'daily', before: run, after: run },
      OPTIONS,
      deps(dir, () => 1),
    );
    const level = probe.level!.today;
    const stayed = await confirmChangePoint(
      { changePoint: changePoint('svc', 'p50', [level / 1.1, level]), suite: 'daily', before: run, after: run },
      OPTIONS,
      deps(dir, () => 1),
    );
    assert.equal(stayed.verdict, 'environment');
    assert.equal(stayed.rounds[0]!.purpose, 'aa');
    assert.match(
      wordConfirmation(stayed).line,
      /^environment: nothing an arm can carry differed, and today's p50 .* is nearer the later segment's .*: the runner moved$/,
    );
    const back = await confirmChangePoint(
      { changePoint: changePoint('svc', 'p50', [level, level * 1.1]), suite: 'daily', before: run, after: run },
      OPTIONS,
      deps(dir, () => 1),
    );
    assert.equal(back.verdict, 'withdrawn');
    assert.equal(back.reason, 'level-back');
  });
});

test("what needs no run: the runs gone, error-rate series, only fixed changes, masked secrets today's config lacks", async () => {
  await withTempDir(async (dir) => {
    const rounds: RunResult[] = [];
    const d = deps(dir, () => 1, rounds);
    const run = local({ local: { delay: '20ms' } });
    const gone = await confirmChangePoint({ changePoint: changePoint('svc'), suite: 'daily', before: undefined, after: run }, OPTIONS, d);
    assert.equal(gone.verdict, 'cannot-rerun');
    assert.match(wordConfirmation(gone).line, /the results of run b or a are gone from the history/);
    const err = await confirmChangePoint({ changePoint: changePoint('svc', 'err'), suite: 'daily', before: run, after: run }, OPTIONS, d);
    assert.equal(err.reason, 'metric');
    const k6 = { ...run, run: { ...run.run, tools: { ...run.run.tools, k6: '1.5.0' } } };
    const fixed = await confirmChangePoint({ changePoint: changePoint('svc'), suite: 'daily', before: run, after: k6 }, OPTIONS, d);
    assert.equal(fixed.reason, 'fixed-only');
    const secret = local({ local: { delay: '20ms' }, env: { API_TOKEN: 'tok-12345678' } });
    const masked = await confirmChangePoint({ changePoint: changePoint('svc'), suite: 'daily', before: secret, after: secret }, OPTIONS, d);
    assert.equal(masked.reason, 'secrets');
    assert.match(wordConfirmation(masked).line, /the stored runs mask modes\[svc\]\.env\.API_TOKEN and today's config does not hold it/);
    assert.equal(rounds.length, 0, 'none of these ran anything');
    // With today's config the masked value is run as it is there.
    const today = { modes: [{ name: 'svc', env: { API_TOKEN: 'tok-12345678' } }] };
    const ran = await confirmChangePoint(
      { changePoint: changePoint('svc'), suite: 'daily', before: secret, after: secret, current: today },
      OPTIONS,
      d,
    );
    assert.equal(ran.rounds[0]!.purpose, 'aa');
  });
});

test('an invalid confirmation run leaves the alert standing: invalid, never withdrawn', async () => {
  await withTempDir(async (dir) => {
    const input = {
      changePoint: changePoint('svc'),
      suite: 'daily',
      before: local({ local: { delay: '20ms' } }),
      after: local({ local: { delay: '24ms' } }),
    };
    const record = wordConfirmation(
      await confirmChangePoint(
        input,
        OPTIONS,
        deps(dir, () => 1, [], new Error('the runner broke')),
      ),
    );
    assert.equal(record.verdict, 'invalid');
    assert.match(record.line, /^invalid: the confirmation run was invalid.*the alert stays unconfirmed, not withdrawn$/);
  });
});
