// load.generators: how many k6 instances share a repetition, how k6's execution segments split
// it, and the config errors for splits that cannot work.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseGenerators, machineCapacity, RPS_PER_K6_PROCESS } from '../../src/load/ceiling.ts';
import { executionSegments, segmentArgs } from '../../src/load/segments.ts';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';
import { buildInvocation, decideGenerators, groupInvocations } from '../../src/load/engine.ts';
import { USER_WRAPPER } from '../../src/load/user-script.ts';
import { UsageError } from '../../src/util/errors.ts';

test('execution segments: N consecutive slices of one sequence, as k6 parses them', () => {
  assert.deepEqual(executionSegments(1), [{ index: 0, count: 1, segment: '0:1', sequence: '0,1' }]);
  assert.deepEqual(
    executionSegments(4).map((s) => s.segment),
    ['0:1/4', '1/4:2/4', '2/4:3/4', '3/4:1'],
  );
  assert.equal(executionSegments(3)[0]!.sequence, '0,1/3,2/3,1');
  assert.deepEqual(segmentArgs(executionSegments(2)[1]!), ['--execution-segment', '1/2:1', '--execution-segment-sequence', '0,1/2,1']);
  assert.throws(() => executionSegments(0), RangeError);
});

test('machine capacity: one k6 process per core k6 may use, 0.8 ÷ 150 µs each', () => {
  assert.equal(RPS_PER_K6_PROCESS, 5333);
  assert.deepEqual(machineCapacity(2, false), { instances: 2, rpsPerInstance: 5333, totalRps: 10_666, describe: '2 cores' });
  assert.deepEqual(machineCapacity(2, true), {
    instances: 1,
    rpsPerInstance: 5333,
    totalRps: 5333,
    describe: '2 cores shared with the local servers',
  });
  assert.equal(machineCapacity(1, true).rpsPerInstance, 2666, 'half a core holds half');
});

test('auto: as many processes as the rate needs, no more than the capacity, each ≥ 1 rps', () => {
  const endpoints = machineCapacity(2, false);
  const open = (rate: number) => ({ generators: 'auto' as const, model: 'open' as const, rate });
  assert.deepEqual(chooseGenerators(open(9000), endpoints), { count: 2, reason: '2 k6 processes: 9,000 rps > 5,333 one process holds' });
  assert.deepEqual(chooseGenerators(open(2000), endpoints), { count: 1, reason: '1 k6 process: 2,000 rps ≤ 5,333 one process holds' });
  const eight = machineCapacity(8, false);
  assert.equal(chooseGenerators(open(40_000), eight).count, 8);
  assert.deepEqual(chooseGenerators(open(40_000), endpoints), {
    count: 2,
    reason: '2 k6 processes: 40,000 rps > 5,333 one process holds, capped at 2 by 2 cores',
  });
  // A platform with small instances (a pod's CPU limit): never under 1 rps each.
  const tiny = { instances: 100, rpsPerInstance: 0.5, totalRps: 50, describe: '100 pods' };
  assert.equal(chooseGenerators(open(3), tiny).count, 3);
  assert.equal(chooseGenerators({ generators: 'auto', model: 'closed', rate: undefined }, endpoints).count, 1);
  assert.equal(chooseGenerators({ generators: 'auto', model: 'open', rate: 9000, script: 'x.js' }, endpoints).count, 1);
  assert.deepEqual(chooseGenerators({ generators: 3, model: 'open', rate: 100 }, endpoints), {
    count: 3,
    reason: '3 k6 processes: set by load.generators',
  });
});

function problems(load: Record<string, unknown>): string[] {
  try {
    validateConfig({ platform: 'endpoints', modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }], load });
    return [];
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
}

