// analyzeRun on synthetic runs: thresholds, overhead budgets, validity, regression with
// confirmation rounds, reference selection by scenario key, determinism.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GateResult } from '../../src/results/analysis.ts';
import { ERROR_GATE } from '../../src/analysis/error-gate.ts';
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { seededRandom } from '../../src/util/random.ts';
import { analyzeWorded, drawLevels, syntheticRun, testConfig } from './synthetic.ts';

/** The gates the config asked for, without the error gate every mode gets (test/analysis/error-gate.test.ts). */
const configured = (analysis: { gates: GateResult[] }) => analysis.gates.filter((g) => g.gate !== ERROR_GATE);

const steady = [1.0, 1.02, 0.98, 1.01, 0.99];

function only(gates: GateResult[], predicate: (g: GateResult) => boolean): GateResult {
  const found = gates.filter(predicate);
  assert.equal(found.length, 1, `expected one gate, found ${found.length}: ${gates.map((g) => g.line).join('\n')}`);
  return found[0]!;
}

test('absolute thresholds: pass and fail on the median, each line with value, CI, threshold, decision and MDE', () => {
  const config = testConfig({ gates: { thresholds: ['p(95) < 250ms', 'mode=sidecar: p(95) < 1.9ms'] } });
  const run = syntheticRun({ config, levels: { baseline: steady, sidecar: steady.map((l) => l * 1.1) } });
  const analysis = analyzeWorded(run, { config });
  assert.equal(analysis.gates.filter((g) => g.gate === 'p(95) < 250ms').length, 2, 'unscoped threshold applies to every mode');
  const failed = only(analysis.gates, (g) => g.gate.startsWith('mode=sidecar'));
  assert.equal(failed.decision, 'fail');
  assert.ok(Math.abs(failed.value!.value - 1.8 * 1.1) < 0.05);
  assert.match(failed.line, /^sidecar \[1000rps\] p\(95\): [\d.]+ ms \[[\d.]+ ms, [\d.]+ ms\], threshold < 1\.9 ms → fail/);
  assert.match(failed.line, /with this noise, changes under [\d.]+% on p\(95\) between two runs like this one are not detectable/);
  assert.equal(analysis.verdict, 'fail');
  assert.ok(analysis.verdictReasons.some((r) => r === failed.line));
});

test('error_rate is failures ÷ requests over the run, so one bad repetition counts', () => {
  const config = testConfig({ gates: { thresholds: ['error_rate < 0.5%'] } }, ['baseline']);
  const run = syntheticRun({
    config,
    levels: { baseline: steady },
    tweak: (_mode, index, spec) => (index === 2 ? { ...spec, failures: 500, requests: 10_000 } : spec),
  });
  const analysis = analyzeWorded(run, { config });
  const gate = only(analysis.gates, (g) => g.gate === 'error_rate < 0.5%');
  assert.equal(
    only(analysis.gates, (g) => g.gate === 'load.maxErrorRate').decision,
    'pass',
    'exactly the default 1% passes the error gate',
  );
  assert.equal(analysis.summaries[0]!.statistics.errorRate!.median, 0, 'the median repetition had no errors');
  assert.ok(Math.abs(gate.value!.value - 500 / 50_000) < 1e-12);
  assert.equal(gate.decision, 'fail');
});

test('achieved_rps >= 99% compares achieved with target per repetition', () => {
  const config = testConfig({ gates: { thresholds: ['achieved_rps >= 99%', 'achieved_rps >= 99.9%'] } }, ['baseline']);
  const run = syntheticRun({ config, levels: { baseline: steady }, tweak: (_m, _i, spec) => ({ ...spec, achievedRps: 995 }) });
  const analysis = analyzeWorded(run, { config });
  assert.deepEqual(
    configured(analysis).map((g) => g.decision),
    ['pass', 'fail'],
  );
});

