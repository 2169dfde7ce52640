import { test } from 'node:test';
import assert from 'node:assert/strict';
import { medianInterval } from '../../src/analysis/median-interval.ts';

test('medianInterval: order-statistic bounds and their exact coverage', () => {
  const cases: { values: number[]; median: number; low: number; high: number; coverage: number }[] = [
    { values: [3, 1, 2], median: 2, low: 1, high: 3, coverage: 0.75 },
    { values: [5, 1, 4, 2, 3], median: 3, low: 1, high: 5, coverage: 1 - 2 / 32 },
    { values: [1, 2, 3, 4, 5, 6], median: 3.5, low: 1, high: 6, coverage: 1 - 2 / 64 },
    { values: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1], median: 5.5, low: 2, high: 9, coverage: 1 - (2 * 11) / 1024 },
    { values: [4], median: 4, low: 4, high: 4, coverage: 0 },
  ];
  for (const c of cases) {
    const got = medianInterval(c.values, 0.95)!;
    assert.equal(got.median, c.median, `median of ${c.values}`);
    assert.equal(got.low, c.low, `low of ${c.values}`);
    assert.equal(got.high, c.high, `high of ${c.values}`);
    assert.ok(Math.abs(got.coverage - c.coverage) < 1e-12, `coverage of ${c.values}: ${got.coverage}`);
  }
});

test('medianInterval: empty or non-finite input gives nothing', () => {
  assert.equal(medianInterval([]), undefined);
  assert.equal(medianInterval([Number.NaN, Number.POSITIVE_INFINITY]), undefined);
});

test('medianInterval: the interval covers the true median at least at its stated rate', () => {
  // Uniform(0,1) has median 0.5; simulate with a fixed LCG so the test is deterministic.
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const n of [5, 9, 15]) {
    let covered = 0;
    const trials = 4000;
    let stated = 0;
    for (let t = 0; t < trials; t++) {
      const got = medianInterval(Array.from({ length: n }, next))!;
      stated = got.coverage;
      if (got.low <= 0.5 && got.high >= 0.5) covered++;
    }
    assert.ok(covered / trials > stated - 0.025, `n=${n}: covered ${covered / trials} vs stated ${stated}`);
  }
});

test('medianInterval: thousands of repetitions keep a 95% interval (0.5^n underflows past n = 1074)', () => {
  // Sorted 1..n: the bounds are the ranks, which the normal approximation puts at n/2 ∓ 1.96·√n/2.
  for (const n of [1075, 2000, 100_000]) {
    const got = medianInterval(Array.from({ length: n }, (_, i) => i + 1))!;
    const expectedLow = n / 2 - (1.959964 * Math.sqrt(n)) / 2;
    assert.ok(Math.abs(got.low - expectedLow) <= 2, `n=${n}: low rank ${got.low}, about ${expectedLow.toFixed(1)} expected`);
    assert.equal(got.high, n + 1 - got.low, `n=${n}: symmetric`);
    assert.ok(got.coverage >= 0.95 && got.coverage < 0.96, `n=${n}: coverage ${got.coverage}`);
  }
});

test('medianInterval: selected order statistics equal the sorted ones, ties, runs and shuffles alike', () => {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const inputs: number[][] = [];
  for (const n of [2, 3, 4, 7, 10, 33, 100, 257, 1500]) {
    inputs.push(Array.from({ length: n }, next));
    inputs.push(Array.from({ length: n }, () => Math.floor(next() * 3)));
    inputs.push(Array.from({ length: n }, (_, i) => i));
    inputs.push(Array.from({ length: n }, (_, i) => n - i));
    inputs.push(Array.from({ length: n }, () => 5));
    inputs.push(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? i : n - i)));
  }
  for (const values of inputs) {
    const xs = [...values].sort((a, b) => a - b);
    const got = medianInterval(values)!;
    const n = xs.length;
    // The ranks depend on n only: over 1..n the bounds are the ranks themselves.
    const l = medianInterval(Array.from({ length: n }, (_, i) => i + 1))!.low;
    const mid = (n - 1) / 2;
    const median = xs[Math.floor(mid)]! + (xs[Math.ceil(mid)]! - xs[Math.floor(mid)]!) * (mid - Math.floor(mid));
    assert.equal(got.median, median, `median of ${values.slice(0, 12)}…`);
    assert.equal(got.low, xs[l - 1], `low of ${values.slice(0, 12)}…`);
    assert.equal(got.high, xs[n - l], `high of ${values.slice(0, 12)}…`);
  }
});
