import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectChangePoints } from '../../src/analysis/change-points/detect.ts';
import { seededRandom } from '../../src/util/random.ts';
import { lognormalFactor } from './synthetic.ts';

function series(n: number, stepAt: number | undefined, step: number, cv: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => 10 * (stepAt !== undefined && i >= stepAt ? 1 + step : 1) * lognormalFactor(random, cv));
}

test('a +10% step at 2.5% noise is found at the run it starts, with its size', () => {
  const values = series(80, 50, 0.1, 0.025, 7);
  const found = detectChangePoints(values);
  assert.ok(found.ok);
  assert.deepEqual(
    found.changePoints.map((c) => c.index),
    [50],
  );
  const [cp] = found.changePoints;
  assert.ok(Math.abs(cp!.size - 0.1) < 0.03, `size ${cp!.size}`);
  assert.ok(cp!.sizeLow < cp!.size && cp!.size < cp!.sizeHigh);
  assert.equal(cp!.before.from, 0);
  assert.equal(cp!.after.to, 80);
  assert.ok(cp!.before.low <= cp!.before.median && cp!.before.median <= cp!.before.high);
});

test('a flat series gives no change point, and the same store gives the same answer twice', () => {
  for (const seed of [1, 2, 3]) {
    const values = series(200, undefined, 0, 0.05, seed);
    const a = detectChangePoints(values);
    assert.ok(a.ok);
    assert.deepEqual(a.changePoints, [], `seed ${seed}`);
    assert.deepEqual(detectChangePoints(values), a);
  }
});

test('one outlier run is not a change point, not even as the newest run', () => {
  const values = series(60, undefined, 0, 0.025, 11);
  values[30] = values[30]! * 1.6;
  values[59] = values[59]! * 1.6;
  const found = detectChangePoints(values);
  assert.ok(found.ok);
  assert.deepEqual(found.changePoints, []);
});

test('a series too short to split says so instead of guessing', () => {
  const found = detectChangePoints([1, 1.1, 1.2, 1.3, 1.4]);
  assert.equal(found.ok, false);
  if (!found.ok) assert.match(found.reason, /5 runs, too few to split \(needs 6\)/);
  const bad = detectChangePoints([1, 2, 0, 3, 4, 5, 6]);
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.match(bad.reason, /value 0 at position 2 is not a positive number/);
});

test('error rates change on a linear scale', () => {
  const random = seededRandom(5);
  const values = Array.from({ length: 60 }, (_, i) => Math.max(0, (i >= 40 ? 0.02 : 0) + 0.001 * random()));
  const found = detectChangePoints(values, { scale: 'linear', minMagnitude: 0.005 });
  assert.ok(found.ok);
  assert.deepEqual(
    found.changePoints.map((c) => c.index),
    [40],
  );
});
