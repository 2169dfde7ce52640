// The A/B gate (head against base in the same run): every decision path, the sequential design's
// boundaries, the estimators' bounds, the family of a run's gates sharing one alpha (Holm), the
// dependence of blocks, the final re-analysis, analyzeRun's integration and the results contract
// around it. Pure and fast; the statistical acceptance over thousands of runs is
// test/analysis/ab-acceptance.test.ts (and bench/ab-gate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failLevels, finalAt, lookSchedule, relookAfter, sequentialDesign, spendingBoundaries } from '../../src/analysis/ab/design.ts';
import { dependenceOf, effectiveDf, INDEPENDENT } from '../../src/analysis/ab/dependence.ts';
import { estimate, scaledBound, widenedBound } from '../../src/analysis/ab/estimators.ts';
import { evaluateAbFamily } from '../../src/analysis/ab/family.ts';
import { evaluateAbGate, lookOfGate } from '../../src/analysis/ab/gate.ts';
import { smallestDecidable } from '../../src/analysis/ab/planning.ts';
import { normalQuantile } from '../../src/analysis/distributions.ts';
import { wordGate } from '../../src/report/gate-words.ts';
import { migrateResults } from '../../src/results/migrate.ts';
import { resultsSchema } from '../../src/results/schema.ts';
import { RESULTS_SCHEMA_VERSION, type ModeResult, type RunResult } from '../../src/results/types.ts';
import { seededRandom } from '../../src/util/random.ts';
import { analyzeWorded, gaussian, syntheticRun, testConfig } from './synthetic.ts';

const config = testConfig({}, ['m-base', 'm-head']);
const settings = config.gates.ab;
/** The default design: looks at 10, 20, 30, 40 blocks. */
const design = sequentialDesign({ minBlocks: 10, maxBlocks: 40 }, settings);

/** A run whose two modes are the arms of "m", with the given per-block p50 levels. */
function armsRun(base: number[], head: number[], tweak?: Parameters<typeof syntheticRun>[0]['tweak']): RunResult {
  const run = syntheticRun({ config, levels: { 'm-base': base, 'm-head': head }, ...(tweak ? { tweak } : {}) });
  run.modes[0]!.arm = { of: 'm', side: 'base' };
  run.modes[1]!.arm = { of: 'm', side: 'head' };
  return run;
}

const random = seededRandom(39);
/** Base levels around 2 ms that drift ±30 % from block to block, as a busy runner does. */
const drift = Array.from({ length: 40 }, () => 2 * Math.exp(0.3 * gaussian(random)));
/** Per-block log-ratio noise, sd about 1.2 %. */
const wobble = Array.from({ length: 40 }, () => 0.012 * gaussian(random));

function armsAt(blocks: number, shift: number, noise = wobble): { base: ModeResult; head: ModeResult } {
  const base = drift.slice(0, blocks);
  const run = armsRun(
    base,
    base.map((b, i) => b * (1 + shift) * Math.exp(noise[i]!)),
  );
  return { base: run.modes[0]!, head: run.modes[1]! };
}

function gateAt(blocks: number, shift: number, look: { index: number; final: boolean }, noise = wobble) {
  return evaluateAbGate({ mode: 'm', profile: '1000rps', statistic: 'p50', ...armsAt(blocks, shift, noise), settings, design, look });
}

test('design: O’Brien–Fleming-type spending still reproduces the published boundaries (5 equal looks, one-sided 2.5 %)', () => {
  const z = spendingBoundaries([0.2, 0.4, 0.6, 0.8, 1], 0.025);
  [4.877, 3.357, 2.68, 2.29, 2.031].forEach((expected, i) => assert.ok(Math.abs(z[i]! - expected) < 0.005, `look ${i + 1}: ${z[i]}`));
  assert.ok(Math.abs(spendingBoundaries([1], 0.01)[0]! - normalQuantile(0.99)) < 1e-3, 'one look is the fixed-sample boundary');
});

