// The A/B gate (head against base in the same run): every decision path, the sequential design's
// boundaries, the estimators, analyzeRun's integration and the results contract around it. Pure and
// fast; the statistical acceptance over thousands of histories is test/analysis/ab-acceptance.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finalAt, lookSchedule, sequentialDesign, spendingBoundaries } from '../../src/analysis/ab/design.ts';
import { estimate } from '../../src/analysis/ab/estimators.ts';
import { evaluateAbGate, signedRankReach } from '../../src/analysis/ab/gate.ts';
import { normalQuantile } from '../../src/analysis/distributions.ts';
import { wordGate } from '../../src/report/gate-words.ts';
import { migrateResults } from '../../src/results/migrate.ts';
import { resultsSchema } from '../../src/results/schema.ts';
import { RESULTS_SCHEMA_VERSION, type RunResult } from '../../src/results/types.ts';
import { analyzeWorded, syntheticRun, testConfig } from './synthetic.ts';

const config = testConfig({}, ['m-base', 'm-head']);
const settings = config.gates.ab;
const design = sequentialDesign({ minBlocks: 6, maxBlocks: 18 }, settings);

/** A run whose two modes are the arms of "m", with the given per-block p50 levels. */
function armsRun(base: number[], head: number[], tweak?: Parameters<typeof syntheticRun>[0]['tweak']): RunResult {
  const run = syntheticRun({ config, levels: { 'm-base': base, 'm-head': head }, ...(tweak ? { tweak } : {}) });
  run.modes[0]!.arm = { of: 'm', side: 'base' };
  run.modes[1]!.arm = { of: 'm', side: 'head' };
  return run;
}

/** Base levels around 2 ms that drift ±30 % from block to block, as a busy runner does. */
const drift = [2.0, 2.6, 1.5, 2.3, 1.8, 2.9, 1.4, 2.2, 2.5, 1.7, 2.1, 2.7, 1.6, 2.4, 1.9, 2.8, 1.5, 2.0];
/** Per-block log-ratio noise, symmetric, sd about 1.2 %. */
const wobble = [
  0.01, -0.012, 0.004, -0.006, 0.015, -0.01, 0.002, -0.003, 0.008, -0.014, 0.006, -0.001, 0.011, -0.009, 0.0, 0.005, -0.007, 0.013,
];

function inputFor(blocks: number, shift: number, noise = wobble) {
  const base = drift.slice(0, blocks);
  const head = base.map((b, i) => b * (1 + shift) * Math.exp(noise[i]!));
  const run = armsRun(base, head);
  return { mode: 'm', profile: run.modes[0]!.profile, statistic: 'p50' as const, base: run.modes[0], head: run.modes[1], settings, design };
}

function gateAt(blocks: number, shift: number, look: { index: number; final: boolean }, noise = wobble) {
  return evaluateAbGate({ ...inputFor(blocks, shift, noise), look });
}

test('design: O’Brien–Fleming-type spending reproduces the published boundaries (5 equal looks, one-sided 2.5 %)', () => {
  // Lan–DeMets O'Brien–Fleming-type spending, K = 5 equally spaced: 4.877, 3.357, 2.680, 2.290, 2.031.
  const z = spendingBoundaries([0.2, 0.4, 0.6, 0.8, 1], 0.025);
  [4.877, 3.357, 2.68, 2.29, 2.031].forEach((expected, i) => assert.ok(Math.abs(z[i]! - expected) < 0.005, `look ${i + 1}: ${z[i]}`));
  assert.ok(Math.abs(spendingBoundaries([1], 0.01)[0]! - normalQuantile(0.99)) < 1e-3, 'one look is the fixed-sample boundary');
});

test('design: looks at 6/9/12/15/18 blocks; both sides strict early and relaxed late; a stop at an earlier look spends the rest', () => {
  assert.deepEqual(design.looks, [6, 9, 12, 15, 18]);
  for (let i = 1; i < design.looks.length; i++) {
    assert.ok(design.failZ[i]! < design.failZ[i - 1]!, 'fail boundary falls');
    assert.ok(design.passZ[i]! < design.passZ[i - 1]!, 'pass boundary falls');
  }
  assert.ok(design.failZ[0]! > 4 && design.failZ[4]! > normalQuantile(0.99), 'the last fail boundary is above the fixed 2.326');
  assert.ok(design.failZ[4]! < 2.45);
  const stopped = finalAt(design, 1);
  assert.deepEqual(stopped.looks, [6, 9]);
  assert.equal(stopped.failZ[0], design.failZ[0], 'earlier looks keep their boundaries');
  assert.ok(stopped.failZ[1]! < design.failZ[1]!, 'the last look spends what is left');
  assert.deepEqual(lookSchedule({ minBlocks: 3, maxBlocks: 18 }, 3), [4, 7, 10, 13, 16, 18], 'never a look under 4 blocks');
  assert.deepEqual(lookSchedule({ minBlocks: 20, maxBlocks: 12 }, 3), [12]);
});