test('bad load.generators: named with its value and what was expected', () => {
  assert.deepEqual(problems({ rate: 100, generators: 2 }), []);
  assert.deepEqual(problems({ rate: 100, generators: 'auto' }), []);
  assert.deepEqual(problems({ rate: 3, generators: 4 }), [
    'load.generators: 4 k6 instances would share 3 rps, under 1 rps each; expected at most 3 for this rate',
  ]);
  assert.deepEqual(problems({ rate: 100, generators: 0 }), [
    'load.generators: expected a whole number of k6 instances ≥ 1 or "auto", got 0',
  ]);
  assert.deepEqual(problems({ rate: 100, generators: 2.5 }), [
    'load.generators: expected a whole number of k6 instances ≥ 1 or "auto", got 2.5',
  ]);
  assert.deepEqual(problems({ rate: 100, generators: 'many' }), [
    'load.generators: expected a whole number of k6 instances ≥ 1 or "auto", got "many"',
  ]);
  assert.deepEqual(problems({ model: 'closed', vus: 2, generators: 3 }), [
    'load.generators: 3 k6 instances would share 2 VUs, some with none (k6 splits the VUs between them); expected at most 2',
  ]);
  assert.deepEqual(problems({ model: 'closed', vus: 4, generators: 3 }), []);
  assert.match(
    problems({ script: 'x.js', generators: 2 })[0]!,
    /^load\.generators: expected 1 with a user's own script \(load\.script\), got 2: each k6 instance would run its setup\(\)/,
  );
});

test('generators are decided once per profile; a runner that runs one process per repetition refuses a profile that needs several, before any load', () => {
  const single = { version: async () => '1.4.2', run: async () => ({ exitCode: 0, extraFiles: {}, stderrTail: '' }) };
  const config = validateConfig({
    platform: 'endpoints',
    modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
    load: [{ rate: 100 }, { name: 'split', rate: 100, generators: 2 }],
  });
  assert.throws(
    () => decideGenerators(config.profiles, single),
    (error: Error) =>
      error instanceof UsageError &&
      error.message ===
        'load.generators asks for 2 k6 instances (profile "split"), but this platform runs one k6 process per repetition; set load.generators: 1',
  );
  // auto on a runner without a capacity stays one process, which every runner can run.
  const auto = validateConfig({
    platform: 'endpoints',
    modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }],
    load: { rate: 9000, generators: 'auto' },
  });
  assert.deepEqual([...decideGenerators(auto.profiles, single)], [['9000rps', 1]]);
  // With a capacity, auto splits the rate: what every trial of that profile then runs as.
  const group = {
    ...single,
    runGroup: async () => [],
    capacity: () => ({ instances: 4, rpsPerInstance: 4000, totalRps: 16000, describe: '4 nodes' }),
  };
  assert.deepEqual([...decideGenerators(auto.profiles, group)], [['9000rps', 3]]);
});

test("our scripts run with k6's system tags narrowed and without threshold evaluation, a group's instances too; a user's script keeps k6's defaults", () => {
  const config = validateConfig({ platform: 'endpoints', modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }], load: { rate: 100 } });
  const trial = { index: 0, mode: config.modes[0]!, profile: config.profiles[0]!, repetition: 1, block: 1, round: 1, planned: 1 };
  const target = { mode: 'a', url: 'http://127.0.0.1:1/', env: {}, description: 'a' };
  const ours = buildInvocation(trial, target, process.cwd());
  assert.deepEqual(ours.args, ['--no-thresholds', '--system-tags=scenario,expected_response,status,error_code']);
  for (const instance of groupInvocations(ours, 2)) assert.deepEqual(instance.args.slice(0, 2), ours.args, 'the base arguments come first');
  const user = buildInvocation({ ...trial, profile: { ...trial.profile, script: '/tmp/user.js' } }, target, process.cwd());
  assert.equal(user.entry, USER_WRAPPER);
  for (const invocation of [user, ...groupInvocations(user, 2)])
    assert.ok(!invocation.args.some((a) => a.startsWith('--system-tags') || a === '--no-thresholds'), invocation.args.join(' '));
});