test('design: looks at 10/20/30/40; the fail side spends α·t², reachable at the first look; a stop at an earlier look spends the rest', () => {
  assert.deepEqual(design.looks, [10, 20, 30, 40]);
  assert.deepEqual(design.failSpent, [1 / 16, 1 / 4, 9 / 16, 1]);
  // The first look's one-sided level is exactly α·(10/40)²: nothing was spent before it.
  assert.ok(Math.abs(design.failAlpha[0]! - 0.01 / 16) < 1e-9, String(design.failAlpha[0]));
  for (let i = 1; i < design.looks.length; i++) {
    assert.ok(design.failZ[i]! < design.failZ[i - 1]!, 'fail boundary falls');
    assert.ok(design.passZ[i]! < design.passZ[i - 1]!, 'pass boundary falls');
  }
  const stopped = finalAt(design, 1);
  assert.deepEqual(stopped.looks, [10, 20]);
  assert.equal(stopped.failZ[0], design.failZ[0], 'earlier looks keep their boundaries');
  assert.ok(stopped.failZ[1]! < design.failZ[1]!, 'the last look spends what is left');
  assert.equal(finalAt(design, 1), stopped, 'the same truncation is computed once');
  assert.deepEqual(lookSchedule({ minBlocks: 3, maxBlocks: 18 }, 3), [4, 7, 10, 13, 16, 18], 'never a look under 4 blocks');
  assert.deepEqual(lookSchedule({ minBlocks: 20, maxBlocks: 12 }, 3), [12]);
});

test('design: looks moved to where the budget ends keep the earlier boundaries and spend everything at the new last look', () => {
  const moved = relookAfter(design, 1, [27]);
  assert.deepEqual(moved.looks, [10, 20, 27]);
  assert.deepEqual(moved.failZ.slice(0, 2), design.failZ.slice(0, 2), 'decisions made at the kept looks stand');
  assert.deepEqual(moved.passZ.slice(0, 2), design.passZ.slice(0, 2));
  assert.deepEqual(failLevels(moved, 1 / 3).slice(0, 2), failLevels(design, 1 / 3).slice(0, 2), 'at any share');
  assert.equal(moved.failSpent[2], 1);
  assert.ok(moved.failZ[2]! < design.failZ[2]!, 'an earlier last look is less strict than the planned third look');
  assert.deepEqual(relookAfter(design, 1, [30, 35]).looks, [10, 20, 30, 35]);
});

test('design: a gate spending a smaller share of the run’s alpha (Holm) has stricter boundaries at every look', () => {
  const third = failLevels(design, 1 / 3);
  const half = failLevels(design, 1 / 2);
  third.forEach((level, i) => {
    assert.ok(level < half[i]! && half[i]! < design.failAlpha[i]!, `look ${i + 1}`);
  });
  assert.ok(Math.abs(third[0]! - 0.01 / 3 / 16) < 1e-9);
  assert.equal(failLevels(design, 1 / 3), third, 'computed once per share');
});

test('estimators: centres; the rank bound stops where the signed-rank distribution does, the scaled bound reaches any level', () => {
  const values = [0.01, 0.02, 0.03, 0.04, 1.0];
  assert.ok(Math.abs(estimate('trimmed-mean', values).center - 0.03) < 1e-12, '20 % trimmed: the middle three');
  assert.ok(Math.abs(estimate('paired-t', values).center - 0.22) < 1e-12);
  assert.ok(Math.abs(estimate('hodges-lehmann', [1, 2, 3]).center - 2) < 1e-12);
  const hl = estimate('hodges-lehmann', [0.61, 0.72, 0.68, 0.7, 0.66, 0.69, 0.71, 0.65, 0.7, 0.67]);
  assert.equal(hl.bound(1e-5), -Infinity, 'ten values cannot reach 1e-5 by their ranks');
  const scaled = scaledBound(hl, 1e-5, INDEPENDENT);
  assert.ok(Number.isFinite(scaled) && scaled > 0.5, `a doubling's scaled lower bound at 1e-5: ${scaled}`);
  assert.equal(widenedBound(hl, 0.95, INDEPENDENT), hl.bound(0.95), 'independent blocks: the rank bound itself');
  const dependent = { factor: 1.8, rho: 0.29, blocks: 30 };
  assert.ok(widenedBound(hl, 0.95, dependent) > hl.bound(0.95), 'dependent blocks widen the pass bound');
  assert.ok(scaledBound(hl, 0.001, dependent) < scaledBound(hl, 0.001, INDEPENDENT), 'and the fail bound');
  // Four values cannot give a 95 % rank bound (all four on one side has probability 1/16 > 5 %).
  const four = estimate('hodges-lehmann', [-0.004, -0.003, -0.002, -0.001]);
  assert.equal(four.bound(0.95), Infinity);
});