test('estimators: centres and unreachable levels', () => {
  const values = [0.01, 0.02, 0.03, 0.04, 1.0];
  assert.ok(Math.abs(estimate('trimmed-mean', values).center - 0.03) < 1e-12, '20 % trimmed: the middle three');
  assert.ok(Math.abs(estimate('paired-t', values).center - 0.22) < 1e-12);
  assert.ok(Math.abs(estimate('hodges-lehmann', [1, 2, 3]).center - 2) < 1e-12);
  const hl = estimate('hodges-lehmann', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]);
  assert.equal(hl.bound(1e-5), -Infinity, 'the signed-rank test cannot reach 1e-5 with 6 values: no bound, not the smallest value');
  assert.ok(Number.isFinite(hl.bound(0.05)) && hl.bound(0.05) > 0);
  assert.ok(hl.pGreater < 0.05);
  // Four values cannot give a 95 % bound (all four on one side has probability 1/16 > 5 %): none,
  // though the normal approximation would have put it at the largest value.
  const four = estimate('hodges-lehmann', [-0.004, -0.003, -0.002, -0.001]);
  assert.equal(four.bound(0.95), Infinity);
  assert.equal(four.bound(0.05), -Infinity);
  assert.ok(Number.isFinite(four.bound(0.9)), 'a 90 % bound is reachable with 4 values (1/16 < 10 %)');
});

test('pass: head within the practical minimum, shown at the second look despite ±30 % drift between blocks', () => {
  // Hodges–Lehmann's signed-rank bounds cannot reach the first look's pass level (0.56 %) with 6
  // blocks (2⁻⁶ = 1.6 %): the first look cannot pass, the second (9 blocks, 1.25 %) can.
  assert.equal(gateAt(6, 0.005, { index: 0, final: false }).evidence.reason, 'continue');
  const { evidence, gate } = gateAt(9, 0.005, { index: 1, final: false });
  assert.equal(evidence.decision, 'pass');
  assert.equal(evidence.reason, 'within-minimum');
  assert.equal(evidence.pairs, 9);
  assert.ok(evidence.upperBound < 0.05 && evidence.change.low < 0.005 && evidence.change.high > 0.005);
  assert.equal(evidence.minimum, 0.05, '5 % is the larger minimum at 2 ms (0.05 ms is 2.5 %)');
  assert.equal(gate.kind, 'ab');
  assert.equal(gate.decision, 'pass');
  assert.match(
    wordGate(gate).line,
    /^m head vs base \[1000rps\]: p50 \+\d\.\d+% \[(-∞|[-+][\d.]+%), \+[\d.]+%\], within 5\.00% → pass \(9 blocks\)$/,
  );
  assert.equal(evidence.perBlock.length, 9);
});

test('fail: head 15 % slower is significant at the first look that can reach the fail level, and not under the minimum', () => {
  assert.equal(gateAt(9, 0.15, { index: 1, final: false }).evidence.reason, 'continue', '2⁻⁹ is above the 0.03 % this look spends');
  const { evidence, gate } = gateAt(12, 0.15, { index: 2, final: false });
  assert.equal(evidence.decision, 'fail');
  assert.equal(evidence.reason, 'slower');
  assert.ok(evidence.change.low > 0.1, `low ${evidence.change.low}`);
  assert.ok(evidence.p < evidence.nominalAlpha);
  assert.match(wordGate(gate).line, /slower \(p [\d.e-]+ ≤ [\d.e-]+\), not shown within 5\.00% → fail \(12 blocks\)/);
  const t = evaluateAbGate({
    ...inputFor(9, 0.15),
    settings: { ...settings, estimator: 'trimmed-mean' },
    look: { index: 1, final: false },
  });
  assert.equal(t.evidence.decision, 'fail', 'a t-type interval can fail at 9 blocks');
});

test('a real slowdown shown smaller than the minimum passes, significant or not', () => {
  const { evidence } = gateAt(
    12,
    0.02,
    { index: 2, final: false },
    wobble.map((w) => w / 4),
  );
  assert.ok(evidence.p < 0.01, 'significant at a fixed sample');
  assert.equal(evidence.decision, 'pass');
  assert.ok(evidence.change.low > 0 && evidence.upperBound < 0.05);
});

test('inconclusive: the budget runs out, with the blocks that would settle it; at an interim look the same data asks for more', () => {
  const noisy = wobble.map((w) => w * 5);
  const last = gateAt(6, 0.03, { index: 0, final: true }, noisy);
  assert.equal(last.evidence.decision, 'inconclusive');
  assert.equal(last.evidence.reason, 'budget-spent');
  assert.ok(typeof last.evidence.blocksToSettle === 'number' && last.evidence.blocksToSettle > 6, String(last.evidence.blocksToSettle));
  assert.equal(signedRankReach(0.01), 7, 'Hodges–Lehmann cannot fail below 7 blocks at 1 % (2⁻⁶ = 1.6 %)');
  assert.match(
    wordGate(last.gate).line,
    /not settled within the budget; about \d+ paired blocks would settle it → inconclusive \(6 blocks\)$/,
  );
  const interim = gateAt(6, 0.03, { index: 0, final: false }, noisy);
  assert.equal(interim.evidence.reason, 'continue');
  assert.equal(interim.evidence.blocksToSettle, undefined);
});

