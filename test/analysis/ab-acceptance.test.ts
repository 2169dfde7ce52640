// Acceptance of the A/B gate on synthetic runs of known distribution (issues 23 and 39), through the
// product's own decisions look by look and its final re-analysis (bench/ab-gate/history.ts): three
// modes with arms per run sharing one 1 % alpha, the default design (looks at 10/20/30/40 blocks).
// Per case, on fewer runs than the bench's 10,000 (docs/methodology-statistics.md has those; the
// rates near 5 % get two binomial standard errors of slack):
// clean runs fail ≤ 1 % (any gate) and pass ≥ 95 % (every gate); a true +minimum on one mode is
// caught ≥ 90 % and called "within the minimum" no more often than the pass statement's 5 % allows
// (plus binomial slack); a doubling fails at the first look and twice the minimum by the second in
// ≥ 95 % of runs (for p99 a doubling fails, later than the first look). The cases: 5 % per-block noise with 5 % outlier blocks; a 1 % offset between
// server instances (the local platform's fresh server per block); AR(1) ρ 0.3 drift of the ratio;
// p99 under bursty stalls at a 30 % minimum (bench/ab-gate: the rate targets hold from 25 %, where
// twice the minimum fails by the second look in 90 % of runs, under this test's bar).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_AB_BUDGET } from '../../src/analysis/ab/arms.ts';
import { sequentialDesign } from '../../src/analysis/ab/design.ts';
import { seededRandom } from '../../src/util/random.ts';
import { armsConfig, runHistory } from '../../bench/ab-gate/history.ts';
import { type NoiseModel, QUIET } from '../../bench/ab-gate/noise.ts';

const STALLS: NoiseModel['stalls'] = { stallsPer6s: 3, stallMs: 10, rate: 1000, seconds: 6, sigma: 0.25, utilization: 0.8 };

/** Runs per case (clean, +minimum): the p99 model draws every repetition's tail, ten times the work. */
const cases: { name: string; model: NoiseModel; statistic: 'p50' | 'p99'; minimum: number; runs: number }[] = [
  { name: 'r 5 % with 5 % outlier blocks', model: { ...QUIET, r: 0.05, outliers: 0.05 }, statistic: 'p50', minimum: 5, runs: 1000 },
  {
    name: 'instance offset τ 1 %, a fresh server per block, r 3.5 %',
    model: { ...QUIET, r: 0.035, tau: 0.01 },
    statistic: 'p50',
    minimum: 5,
    runs: 1000,
  },
  { name: 'AR(1) ρ 0.3 drift, r 3.5 %', model: { ...QUIET, r: 0.035, rho: 0.3 }, statistic: 'p50', minimum: 5, runs: 1000 },
  { name: 'p99 with bursty stalls, minimum 30 %', model: { ...QUIET, r: 0.05, stalls: STALLS }, statistic: 'p99', minimum: 30, runs: 300 },
];

function rates(c: (typeof cases)[number], shift: number, runs: number, seed: number) {
  const config = armsConfig(3, c.statistic, c.minimum);
  const design = sequentialDesign(DEFAULT_AB_BUDGET, config.gates.ab);
  const random = seededRandom(seed);
  let fail = 0;
  let pass = 0;
  let firstLook = 0;
  let bySecond = 0;
  for (let h = 0; h < runs; h++) {
    const o = runHistory(random, c.model, config, design, [shift, 0, 0]);
    if (shift === 0) {
      if (o.decisions.includes('fail')) fail++;
      if (o.decisions.every((d) => d === 'pass')) pass++;
      continue;
    }
    if (o.decisions[0] === 'fail') {
      fail++;
      if (o.looks[0] === 0) firstLook++;
      if (o.looks[0]! <= 1) bySecond++;
    }
    if (o.decisions[0] === 'pass') pass++;
  }
  return { fail: fail / runs, pass: pass / runs, firstLook: firstLook / runs, bySecond: bySecond / runs };
}

cases.forEach((c, i) => {
  test(`A/B gate targets, three gated modes per run: ${c.name}`, { timeout: 600_000 }, () => {
    const minimum = c.minimum / 100;
    const aa = rates(c, 0, c.runs, 100 + i);
    const ab = rates(c, minimum, c.runs, 200 + i);
    const doubled = rates(c, 1, c.runs / 5, 300 + i);
    const twice = rates(c, 2 * minimum, (2 * c.runs) / 5, 400 + i);
    const slack = 2 * Math.sqrt((0.05 * 0.95) / c.runs);
    const figures = JSON.stringify({ aa, ab, doubled, twice });
    assert.ok(aa.fail <= 0.01, `clean runs failed: ${figures}`);
    assert.ok(aa.pass >= 0.95, `clean runs passed: ${figures}`);
    assert.ok(ab.fail >= 0.9, `+minimum caught: ${figures}`);
    assert.ok(ab.pass <= 0.05 + slack, `"within the minimum" at a true +minimum: ${figures}`);
    // A tail's per-block spread (29 % with stalls) is too wide for a doubling at 10 blocks (bench/ab-gate: about 58 %).
    if (c.statistic === 'p50') assert.ok(doubled.firstLook >= 0.95, `a doubling failed at the first look: ${figures}`);
    else assert.ok(doubled.fail === 1, `a doubling failed: ${figures}`);
    assert.ok(twice.bySecond >= 0.95 - slack, `twice the minimum failed by the second look: ${figures}`);
  });
});
