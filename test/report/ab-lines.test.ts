// The A/B verdict's words (report/ab.ts), which every output leads with and the progress heading
// repeats: one table of evidence → line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AbGateEvidence, StoppingRecord } from '../../src/results/analysis.ts';
import { abLine, formatElapsed, lookHeading, stoppingReason } from '../../src/report/ab.ts';

const evidence = (over: Partial<AbGateEvidence>): AbGateEvidence => ({
  mode: 'proxy',
  profile: '100rps',
  statistic: 'p50',
  pairs: 14,
  estimator: 'trimmed-mean',
  change: { value: 0.008, low: -0.012, high: 0.029, level: 0.95 },
  upperBound: 0.029,
  p: 0.31,
  nominalAlpha: 0.0041,
  baseMs: 2,
  headMs: 2.016,
  differenceMs: 0.016,
  minEffect: 0.05,
  minEffectMs: 0.05,
  minimum: 0.05,
  decision: 'pass',
  reason: 'within-minimum',
  look: 3,
  looks: 5,
  mde: 0.03,
  spread: 0.02,
  perBlock: [],
  ...over,
});
const stopping: StoppingRecord = { reason: 'decided', blocks: 14, look: 3, looks: [4, 7, 10, 14, 18], elapsedS: 250 };

test('each decision path in words', () => {
  const cases: [Partial<AbGateEvidence>, string][] = [
    [{}, 'proxy head vs base: p50 +0.80% [-1.20%, +2.90%], within 5.00% → pass (14 blocks, 4 m 10 s)'],
    [
      { decision: 'fail', reason: 'slower', change: { value: 0.12, low: 0.09, high: 0.15, level: 0.95 }, p: 1.2e-7 },
      'proxy head vs base: p50 +12.0% [+9.00%, +15.0%], slower (p 1.2e-7 ≤ 0.0041), and its interval reaches past the 5.00% allowed → fail (14 blocks, 4 m 10 s)',
    ],
    [
      { decision: 'inconclusive', reason: 'budget-spent', blocksToSettle: 31 },
      'proxy head vs base: p50 +0.80% [-1.20%, +2.90%], not settled within the budget: the interval neither stays under the 5.00% allowed nor shows it slower; about 31 paired blocks would settle it → inconclusive (14 blocks, 4 m 10 s)',
    ],
    [
      { decision: 'inconclusive', reason: 'budget-spent', blocksToSettle: null },
      'proxy head vs base: p50 +0.80% [-1.20%, +2.90%], not settled within the budget: the interval neither stays under the 5.00% allowed nor shows it slower; no number of blocks would at this noise → inconclusive (14 blocks, 4 m 10 s)',
    ],
    [
      { decision: 'inconclusive', reason: 'too-few-blocks', pairs: 0 },
      'proxy head vs base: p50 —, 0 paired blocks, too few for an interval → inconclusive (14 blocks, 4 m 10 s)',
    ],
  ];
  for (const [over, line] of cases) assert.equal(abLine(evidence(over), { withProfile: false, stopping }), line);
  assert.match(abLine(evidence({}), { withProfile: true }), /^proxy \[100rps\] head vs base: .* → pass$/);
});

test('why measuring stopped, and the heading of each look', () => {
  assert.equal(stoppingReason(stopping), 'stopped at look 4 of 5: every gate decided');
  assert.equal(
    stoppingReason({ ...stopping, reason: 'budget-blocks', look: 4 }),
    "stopped at look 5 of 5: the budget's last look (plan.budget.maxBlocks 18)",
  );
  assert.equal(stoppingReason({ ...stopping, reason: 'fixed', blocks: 5 }), 'load.repetitions 5: a fixed number of blocks, one look');
  assert.equal(
    lookHeading(1, 5, 7, [evidence({ decision: 'inconclusive', reason: 'continue' })], false, 'continuing'),
    'Look 2 of 5: 7 blocks, proxy head vs base p50 +0.80% [-1.20%, +2.90%], continuing',
  );
  assert.equal(formatElapsed(38), '38 s');
  assert.equal(formatElapsed(120), '2 m');
});
