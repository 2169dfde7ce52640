// Acceptance of the A/B gate on synthetic histories of known distribution (issue 23), through the
// product's own evaluateAbGate look by look (bench/ab-gate/simulate.ts): with 1,000 histories per
// case, A/A ends in a conclusive pass ≥ 95 % and fails ≤ 1 %, a true +5 % on p50 is caught ≥ 90 %,
// and the pass statement at a true +5 % (the minimum itself) is made no more often than its 5 %
// allows, at the default budget (27 blocks: the r 5 % cases need it; bench/ab-gate: 76.5 % of +5 %
// caught with outlier blocks at 18, 89–90 % at 24).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_AB_BUDGET } from '../../src/analysis/ab/arms.ts';
import { sequentialDesign } from '../../src/analysis/ab/design.ts';
import { type NoiseCase, sequentialRates } from '../../bench/ab-gate/simulate.ts';
import { testConfig } from './synthetic.ts';

const HISTORIES = 1000;
const settings = testConfig().gates.ab;
/** Binomial slack of 1,000 histories: about two standard errors at a 5 % rate. */
const SLACK = 0.014;

const cases: [string, Omit<NoiseCase, 'shift'>][] = [
  ['r 3.5 %', { r: 0.035, outliers: 0 }],
  ['r 3.5 % with 5 % outlier blocks', { r: 0.035, outliers: 0.05 }],
  ['r 5 %', { r: 0.05, outliers: 0 }],
  ['r 5 % with 5 % outlier blocks', { r: 0.05, outliers: 0.05 }],
];
const maxBlocks = DEFAULT_AB_BUDGET.maxBlocks;

test('the default budget is the one the targets are asserted at: first look at 6 blocks, 27 at most', () => {
  assert.deepEqual(DEFAULT_AB_BUDGET, { minBlocks: 6, maxBlocks: 27 });
});

cases.forEach(([name, noise], i) => {
  test(`A/B gate targets at the default budget: ${name}`, () => {
    const design = sequentialDesign(DEFAULT_AB_BUDGET, settings);
    const aa = sequentialRates({ ...noise, shift: 0 }, design, settings, HISTORIES, 1000 + i);
    const ab = sequentialRates({ ...noise, shift: 0.05 }, design, settings, HISTORIES, 2000 + i);
    const figures = `A/A pass ${aa.pass}, fail ${aa.fail}, mean blocks ${aa.meanBlocks}; +5 % caught ${ab.fail}, passed ${ab.pass}`;
    assert.ok(aa.pass >= 0.95, figures);
    assert.ok(aa.fail <= 0.01, figures);
    assert.ok(ab.fail >= 0.9, figures);
    assert.ok(ab.pass <= 1 - settings.confidence + SLACK, `the pass statement's error over all looks: ${figures}`);
    assert.ok(aa.meanBlocks < maxBlocks, 'clean runs stop before the budget on average');
  });
});
