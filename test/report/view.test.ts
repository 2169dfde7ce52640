// The read model every output renders from: which figure it takes from the analysis and which it
// computes, what the error rate counts, how overheads pair, what a mode with no valid repetition
// shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { medianInterval } from '../../src/analysis/median-interval.ts';
import { buildRunView, findRow } from '../../src/report/view.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';

function run() {
  const config = testConfig({ gates: { overhead: ['overhead.p50 < 0.5ms'] } });
  return {
    config,
    result: syntheticRun({
      config,
      levels: { baseline: [1, 1.1, 0.9, 1.05], sidecar: [1.3, 1.5, 1.2, 1.35] },
      // The sidecar's third repetition is invalid and holds all its failed requests.
      tweak: (mode, i, spec) => (mode === 'sidecar' && i === 2 ? { ...spec, invalidReason: 'dropped iterations', failures: 40 } : spec),
    }),
  };
}

test('the error rate is failed ÷ sent over every repetition, valid or not, as the error gate counts it', () => {
  const { result } = run();
  const sidecar = findRow(buildRunView(result), 'sidecar', '1000rps')!;
  const requests = result.modes[1]!.repetitions.reduce((n, r) => n + r.requests, 0);
  assert.deepEqual([sidecar.errors.failures, sidecar.errors.requests, sidecar.errors.rate], [40, requests, 40 / requests]);
  assert.equal(sidecar.valid, 3);
  assert.deepEqual(
    sidecar.invalidRepetitions.map((r) => [r.index, r.reasons]),
    [[3, ['dropped iterations']]],
  );
});

test('without an analysis: medians over valid repetitions with their order-statistic interval, overheads paired by block', () => {
  const { result } = run();
  const view = buildRunView(result);
  const sidecar = findRow(view, 'sidecar', '1000rps')!;
  assert.equal(view.analysis, undefined);
  // Valid levels 1.3, 1.5, 1.35 → median 1.35; the order-statistic interval of 3 values is their range.
  assert.deepEqual(sidecar.latency.p50, { value: 1.35, low: 1.3, high: 1.5, interval: 'order', n: 3, coverage: 0.75 });
  // Blocks 1, 2, 4 pair (block 3's sidecar repetition is invalid): differences 0.3, 0.4, 0.3.
  const o = sidecar.overhead.p50!;
  assert.equal(o.pairs, 3);
  assert.ok(Math.abs(o.difference.value - 0.3) < 1e-12, String(o.difference.value));
  assert.equal(o.ratio!.value, medianInterval([1.3 / 1, 1.5 / 1.1, 1.35 / 1.05])!.median);
  assert.deepEqual(findRow(view, 'baseline', '1000rps')!.overhead, {}, 'the baseline has no overhead against itself');
});

test("with an analysis: its statistics and bootstrap intervals where it has them, the view's own for the rest", () => {
  const { config, result } = run();
  result.analysis = analyzeWorded(result, { config });
  const view = buildRunView(result);
  const sidecar = findRow(view, 'sidecar', '1000rps')!;
  const stat = result.analysis.summaries.find((s) => s.mode === 'sidecar')!.statistics.p50!;
  assert.deepEqual(
    [sidecar.latency.p50!.value, sidecar.latency.p50!.low, sidecar.latency.p50!.interval, sidecar.latency.p50!.mde],
    [stat.median, stat.ci!.low, 'bootstrap', stat.mde],
  );
  // p75 is not among the analysis' statistics: the order-statistic interval, as without it.
  assert.equal(sidecar.latency.p75!.interval, 'order');
  const estimate = result.analysis.overheads.find((o) => o.mode === 'sidecar' && o.metric === 'p50')!;
  assert.deepEqual(
    [sidecar.overhead.p50!.difference.value, sidecar.overhead.p50!.difference.interval],
    [estimate.difference.value, 'bootstrap'],
  );
  assert.deepEqual(
    sidecar.gates.map((g) => [g.result.gate, g.decision]),
    result.analysis.gates.filter((g) => g.mode === 'sidecar').map((g) => [g.gate, g.decision]),
  );
  assert.equal(view.analysis!.intervalLabel, 'range', 'below 6 repetitions the interval is labelled the range');
});

test('a mode with no valid repetition keeps figures from its invalid ones, flagged never to compare', () => {
  const config = testConfig();
  const result = syntheticRun({
    config,
    levels: { baseline: [1, 1], sidecar: [2, 3] },
    tweak: (mode, _i, spec) => (mode === 'sidecar' ? { ...spec, invalidReason: 'achieved 50% of the target rate' } : spec),
  });
  const sidecar = findRow(buildRunView(result), 'sidecar', '1000rps')!;
  assert.equal(sidecar.fromInvalid, true);
  assert.equal(sidecar.latency.p50!.value, 2.5);
  assert.deepEqual(sidecar.overhead.p50, undefined, 'no valid pair, no overhead');
});
