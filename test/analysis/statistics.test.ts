// Unit tests of the statistical building blocks against published values and brute-force oracles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coefficientOfVariation, median, quantile } from '../../src/analysis/descriptive.ts';
import { normalCdf, normalQuantile, studentTCdf, studentTQuantile } from '../../src/analysis/distributions.ts';
import { mannWhitneyGreater, minimumAttainableP } from '../../src/analysis/mann-whitney.ts';
import { bootstrapInterval } from '../../src/analysis/bootstrap.ts';
import { repetitionsFor, twoSampleMde } from '../../src/analysis/mde.ts';
import { evidenceFor, reachesPracticalMinimum } from '../../src/analysis/regression.ts';
import { seededRandom } from '../../src/util/random.ts';
import { gaussian } from './synthetic.ts';

const close = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: got ${actual}, expected ${expected} ± ${tolerance}`);

test('descriptive statistics: type-7 quantiles, median of even samples, CV', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  close(quantile([1, 2, 3, 4, 5], 0.9), 4.6, 1e-12, 'p90 of 1..5');
  close(coefficientOfVariation([9, 10, 11])!, 1 / 10, 1e-12, 'cv');
  assert.equal(coefficientOfVariation([5]), undefined);
});

test('normal and Student t distributions match published table values', () => {
  const table: [string, number, number, number][] = [
    ['Φ⁻¹(0.975)', normalQuantile(0.975), 1.959964, 1e-5],
    ['Φ⁻¹(0.95)', normalQuantile(0.95), 1.644854, 1e-5],
    ['Φ⁻¹(0.8)', normalQuantile(0.8), 0.841621, 1e-5],
    ['Φ⁻¹(0.001)', normalQuantile(0.001), -3.090232, 1e-5],
    ['Φ(1.96)', normalCdf(1.96), 0.9750021, 1e-6],
    ['Φ(-1)', normalCdf(-1), 0.1586553, 1e-6],
    ['t₀.₉₅(9)', studentTQuantile(0.95, 9), 1.833113, 1e-5],
    ['t₀.₉₇₅(2)', studentTQuantile(0.975, 2), 4.302653, 1e-5],
    ['t₀.₉₅(1)', studentTQuantile(0.95, 1), 6.313752, 1e-4],
    ['T₅(2)', studentTCdf(2, 5), 0.9490303, 1e-6],
    ['T₃₀(-1.5)', studentTCdf(-1.5, 30), 0.07203296, 1e-6], // Simpson integration of the density
  ];
  for (const [what, actual, expected, tolerance] of table) close(actual, expected, tolerance, what);
});

test('Mann–Whitney: R documentation example (wilcox.test, alternative "greater") gives W = 35, p = 0.1272', () => {
  const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
  const y = [1.15, 0.88, 0.9, 0.74, 1.21];
  const result = mannWhitneyGreater(x, y);
  assert.equal(result.u, 35);
  assert.equal(result.method, 'exact');
  close(result.p, 0.1272, 5e-5, 'p');
});

test('Mann–Whitney: complete separation of 3 vs 3 reaches exactly 1/20, the smallest possible p', () => {
  const up = mannWhitneyGreater([4, 5, 6], [1, 2, 3]);
  assert.equal(up.u, 9);
  close(up.p, 0.05, 1e-12, 'p');
  close(up.minimumP, 1 / 20, 1e-12, 'minimum p');
  assert.equal(mannWhitneyGreater([1, 2, 3], [4, 5, 6]).p, 1);
  close(minimumAttainableP(5, 5), 1 / 252, 1e-12, '5 vs 5');
});

/** Oracle: enumerate every split of the pooled values and count U by comparing pairs (ties ½). */
function bruteForceP(candidate: number[], reference: number[]): number {
  const pooled = [...candidate, ...reference];
  const m = candidate.length;
  const uOf = (a: number[], b: number[]) => a.reduce((s, x) => s + b.reduce((t, y) => t + (x > y ? 1 : x === y ? 0.5 : 0), 0), 0);
  const observed = uOf(candidate, reference);
  let total = 0;
  let atLeast = 0;
  const pick = (start: number, chosen: number[]) => {
    if (chosen.length === m) {
      const a = chosen.map((i) => pooled[i]!);
      const b = pooled.filter((_, i) => !chosen.includes(i));
      total++;
      if (uOf(a, b) >= observed - 1e-9) atLeast++;
      return;
    }
    for (let i = start; i < pooled.length; i++) pick(i + 1, [...chosen, i]);
  };
  pick(0, []);
  return atLeast / total;
}

test('Mann–Whitney: exact p-values agree with brute-force enumeration, with and without ties', () => {
  const random = seededRandom(7);
  const cases: [number[], number[]][] = [
    [
      [0, 0, 0.01, 0.02],
      [0, 0, 0, 0.01, 0],
    ], // error rates: mostly zero, heavy ties
    [
      [1, 2, 2, 3],
      [2, 2, 1, 1, 1],
    ],
  ];
  for (let i = 0; i < 6; i++) {
    const m = 2 + (i % 4);
    const n = 3 + (i % 5);
    cases.push([Array.from({ length: m }, () => 10 + gaussian(random)), Array.from({ length: n }, () => 10 + gaussian(random))]);
  }
  for (const [a, b] of cases) close(mannWhitneyGreater(a, b).p, bruteForceP(a, b), 1e-9, `p for ${JSON.stringify([a, b])}`);
});

test('Mann–Whitney: the normal approximation (large samples) rejects about alpha of identical samples', () => {
  const random = seededRandom(11);
  let rejections = 0;
  const trials = 1000;
  for (let t = 0; t < trials; t++) {
    const a = Array.from({ length: 60 }, () => gaussian(random));
    const b = Array.from({ length: 100 }, () => gaussian(random));
    const result = mannWhitneyGreater(a, b);
    assert.equal(result.method, 'normal');
    if (result.p <= 0.05) rejections++;
  }
  const rate = rejections / trials;
  assert.ok(rate > 0.03 && rate < 0.07, `rejection rate ${rate} should be near 0.05`);
});

test('bootstrap: the same seed gives the same interval; fewer than two values give none', () => {
  const values = [1.02, 0.98, 1.05, 1.01, 0.97];
  const a = bootstrapInterval(values, { random: seededRandom(3) });
  const b = bootstrapInterval(values, { random: seededRandom(3) });
  assert.deepEqual(a, b);
  assert.ok(a!.low <= median(values) && median(values) <= a!.high);
  assert.equal(a!.level, 0.95);
  assert.equal(bootstrapInterval([1], { random: seededRandom(3) }), undefined);
});

test('MDE follows the normal-approximation table of performance.md §3.3 (widened for the rank test)', () => {
  // (1.645 + 0.842) · cv · √(2/n), times 1/√(3/π) ≈ 1.023 for Mann–Whitney.
  close(twoSampleMde({ cv: 0.05, n: 5 }, { cv: 0.05, n: 5 }, 0.05), 0.0787 * 1.0233, 0.001, 'cv 5%, n 5');
  close(twoSampleMde({ cv: 0.1, n: 10 }, { cv: 0.1, n: 10 }, 0.05), 0.1112 * 1.0233, 0.001, 'cv 10%, n 10');
  assert.equal(twoSampleMde({ cv: 0.01, n: 2 }, { cv: 0.01, n: 2 }, 0.05), Infinity, '2 vs 2 cannot reach p ≤ 0.05');
  const n = repetitionsFor(0.05, 0.05, 0.05);
  assert.ok(twoSampleMde({ cv: 0.05, n }, { cv: 0.05, n }, 0.05) <= 0.05);
  assert.ok(twoSampleMde({ cv: 0.05, n: n - 1 }, { cv: 0.05, n: n - 1 }, 0.05) > 0.05);
});

test('practical minimum: a significant change passes only when its upper bound is shown under the minimum', () => {
  const settings = { minEffectPct: 5, minEffectMs: 0.05, alpha: 0.05 };
  const context = { seed: 7, resamples: 2000, level: 0.95, alpha: 0.05 };
  const reference = [[1.0, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1.001, 0.999, 1.003]];
  // +2 % with almost no spread: significant, and the data rule out +5 % → below the minimum.
  const tight = evidenceFor([1.019, 1.02, 1.021, 1.0195, 1.0205], reference, 2, true, settings, context, ['tight']);
  assert.ok(tight.significant, 'a clean +2 % is significant');
  assert.ok(tight.changeBound < 0.05, `upper bound ${tight.changeBound}`);
  assert.equal(tight.practical, false);
  // +4 % point estimate, but so spread that +5 % and more stay plausible → a regression.
  const wide = evidenceFor([1.02, 1.03, 1.04, 1.06, 1.09], reference, 2, true, settings, context, ['wide']);
  assert.ok(wide.significant);
  assert.ok(wide.change.value < 0.05 && wide.changeBound >= 0.05, `change ${wide.change.value}, bound ${wide.changeBound}`);
  assert.equal(wide.practical, true);
  // The millisecond minimum applies to the bound too: +10 % of 0.2 ms can never reach 0.05 ms.
  const small = evidenceFor([1.09, 1.1, 1.11, 1.1, 1.1], reference, 0.2, true, settings, context, ['small']);
  assert.ok(small.significant);
  assert.equal(small.practical, false);
  assert.equal(reachesPracticalMinimum(0.05, 2, true, settings), true);
  assert.equal(reachesPracticalMinimum(0.049, 2, true, settings), false);
  assert.equal(reachesPracticalMinimum(0.3, 2, false, settings), true);
});
