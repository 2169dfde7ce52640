// Why history gave nothing to compare with, in the analysis notes (issue 54: "they are this run
// itself or lack its modes" was said of stored runs that had the same modes at another rate;
// `mesh-perf compare` says it right, "no mode and load profile in common").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeWorded, syntheticRun, testConfig } from './synthetic.ts';

const levels = { baseline: [1, 1.01, 0.99], sidecar: [1.5, 1.5, 1.52] };

test('stored runs of the same modes at another rate: the note names the profiles on both sides', () => {
  const now = testConfig({ load: { rate: 1000, duration: '10s', repetitions: 3 } });
  const before = testConfig({ load: { rate: 500, duration: '10s', repetitions: 3 } });
  const reference = [0, 1].map((i) => syntheticRun({ id: `past-${i}`, config: before, levels }));
  const analysis = analyzeWorded(syntheticRun({ id: 'now', config: now, levels }), { config: now, reference });
  assert.deepEqual(analysis.reference?.runIds, []);
  assert.deepEqual(
    analysis.notes.filter((n) => / can be compared/.test(n)),
    [
      'none of the 2 reference runs can be compared: they have no mode and load profile in common with this run (this run: baseline [1000rps], sidecar [1000rps]; theirs: baseline [500rps], sidecar [500rps])',
    ],
  );
});

test('only this run itself in history: said so, not "or lack its modes"', () => {
  const config = testConfig({ load: { rate: 1000, duration: '10s', repetitions: 3 } });
  const run = syntheticRun({ id: 'now', config, levels });
  const analysis = analyzeWorded(run, { config, reference: [run] });
  assert.deepEqual(
    analysis.notes.filter((n) => / can be compared/.test(n)),
    ['no reference run can be compared: the only one is this run itself'],
  );
});