test('overhead budgets are paired by block: drift shared by both modes cancels', () => {
  // Every block drifts by up to ±40 %, the sidecar adds 0.3 ms in each block.
  const drift = [1.0, 1.4, 0.7, 1.2, 0.9];
  const baseline = drift.map((d) => 1 * d);
  const sidecar = drift.map((d, i) => 1 * d + 0.3 + [0.01, -0.01, 0.02, 0, -0.02][i]!);
  const config = testConfig({ gates: { overhead: ['overhead.p50 < 0.2ms', 'overhead.p50 < 0.5ms', 'overhead_ratio.p50 < 2'] } });
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline, sidecar } }), { config });
  const p50 = analysis.overheads.find((o) => o.mode === 'sidecar' && o.metric === 'p50')!;
  assert.equal(p50.paired, true);
  assert.equal(p50.pairs, 5);
  assert.ok(Math.abs(p50.difference.value - 0.3) < 0.02);
  assert.ok(p50.difference.ci!.high - p50.difference.ci!.low < 0.06, `paired CI is narrow: ${JSON.stringify(p50.difference.ci)}`);
  assert.deepEqual(
    configured(analysis).map((g) => [g.mode, g.decision]),
    [
      ['sidecar', 'fail'],
      ['sidecar', 'pass'],
      ['sidecar', 'pass'],
    ],
    'overhead budgets skip the baseline mode',
  );
  assert.match(
    analysis.gates[0]!.line,
    /overhead\.p\(50\) vs baseline: \+0\.\d+ ms \[.*\] \(paired over 5 blocks\), threshold < 0\.2 ms → fail/,
  );
  assert.match(analysis.gates[0]!.line, /overheads under [\d.]+ ms \([\d.]+%\) on p\(50\) are not distinguishable from zero/);
});

test('an invalid repetition makes the verdict invalid even when every gate passes, and names it', () => {
  const config = testConfig({ gates: { thresholds: ['p(95) < 250ms'] } });
  const run = syntheticRun({
    config,
    levels: { baseline: steady, sidecar: steady },
    tweak: (mode, index, spec) => (mode === 'sidecar' && index === 3 ? { ...spec, invalidReason: '12 dropped iterations' } : spec),
  });
  const analysis = analyzeWorded(run, { config });
  assert.ok(analysis.gates.every((g) => g.decision === 'pass'));
  assert.equal(analysis.verdict, 'invalid');
  assert.match(
    analysis.verdictReasons.join('\n'),
    /invalid repetition: sidecar \[1000rps\] trial \d+ \(block 4, round 1\): 12 dropped iterations/,
  );
  assert.equal(analysis.summaries.find((s) => s.mode === 'sidecar')!.valid, 4, 'invalid repetitions never enter the statistics');
  assert.deepEqual(analysis.modesToExtend, []);
});

test('resource gates: evaluated from per-repetition resources, skipped with a note when none were sampled', () => {
  const config = testConfig({ gates: { thresholds: ['cpu_per_1000rps < 250m'], overhead: ['overhead.cpu_per_1000rps < 100m'] } });
  const withResources = syntheticRun({
    config,
    levels: { baseline: steady, sidecar: steady },
    tweak: (mode, _i, spec) => ({ ...spec, cpuMillicores: mode === 'sidecar' ? 300 : 100 }),
  });
  const analysis = analyzeWorded(withResources, { config });
  const sidecarCpu = only(configured(analysis), (g) => g.kind === 'threshold' && g.mode === 'sidecar');
  assert.equal(sidecarCpu.value!.value, 300, 'client (k6) usage is not counted');
  assert.equal(sidecarCpu.decision, 'fail');
  const overhead = only(analysis.gates, (g) => g.kind === 'overhead');
  assert.equal(overhead.value!.value, 200);
  assert.equal(overhead.decision, 'fail');

  const without = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady } }), { config });
  assert.ok(configured(without).every((g) => g.decision === 'skipped'));
  assert.match(configured(without)[0]!.note!, /no cpu_per_1000rps was measured/);
  assert.equal(without.verdict, 'pass');
});

test('a gate scoped to a mode the run does not have is reported, not silently passed', () => {
  // Config validation refuses such a gate (test/config); a results file judged with another
  // config (compare) can still meet one, and analysis must say so rather than pass it silently.
  const config = testConfig();
  config.gates.thresholds = ['mode=linkrd: p(99) < 5ms'];
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady } }), { config });
  assert.match(analysis.notes.join('\n'), /names mode "linkrd", which is not in this run \(modes: baseline, sidecar\)/);
});

function history(count: number, seed: number, sidecarFactor = 1, jobCv = 0) {
  const random = seededRandom(seed);
  const config = testConfig();
  return Array.from({ length: count }, (_, i) => {
    const job = drawLevels(random, 1, 1, jobCv)[0]!;
    return syntheticRun({
      config,
      id: `past-${seed}-${i}`,
      startedAt: new Date(Date.UTC(2025, 11, 1 + i)).toISOString(),
      levels: { baseline: drawLevels(random, 5, 1, 0.03, job), sidecar: drawLevels(random, 5, 1.3 * sidecarFactor, 0.03, job) },
    });
  });
}