test('dependence: blocks that follow each other (AR(1) ρ 0.5) widen the intervals; independent ones barely; the effective blocks never below half', () => {
  const r = seededRandom(7);
  const ar = (rho: number) =>
    Array.from({ length: 3 }, () => {
      let x = gaussian(r);
      return Array.from({ length: 30 }, () => (x = rho * x + Math.sqrt(1 - rho * rho) * gaussian(r)));
    });
  const dependent = dependenceOf(ar(0.5));
  const independent = dependenceOf(ar(0));
  assert.ok(dependent.factor > 2, `AR(1) ρ 0.5: factor ${dependent.factor}`);
  assert.ok(independent.factor < dependent.factor && independent.factor < 1.6, `independent: factor ${independent.factor}`);
  assert.equal(dependent.blocks, 90, 'pooled over the gates');
  assert.deepEqual(dependenceOf([[0.1, 0.2]]), INDEPENDENT, 'too short to say anything');
  assert.equal(effectiveDf(29, 1), 29);
  assert.equal(effectiveDf(29, 9), 14.5);
  assert.equal(effectiveDf(Infinity, 2), Infinity);
});

test('pass: head within the practical minimum, shown at the first look despite ±30 % drift between blocks', () => {
  const { evidence, gate } = gateAt(10, 0.005, { index: 0, final: false });
  assert.equal(evidence.decision, 'pass');
  assert.equal(evidence.reason, 'within-minimum');
  assert.equal(evidence.pairs, 10);
  assert.ok(evidence.upperBound < 0.05 && evidence.change.low < 0.005 && evidence.change.high > 0.005);
  assert.equal(evidence.minimum, 0.05, '5 % is the larger minimum at 2 ms (0.05 ms is 2.5 %)');
  assert.equal(evidence.family, 1);
  assert.equal(gate.kind, 'ab');
  assert.match(
    wordGate(gate).line,
    /^m head vs base \[1000rps\]: p50 [-+]\d\.\d+% \[[-+][\d.]+%, \+[\d.]+%\], within 5\.00% → pass \(10 blocks\)$/,
  );
  assert.equal(evidence.perBlock.length, 10);
});

test('fail: a doubling and a 15 % slowdown fail at the first look (10 blocks), where a rank bound could not', () => {
  for (const shift of [1, 0.15]) {
    const { evidence, gate } = gateAt(10, shift, { index: 0, final: false });
    assert.equal(evidence.decision, 'fail', `+${shift * 100}%`);
    assert.equal(evidence.reason, 'slower');
    assert.ok(evidence.change.low > shift / 2, `low ${evidence.change.low}`);
    assert.ok(Math.abs(evidence.nominalAlpha - 0.01 / 16) < 1e-9, 'the first look spends α·(10/40)²');
    assert.match(
      wordGate(gate).line,
      /slower \(p (<1e-12|[\d.e-]+) ≤ [\d.e-]+\), and its interval reaches past the 5\.00% allowed → fail \(10 blocks\)/,
    );
    assert.ok(evidence.p <= evidence.nominalAlpha, 'the p shown is the fail side’s: at most the level it failed at');
  }
});

test('a real slowdown shown smaller than the minimum passes, significant or not', () => {
  const { evidence } = gateAt(
    20,
    0.02,
    { index: 1, final: false },
    wobble.map((w) => w / 4),
  );
  assert.ok(evidence.p < 0.01, 'significant at a fixed sample');
  assert.equal(evidence.decision, 'pass');
  assert.ok(evidence.change.low > 0 && evidence.upperBound < 0.05);
});

test('inconclusive: the budget runs out, with the blocks that would settle it; at an interim look the same data asks for more', () => {
  const noisy = wobble.map((w) => w * 5);
  const last = gateAt(10, 0.03, { index: 0, final: true }, noisy);
  assert.equal(last.evidence.decision, 'inconclusive');
  assert.equal(last.evidence.reason, 'budget-spent');
  assert.ok(typeof last.evidence.blocksToSettle === 'number' && last.evidence.blocksToSettle > 10, String(last.evidence.blocksToSettle));
  assert.match(
    wordGate(last.gate).line,
    /not settled within the budget: the interval neither stays under the .* allowed nor shows it slower; about \d+ paired blocks would settle it → inconclusive \(10 blocks\)$/,
  );
  const interim = gateAt(10, 0.03, { index: 0, final: false }, noisy);
  assert.equal(interim.evidence.reason, 'continue');
  assert.equal(interim.evidence.blocksToSettle, undefined);
  const stopped = evaluateAbGate({
    mode: 'm',
    profile: '1000rps',
    statistic: 'p50',
    ...armsAt(10, 0.03, noisy),
    settings,
    design,
    look: { index: 0, final: true, stoppedBy: 'gate-failed' },
  });
  assert.equal(stopped.evidence.reason, 'run-stopped');
  assert.match(wordGate(stopped.gate).line, /not settled when another gate failed the run → inconclusive/);
});

