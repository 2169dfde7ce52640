// Table tests for the small pure pieces the source-benchmark formats rest on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatG, unixDate } from '../../src/report/formats/ambient.ts';
import { goDuration, roundDuration, vegetaLatency, vegetaRound } from '../../src/report/formats/go-duration.ts';
import { modeNames, profileNames } from '../../src/report/formats/aggregate.ts';
import { medianOf as median } from '../../src/report/view.ts';
import { rep, run } from './fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('formatG prints numbers as awk does (%.6g, integers whole)', () => {
  const cases: [number, string][] = [
    [0, '0'],
    [0.9998074, '0.999807'],
    [1.2014149, '1.20141'],
    [21.04225, '21.0422'],
    [123456.7, '123457'],
    [1234567, '1234567'],
    [1234567.5, '1.23457e+06'],
    [0.00001234, '1.234e-05'],
    [100, '100'],
    [99.99996, '100'],
    [0.1, '0.1'],
  ];
  for (const [value, text] of cases) assert.equal(formatG(value), text, String(value));
});

test('goDuration prints nanoseconds as Go’s Duration.String', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [999, '999ns'],
    [588_001, '588.001µs'],
    [1_000_000, '1ms'],
    [1_036_000, '1.036ms'],
    [21_000_000, '21ms'],
    [1_217_000_000, '1.217s'],
    [300_000_000_000, '5m0s'],
    [3_723_000_000_000, '1h2m3s'],
    [-1_500_000, '-1.5ms'],
  ];
  for (const [ns, text] of cases) assert.equal(goDuration(ns), text, String(ns));
});

test('vegeta rounds to the unit below the largest one', () => {
  const cases: [number, number][] = [
    [588_001, 588_001], // µs range: ns kept
    [1_036_412, 1_036_000], // ms range: rounded to µs
    [1_036_500, 1_037_000], // halves away from zero, as Go's Duration.Round
    [1_217_400_000, 1_217_000_000], // s range: to ms
    [300_000_400_000, 300_000_000_000], // min range: to s
  ];
  for (const [ns, rounded] of cases) assert.equal(vegetaRound(ns), rounded, String(ns));
  assert.equal(roundDuration(-1_500, 1_000), -2_000);
  assert.equal(vegetaLatency(0.9965134), '996.513µs');
  assert.equal(vegetaLatency(21.0003), '21ms');
});

test('unixDate is `date`’s default format in UTC, day padded with a space', () => {
  assert.equal(unixDate('2022-07-11T07:35:26Z'), 'Mon Jul 11 07:35:26 UTC 2022');
  assert.equal(unixDate('2025-03-05T00:00:09Z'), 'Wed Mar  5 00:00:09 UTC 2025');
  assert.equal(unixDate('not a date'), 'not a date');
});

test('median', () => {
  assert.equal(median([]), undefined);
  assert.equal(median([3]), 3);
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('modes and profiles follow the config order, not the order they first ran in', () => {
  const one = [rep({ requests: 10, latencyMs: { p50: 1 } })];
  const result = run({
    suite: 's',
    profiles: [{ name: 'b' }, { name: 'a' }],
    modes: { baseline: { a: one, b: one }, linkerd: { a: one, b: one } },
  });
  // The interleaved plan ran linkerd's "a" first.
  result.modes.reverse();
  assert.deepEqual(modeNames(buildRunView(result)), ['baseline', 'linkerd']);
  assert.deepEqual(profileNames(buildRunView(result)), ['b', 'a']);
});