test('regression: a 20% slower mode fails, asks for confirmation, and the pooled second round decides', () => {
  const config = testConfig();
  const reference = history(10, 5);
  const random = seededRandom(99);
  const levels = { baseline: drawLevels(random, 5, 1, 0.03), sidecar: drawLevels(random, 5, 1.3 * 1.2, 0.03) };
  const first = analyzeWorded(syntheticRun({ config, levels, id: 'candidate' }), { config, reference });
  const gate = only(first.gates, (g) => g.kind === 'regression' && g.mode === 'sidecar');
  assert.equal(gate.decision, 'fail');
  assert.equal(gate.pendingConfirmation, true);
  assert.equal(gate.evidence!.basis, 'relative');
  assert.equal(gate.evidence!.reference.runIds.length, 10);
  assert.ok(gate.evidence!.runToRun && gate.evidence!.runToRun.p < 0.05);
  assert.deepEqual(first.modesToExtend, ['sidecar']);
  assert.equal(first.verdict, 'fail');
  assert.match(
    gate.line,
    /^sidecar \[1000rps\] p\(50\) \(÷ baseline, per block\): ×1\.\d+ vs ×1\.\d+ over 10 reference runs \(50 repetitions\): change \+\d+\.\d% \(\+[\d.]+ ms\), at most \+[\d.]+% with 95% confidence; /,
  );
  assert.match(
    gate.line,
    /; p(=[\d.]+ ≤ 0\.05|<0\.001) \((rank test over repetitions|run-to-run test over 10 reference runs)\); threshold ≥ \+5% and ≥ \+0\.05 ms within the 95% upper bound, with p ≤ 0\.05 → regression, pending confirmation re-run/,
  );
  assert.match(gate.line, /with this noise, changes under [\d.]+% on p\(50\) against the reference runs are not detectable/);

  const confirmed = analyzeWorded(
    syntheticRun({
      config,
      levels,
      id: 'candidate',
      round2: { baseline: drawLevels(random, 5, 1, 0.03), sidecar: drawLevels(random, 5, 1.3 * 1.2, 0.03) },
    }),
    { config, reference },
  );
  const again = only(confirmed.gates, (g) => g.kind === 'regression' && g.mode === 'sidecar');
  assert.equal(again.decision, 'fail');
  assert.equal(again.pendingConfirmation, undefined);
  assert.deepEqual(confirmed.rounds, [1, 2]);
  assert.deepEqual(
    again.evidence!.rounds!.map((r) => [r.round, r.n]),
    [
      [1, 5],
      [2, 5],
      ['pooled', 10],
    ],
  );
  assert.match(
    again.line,
    // Each round's change; the one test is the pooled decision's.
    /rounds: round 1 \+\d+\.\d+%, round 2 \+\d+\.\d+%, pooled \+\d+\.\d+%; threshold .*→ fail \(regression\)/,
  );
  assert.deepEqual(confirmed.modesToExtend, [], 'never asks for a third round');
  assert.equal(confirmed.verdict, 'fail');
});

test('regression: a fluke in round 1 does not fail the run when the pooled rounds no longer show it; still able to reach the minimum, it is inconclusive', () => {
  const config = testConfig();
  const reference = history(10, 6);
  const fluke = { baseline: [1, 1, 1, 1, 1], sidecar: [1.42, 1.41, 1.43, 1.42, 1.41] }; // +9 %
  const first = analyzeWorded(syntheticRun({ config, levels: fluke, id: 'candidate' }), { config, reference });
  assert.deepEqual(first.modesToExtend, ['sidecar']);
  const second = analyzeWorded(
    syntheticRun({ config, levels: fluke, id: 'candidate', round2: { baseline: [1, 1, 1, 1, 1], sidecar: [1.29, 1.3, 1.31, 1.3, 1.29] } }),
    {
      config,
      reference,
    },
  );
  const gate = only(second.gates, (g) => g.kind === 'regression' && g.mode === 'sidecar');
  // Pooled: +4.2%, the rank test's p 0.009 but run-to-run p 0.067: not significant, and the
  // upper bound (+9.9%) reaches the 5% minimum. That is neither a regression nor a pass; the line
  // gives the decisive p, the run-to-run test's, and no other.
  assert.equal(gate.decision, 'inconclusive');
  assert.match(gate.line, /; p=0\.0\d\d > 0\.05 \(run-to-run test over \d+ reference runs\)[;]/);
  assert.match(
    gate.line,
    /→ inconclusive \(not statistically significant, and its upper bound reaches the practical minimum; about \d+ repetitions per side would settle it\)/,
  );
  assert.ok((gate.repetitionsToSettle ?? 0) > 10);
  assert.equal(second.verdict, 'inconclusive');
  assert.deepEqual(second.modesToExtend, []);
});