test('analyzeRun: arms give analysis.ab and an "ab" gate; an interim look lists both arms in modesToExtend, a final one none', () => {
  const base = drift.slice(0, 6);
  const run = armsRun(
    base,
    base.map((b, i) => b * 1.03 * Math.exp(wobble[i]! * 5)),
  );
  const interim = analyzeWorded(run, { config, look: { index: 0, final: false }, design, resamples: 50 });
  assert.equal(interim.ab?.gates.length, 1);
  assert.equal(interim.ab!.gates[0]!.reason, 'continue');
  assert.deepEqual(interim.modesToExtend.sort(), ['m-base', 'm-head']);
  assert.equal(interim.gates.filter((g) => g.kind === 'ab').length, 1);
  assert.equal(interim.verdict, 'inconclusive');
  const last = analyzeWorded(run, { config, look: { index: 0, final: true }, design, resamples: 50 });
  assert.deepEqual(last.modesToExtend, []);
  assert.equal(last.ab!.gates[0]!.reason, 'budget-spent');
  // Without a look (repetitions: N): one fixed look at the run's 6 blocks.
  const fixed = analyzeWorded(run, { config, resamples: 50 });
  assert.equal(fixed.ab!.gates[0]!.looks, 1);
  assert.deepEqual(fixed.modesToExtend, []);
  const written: RunResult = JSON.parse(JSON.stringify({ ...run, analysis: interim }));
  assert.equal(resultsSchema.safeParse(written).success, true, 'the A/B evidence fits the results schema');
  const statistics = testConfig({ gates: { ab: { statistics: ['p50', 'p99'] } } }, ['m-base', 'm-head']);
  assert.deepEqual(
    analyzeWorded(run, { config: statistics, resamples: 50 }).ab!.gates.map((g) => g.statistic),
    ['p50', 'p99'],
  );
});

test('an arm whose every request fails: the error gate fails the run naming the arm; the A/B gate is never a pass', () => {
  const base = drift.slice(0, 6);
  const run = armsRun(base, base, (mode, _i, spec) =>
    mode === 'm-head' ? { ...spec, failures: spec.requests ?? 10_000, invalidReason: 'every request failed' } : spec,
  );
  for (const rep of run.modes[1]!.repetitions) rep.latencyMs = null;
  const analysis = analyzeWorded(run, { config, resamples: 50 });
  const ab = analysis.ab!.gates[0]!;
  assert.equal(ab.decision, 'inconclusive');
  assert.equal(ab.reason, 'arm-invalid');
  const errorGate = analysis.gates.find((g) => g.gate === 'load.maxErrorRate' && g.mode === 'm-head');
  assert.equal(errorGate?.decision, 'fail');
  assert.equal(analysis.verdict, 'fail');
  assert.ok(
    analysis.verdictReasons.some((r) => r.startsWith('m-head [1000rps]: 100')),
    analysis.verdictReasons.join('\n'),
  );
});

test('an arm whose repetitions held the rate but whose every request failed (no latency) is arm-invalid at every look', () => {
  const base = drift.slice(0, 6);
  const run = armsRun(base, base, (mode, _i, spec) => (mode === 'm-head' ? { ...spec, failures: spec.requests ?? 10_000 } : spec));
  for (const rep of run.modes[1]!.repetitions) rep.latencyMs = null;
  const interim = analyzeWorded(run, { config, look: { index: 0, final: false }, design, resamples: 50 });
  assert.equal(interim.ab!.gates[0]!.reason, 'arm-invalid');
  assert.deepEqual(interim.modesToExtend, [], 'more blocks cannot pair an arm without latency');
  assert.equal(interim.verdict, 'fail');
});

test('results schema v3 files migrate to v4: modesToConfirm becomes modesToExtend', () => {
  const run = armsRun(drift.slice(0, 6), drift.slice(0, 6));
  const analysis = analyzeWorded(run, { config, resamples: 50 });
  const { modesToExtend: _new, ab: _ab, ...v3Analysis } = analysis;
  for (const m of run.modes) delete m.arm;
  const v3 = { ...run, schemaVersion: 3, analysis: { ...v3Analysis, modesToConfirm: ['sidecar'] } };
  const migrated = migrateResults(JSON.parse(JSON.stringify(v3)), 'old/results.json');
  assert.equal(migrated.schemaVersion, RESULTS_SCHEMA_VERSION);
  assert.deepEqual(migrated.analysis?.modesToExtend, ['sidecar']);
  assert.equal('modesToConfirm' in (migrated.analysis ?? {}), false);
});