test('the final re-analysis keeps a decision made at the look: a fail stays a fail though spending the rest would have passed it', () => {
  // A slowdown under the minimum whose interval, at look 2, is above 0 (fail) and not yet under
  // 5 %, but would be under 5 % if the pass side spent everything left there (finalAt).
  const judged = (shift: number, scale: number, at: typeof design, final: boolean) =>
    evaluateAbGate({
      mode: 'm',
      profile: '1000rps',
      statistic: 'p50',
      ...armsAt(
        20,
        shift,
        wobble.map((w) => w * scale),
      ),
      settings,
      design: at,
      look: { index: 1, final },
    }).evidence.decision;
  let found: [number, number] | undefined;
  for (let scale = 1; scale <= 5 && !found; scale += 0.25)
    for (let shift = 0.02; shift <= 0.045 && !found; shift += 0.0025)
      if (judged(shift, scale, design, false) === 'fail' && judged(shift, scale, finalAt(design, 1), true) === 'pass')
        found = [shift, scale];
  assert.ok(found, 'such a slowdown exists');
  assert.equal(judged(found![0], found![1], design, true), 'fail', 'the final re-analysis at the same look keeps the fail');
});

test('a gate whose arms stopped at an earlier look is judged at that look', () => {
  assert.equal(lookOfGate(design, 3, 10), 0);
  assert.equal(lookOfGate(design, 3, 25), 1);
  assert.equal(lookOfGate(design, 1, 40), 1);
  const { evidence } = gateAt(10, 0.005, { index: 2, final: false });
  assert.equal(evidence.look, 0);
  assert.equal(evidence.decision, 'pass');
});