test('regression: without confirmation the first round decides; faster is never a regression', () => {
  const config = testConfig({ gates: { regression: { confirm: false } } });
  const reference = history(10, 7);
  const slower = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady.map((l) => l * 1.3 * 1.25) } }), {
    config,
    reference,
  });
  assert.deepEqual(slower.modesToExtend, []);
  assert.equal(slower.verdict, 'fail');
  const faster = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady.map((l) => l * 1.3 * 0.7) } }), {
    config,
    reference,
  });
  assert.equal(faster.verdict, 'pass');
  assert.match(only(faster.gates, (g) => g.kind === 'regression' && g.mode === 'sidecar').line, /pass \(no slowdown\)/);
});

test("regression: the baseline's own raw values are reported, not gated, when other modes are judged against it; basis: absolute or a baseline-only run gates them", () => {
  const reference = history(10, 9);
  const slowRunner = { baseline: steady.map((l) => l * 1.3), sidecar: steady.map((l) => l * 1.3 * 1.3) }; // the whole job 30 % slower
  const auto = analyzeWorded(syntheticRun({ config: testConfig(), levels: slowRunner, id: 'candidate' }), {
    config: testConfig(),
    reference,
  });
  const baselineGate = only(auto.gates, (g) => g.kind === 'regression' && g.mode === 'baseline');
  assert.equal(baselineGate.decision, 'pass');
  assert.equal(baselineGate.reportOnly, true);
  assert.match(
    baselineGate.line,
    /not gated \(would be a regression\).*\[report only: the baseline's raw values move with the runner from job to job/,
  );
  assert.equal(
    only(auto.gates, (g) => g.kind === 'regression' && g.mode === 'sidecar').decision,
    'pass',
    'the ratio cancels the slow runner',
  );
  assert.equal(auto.verdict, 'pass');

  const dedicated = testConfig({ gates: { regression: { basis: 'absolute' } } });
  const gated = analyzeWorded(syntheticRun({ config: dedicated, levels: slowRunner, id: 'candidate' }), { config: dedicated, reference });
  assert.equal(only(gated.gates, (g) => g.kind === 'regression' && g.mode === 'baseline').decision, 'fail');

  const alone = testConfig({}, ['baseline']);
  const aloneReference = reference.map((r) => ({ ...r, modes: r.modes.filter((m) => m.name === 'baseline') }));
  const single = analyzeWorded(syntheticRun({ config: alone, levels: { baseline: slowRunner.baseline }, id: 'candidate' }), {
    config: alone,
    reference: aloneReference,
  });
  assert.equal(
    only(single.gates, (g) => g.kind === 'regression' && g.mode === 'baseline').decision,
    'fail',
    'nothing else would gate a run of the baseline alone',
  );
});

test('regression: reference runs of another scenario are excluded and say which field differs', () => {
  const config = testConfig();
  const reference = history(4, 8);
  const other = syntheticRun({ config, id: 'other-runner', runnerClass: 'linux-x64-16c', levels: { baseline: steady, sidecar: steady } });
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady.map((l) => l * 1.3) } }), {
    config,
    reference: [...reference, other],
  });
  assert.equal(analysis.reference!.runIds.includes('other-runner'), false);
  assert.match(
    analysis.reference!.excluded.map((x) => `${x.runId}: ${x.reason}`).join('\n'),
    /other-runner: baseline \[1000rps\]: runnerClass linux-x64-16c ≠ linux-x64-2c/,
  );
});

test('regression: no reference means no regression gate, said in the notes', () => {
  const config = testConfig();
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady } }), { config });
  assert.deepEqual(configured(analysis), []);
  assert.match(analysis.notes.join('\n'), /no reference runs: the regression gate was not applied/);
});

