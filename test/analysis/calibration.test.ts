// The pure A/A calibration analysis on synthetic runs of known noise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeCalibration as analyzeCalibrationEvidence, type CalibrationOptions } from '../../src/analysis/calibration.ts';
import { wordCalibration } from '../../src/report/calibration-words.ts';
import { repetitionsFor } from '../../src/analysis/mde.ts';
import { renderCalibration } from '../../src/report/analysis-text.ts';
import { seededRandom } from '../../src/util/random.ts';
import type { RunResult } from '../../src/results/types.ts';
import { drawLevels, syntheticRun, testConfig } from './synthetic.ts';

/** The calibration as `mesh-perf calibrate` prints it: figures and advice. */
const analyzeCalibration = (run: RunResult, options?: CalibrationOptions) => wordCalibration(analyzeCalibrationEvidence(run, options));

function aa(seed: number, blocks: number, cv: number, offset = 0) {
  const random = seededRandom(seed);
  const config = testConfig({}, ['a', 'b']);
  return syntheticRun({ config, seed, levels: { a: drawLevels(random, blocks, 1, cv), b: drawLevels(random, blocks, 1 + offset, cv) } });
}

test('identical modes: false alarms stay near alpha, the offset CI holds 0, and advice sizes the runs', () => {
  const calibration = analyzeCalibration(aa(1, 20, 0.05), { targetMde: 0.05, statistics: ['p50'] });
  assert.deepEqual(calibration.modes, ['a', 'b']);
  assert.equal(calibration.blocks, 20);
  assert.equal(calibration.subsetSize, 5);
  const p50 = calibration.statistics[0]!;
  assert.ok(p50.cv! > 0.03 && p50.cv! < 0.08, `cv ${p50.cv}`);
  assert.ok(p50.statisticalRate! <= 0.1, `statistical false-difference rate ${p50.statisticalRate}`);
  assert.ok(p50.falseDifferenceRate! <= p50.statisticalRate!, 'the practical minimum only removes alarms');
  assert.equal(calibration.falseAlarmsUnmeasurable, undefined);
  assert.ok(p50.offset.ci!.low <= 0 && 0 <= p50.offset.ci!.high);
  assert.equal(p50.repetitionsForTarget, repetitionsFor(0.05, p50.cv!, 0.05));
  assert.deepEqual(
    p50.mdeByRepetitions.map((m) => m.repetitions),
    [3, 5, 10],
  );
  assert.ok(p50.mdeByRepetitions[0]!.mde! > p50.mdeByRepetitions[2]!.mde!, 'more repetitions, smaller MDE');
  assert.match(
    calibration.advice[0]!,
    /^p\(50\): run-to-run CV [\d.]+%; with 5 repetitions changes under [\d.]+% are not detectable; \d+ repetitions per run reach a 5\.00% MDE/,
  );
  assert.equal(calibration.advice.length, 1, calibration.advice.join('\n'));
});

test('two "identical" modes that differ by 10 % are called out', () => {
  const calibration = analyzeCalibration(aa(2, 12, 0.02, 0.1), { statistics: ['p50'] });
  const p50 = calibration.statistics[0]!;
  assert.ok(p50.offset.ci!.low > 0.05, JSON.stringify(p50.offset));
  assert.ok(p50.falseDifferenceRate! > 0.3);
  assert.match(calibration.advice.join('\n'), /the two identical modes differ by \+\d+\.\d+% \(CI excludes 0\)/);
  assert.match(calibration.advice.join('\n'), /identical modes look different in [\d.]+% of comparisons/);
});

test('calibration needs two modes of the same profile', () => {
  const random = seededRandom(3);
  const single = syntheticRun({ config: testConfig({}, ['a']), levels: { a: drawLevels(random, 6, 1, 0.05) } });
  assert.throws(
    () => analyzeCalibration(single),
    /calibration needs two modes measuring the same target in profile "1000rps"; found a \[1000rps\]/,
  );
});

test('calibrationConfig measures one mode twice, ungated and unpublished', async () => {
  const { calibrationConfig } = await import('../../src/analysis/calibration.ts');
  const config = testConfig({ gates: { thresholds: ['p(95) < 1ms'] }, history: { publish: true } }, ['direct', 'proxied']);
  const aa = calibrationConfig(config, 'proxied');
  assert.deepEqual(
    aa.modes.map((m) => m.name),
    ['proxied', 'proxied-aa'],
  );
  assert.equal(aa.baseline, 'proxied');
  assert.equal(aa.profiles[0]!.repetitions, 10, 'at least 10 blocks by default');
  assert.deepEqual(aa.gates.thresholds, []);
  assert.equal(aa.gates.regression.enabled, false);
  assert.equal(aa.history.publish, false);
  assert.equal(calibrationConfig(config, undefined, 6).modes[0]!.name, 'direct', 'the baseline by default');
  assert.throws(() => calibrationConfig(config, 'proxy'), /calibration: "proxy" names no mode of the config \(modes: direct, proxied\)/);
});

test('too few repetitions: 2 against 2 cannot reach alpha, so the false-alarm rate is not measurable (never "0.00%")', () => {
  // calibrate --repetitions 4: 4 blocks, subsets of 2 against 2, smallest one-sided p 1/6.
  const calibration = analyzeCalibration(aa(3, 4, 0.05), { statistics: ['p50', 'p99'] });
  assert.equal(calibration.subsetSize, 2);
  for (const s of calibration.statistics) {
    assert.equal(s.falseDifferenceRate, null);
    assert.equal(s.statisticalRate, null);
  }
  assert.equal(
    calibration.falseAlarmsUnmeasurable,
    "false alarms cannot be measured: with 2 against 2 repetitions the rank test's smallest p is 0.167 > alpha 0.05, so no comparison could ever be flagged; calibrate with at least 6 repetitions (3 against 3)",
  );
  const text = renderCalibration(calibration);
  assert.match(text, /\nfalse alarms cannot be measured: with 2 against 2 repetitions/);
  assert.match(text, /\np\(50\)\s+[\d.]+%\s+[-+]?[\d.]+% \[.*\]\s+not measurable\s+—\s+/);
  assert.doesNotMatch(text, /0\.00%/);
  // 6 repetitions (3 against 3, smallest p 0.05) are measurable.
  assert.equal(analyzeCalibration(aa(3, 6, 0.05), { statistics: ['p50'] }).falseAlarmsUnmeasurable, undefined);
});