test('one alpha per run (Holm): each of three gates starts at α/3; when one fails, the others are judged again at α/2', () => {
  // Gate a fails overwhelmingly; gate b is significant at α/2 but not at α/3 (chosen below); c is clean.
  const r = seededRandom(3);
  const series = (shift: number, sd: number) => Array.from({ length: 40 }, () => shift + sd * gaussian(r));
  const member = (name: string, logs: number[]) => {
    const run = armsRun(
      drift,
      drift.map((b, i) => b * Math.exp(logs[i]!)),
    );
    return { mode: name, profile: '1000rps', statistic: 'p50' as const, base: run.modes[0], head: run.modes[1] };
  };
  const look = { index: 3, final: false };
  const loose = { ...settings, minEffectPct: 0.1, minEffectMs: 0 };
  const family = (members: ReturnType<typeof member>[]) => evaluateAbFamily({ members, settings: loose, design, look });
  const a = member('a', series(0.3, 0.01));
  const c = member('c', series(0, 0.01));
  const d = member('d', series(0, 0.01));
  // A borderline slowdown for b: failed once a has failed (a half share), not beside two clean gates (a third).
  let found: { b: ReturnType<typeof member>; withA: ReturnType<typeof family>; withoutA: ReturnType<typeof family> } | undefined;
  for (let shift = 0.002; shift < 0.03 && !found; shift += 0.0005) {
    const b = member('b', series(shift, 0.012));
    const withA = family([a, b, c]);
    const withoutA = family([c, b, d]);
    const b2 = withA[1]!.evidence;
    if (b2.decision === 'fail' && b2.alphaShare === 1 / 2 && withoutA[1]!.evidence.decision !== 'fail') found = { b, withA, withoutA };
  }
  assert.ok(found, 'a borderline gate exists');
  const { withA, withoutA } = found!;
  assert.equal(withA[0]!.evidence.decision, 'fail');
  assert.equal(withA[0]!.evidence.alphaShare, 1 / 3, 'a failed at its third');
  assert.equal(withA[1]!.evidence.alphaShare, 1 / 2, 'b was judged again at a half');
  assert.equal(withA[1]!.evidence.family, 3);
  assert.notEqual(withA[2]!.evidence.decision, 'fail');
  assert.equal(withoutA[1]!.evidence.alphaShare, 1 / 3, 'without a failure, b has only its third');
  assert.match(wordGate(withA[1]!.gate).line, /1\/2 of the run's alpha over 3 A\/B gates/);
});

test('planning: the smallest change a budget decides grows with the spread and with the gates sharing the alpha', () => {
  const p50 = smallestDecidable(design, 1, 0.05);
  assert.ok(p50 > 0.02 && p50 < 0.05, String(p50));
  assert.ok(smallestDecidable(design, 3, 0.05) > p50);
  assert.ok(smallestDecidable(design, 1, 0.29) > 0.15);
  assert.ok(smallestDecidable(sequentialDesign({ minBlocks: 10, maxBlocks: 20 }, settings), 1, 0.05) > p50);
});

test('analyzeRun: arms give analysis.ab and an "ab" gate; an interim look lists both arms in modesToExtend, a final one none', () => {
  const base = drift.slice(0, 10);
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
  // Without a look (repetitions: N): one fixed look at the run's 10 blocks.
  const fixed = analyzeWorded(run, { config, resamples: 50 });
  assert.equal(fixed.ab!.gates[0]!.looks, 1);
  assert.deepEqual(fixed.modesToExtend, []);
  const written: RunResult = JSON.parse(JSON.stringify({ ...run, analysis: interim }));
  assert.equal(resultsSchema.safeParse(written).success, true, 'the A/B evidence fits the results schema');
  const statistics = testConfig({ gates: { ab: { statistics: ['p50', 'p99'] } } }, ['m-base', 'm-head']);
  const both = analyzeWorded(run, { config: statistics, resamples: 50 }).ab!.gates;
  assert.deepEqual(
    both.map((g) => g.statistic),
    ['p50', 'p99'],
  );
  assert.deepEqual(
    both.map((g) => g.family),
    [2, 2],
    'two statistics of one mode are two gates sharing the alpha',
  );
});

test('a per-statistic practical minimum: p99 judged against its own', () => {
  const base = drift.slice(0, 10);
  const run = armsRun(
    base,
    base.map((b) => b * 1.1),
  );
  const tails = testConfig({ gates: { ab: { statistics: ['p50', 'p99'], minEffectPct: { p99: 20 } } } }, ['m-base', 'm-head']);
  const gates = analyzeWorded(run, { config: tails, resamples: 50 }).ab!.gates;
  assert.equal(gates.find((g) => g.statistic === 'p50')!.minEffect, 0.05, 'unset: 5 %');
  assert.equal(gates.find((g) => g.statistic === 'p99')!.minEffect, 0.2);
  assert.equal(gates.find((g) => g.statistic === 'p99')!.decision, 'pass', '+10 % is within a 20 % minimum');
});

test('an arm whose every request fails: the error gate fails the run naming the arm; the A/B gate is never a pass', () => {
  const base = drift.slice(0, 10);
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
  const base = drift.slice(0, 10);
  const run = armsRun(base, base, (mode, _i, spec) => (mode === 'm-head' ? { ...spec, failures: spec.requests ?? 10_000 } : spec));
  for (const rep of run.modes[1]!.repetitions) rep.latencyMs = null;
  const interim = analyzeWorded(run, { config, look: { index: 0, final: false }, design, resamples: 50 });
  assert.equal(interim.ab!.gates[0]!.reason, 'arm-invalid');
  assert.deepEqual(interim.modesToExtend, [], 'more blocks cannot pair an arm without latency');
  assert.equal(interim.verdict, 'fail');
});

test('arms measured on one address each (platform endpoints): the results say the servers’ own offset is not in the interval', () => {
  const base = drift.slice(0, 10);
  const run = armsRun(base, base);
  run.run.platform = 'endpoints';
  const analysis = analyzeWorded(run, { config, resamples: 50 });
  assert.ok(
    analysis.notes.some((n) => /each arm was one address \(platform endpoints\).*not in the interval/.test(n)),
    analysis.notes.join('\n'),
  );
  assert.ok(
    !analyzeWorded(armsRun(base, base), { config, resamples: 50 }).notes.some((n) => n.startsWith('A/B')),
    'the local platform says nothing',
  );
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