test('the analysis is deterministic for a results file and survives a JSON round trip unchanged', () => {
  const config = testConfig({ gates: { thresholds: ['p(99) < 10ms'], overhead: ['overhead.p99 < 2ms'] } });
  const run = syntheticRun({ config, levels: { baseline: steady.slice(0, 2), sidecar: steady.slice(0, 2) } });
  const a = analyzeWorded(run, { config, reference: history(3, 9) });
  const b = analyzeWorded(run, { config, reference: history(3, 9) });
  assert.deepEqual(a, b);
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a, 'no NaN or Infinity that JSON would turn into null');
  assert.equal(a.summaries[0]!.statistics.p50!.mde, null, 'two repetitions cannot reach alpha: MDE null, not Infinity');
  assert.match(
    a.detectability.join('\n'),
    /baseline \[1000rps\]: with these repetitions no change on p\(99\) between two runs like this one is detectable/,
  );
  // The regression gate judged p50 against the reference runs: the detectability line gives its figure.
  const gate = a.gates.find((g) => g.kind === 'regression' && g.mode === 'baseline' && g.metric === 'p50')!;
  const figure = /baseline \[1000rps\]: with this noise, changes under ([\d.]+)% on p\(50\) against the reference runs/.exec(
    a.detectability.join('\n'),
  );
  assert.equal(Number(figure?.[1]), Number((gate.mde! * 100).toPrecision(3)));
});

test('error_rate at 0 in every valid repetition: the MDE sentence says 0/0, not "fewer than two valid repetitions"', () => {
  const config = testConfig({ gates: { thresholds: ['error_rate < 1%'] } }, ['baseline']);
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline: steady } }), { config });
  const gate = only(configured(analysis), () => true);
  assert.equal(gate.decision, 'pass');
  assert.match(gate.line, /; no MDE for error_rate: it is 0 in all 5 repetitions, so a relative change cannot be sized$/);
  assert.doesNotMatch(gate.line, /fewer than two valid repetitions/);
  // With one valid repetition the old sentence is still the true one.
  const one = analyzeWorded(syntheticRun({ config, levels: { baseline: [1] } }), { config });
  assert.match(only(configured(one), () => true).line, /MDE unknown for error_rate \(fewer than two valid repetitions\)$/);
});

test('the analysis hands over codes, not sentences: skips, report-only reasons, notes and exclusions', () => {
  const config = testConfig({ gates: { thresholds: ['cpu_per_1000rps < 250m'] } });
  config.gates.thresholds.push('mode=linkrd: p(99) < 5ms'); // as a results file judged with another config meets it
  const reference = history(2, 8);
  const other = syntheticRun({ config, id: 'other-runner', runnerClass: 'linux-x64-16c', levels: { baseline: steady, sidecar: steady } });
  const evidence = analyzeRun(syntheticRun({ config, levels: { baseline: steady, sidecar: steady } }), {
    config,
    reference: [...reference, other],
  });
  const cpu = evidence.gates.filter((g) => g.metric === 'cpuPer1000Rps');
  assert.deepEqual(
    cpu.map((g) => [g.decision, g.skip, g.limit]),
    cpu.map(() => ['skipped', 'not-measured', { op: '<', value: 250 }]),
  );
  assert.ok(evidence.gates.every((g) => !('line' in g) && !('note' in g) && !('threshold' in g)));
  const baselineRegression = evidence.gates.find((g) => g.kind === 'regression' && g.mode === 'baseline')!;
  assert.equal(baselineRegression.reportOnlyReason, 'baseline-of-relative-modes');
  assert.deepEqual(evidence.notes, [
    { code: 'gate-names-unknown-mode', gate: 'mode=linkrd: p(99) < 5ms', name: 'linkrd', known: ['baseline', 'sidecar'] },
    { code: 'gate-applies-to-no-mode', gate: 'mode=linkrd: p(99) < 5ms', overhead: false },
  ]);
  const excluded = evidence.reference!.excluded.find((x) => x.runId === 'other-runner')!;
  assert.equal(excluded.why, 'scenario');
  assert.deepEqual(excluded.differences, [{ field: 'runnerClass', a: 'linux-x64-2c', b: 'linux-x64-16c' }]);
  assert.ok(evidence.detectability.every((d) => typeof d.metric === 'string' && typeof d.n === 'number'));
});
