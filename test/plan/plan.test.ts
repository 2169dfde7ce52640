import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateConfig } from '../../src/config/validate.ts';
import { buildPlan, estimateSeconds } from '../../src/plan/plan.ts';

const config = (extra: Record<string, unknown> = {}) =>
  validateConfig({
    modes: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    load: { rate: 100, duration: '10s', warmup: '2s', repetitions: 5 },
    ...extra,
  });

test('interleaved: every block holds each mode exactly once', () => {
  const plan = buildPlan(config(), 42);
  assert.equal(plan.trials.length, 15);
  for (let block = 1; block <= 5; block++) {
    const modes = plan.trials
      .filter((t) => t.block === block)
      .map((t) => t.mode.name)
      .sort();
    assert.deepEqual(modes, ['a', 'b', 'c'], `block ${block}`);
  }
  assert.deepEqual(
    plan.trials.map((t) => t.index),
    [...Array(15).keys()],
  );
  for (const t of plan.trials) assert.equal(t.repetition, t.block);
});

test('the same seed gives the same order; other seeds shuffle differently', () => {
  const order = (seed: number) =>
    buildPlan(config(), seed)
      .trials.map((t) => t.mode.name)
      .join(',');
  assert.equal(order(7), order(7));
  const distinct = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(order));
  assert.ok(distinct.size > 1, 'seeds should produce different orders');
});

test('the block order is randomized, not always the config order', () => {
  const firsts = new Set<string>();
  for (let seed = 0; seed < 30; seed++)
    for (const t of buildPlan(config(), seed).trials.filter((t) => t.mode.name && t.index % 3 === 0)) firsts.add(t.mode.name);
  assert.deepEqual([...firsts].sort(), ['a', 'b', 'c']);
});

test('sequential order runs all repetitions of a mode together', () => {
  const plan = buildPlan(config({ plan: { order: 'sequential' } }), 1);
  assert.deepEqual(
    plan.trials.slice(0, 5).map((t) => t.mode.name),
    ['a', 'a', 'a', 'a', 'a'],
  );
});

test('profiles × modes × repetitions, with an estimate of wall-clock time', () => {
  const plan = buildPlan(
    config({
      load: [
        { rate: 20, duration: '5s', warmup: '1s', repetitions: 2 },
        { rate: 50, duration: '5s', warmup: '1s', repetitions: 2 },
      ],
    }),
    3,
  );
  assert.equal(plan.trials.length, 2 * 3 * 2);
  assert.equal(estimateSeconds(plan), 12 * 6);
  assert.deepEqual([...new Set(plan.trials.map((t) => t.profile.name))], ['20rps', '50rps']);
});
