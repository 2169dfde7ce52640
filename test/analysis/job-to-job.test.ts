// The history gate's between-run variance τ (issue 23, item 4): estimated from the stored runs,
// included in the pass bound, and reported as too large for the targets with its figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evidenceFor, jobToJobSpread, targetStandardError } from '../../src/analysis/regression.ts';
import { analyzeWorded, syntheticRun, testConfig } from './synthetic.ts';

const settings = { minEffectPct: 5, minEffectMs: 0.05, alpha: 0.05 };
const context = { seed: 1, resamples: 400, level: 0.95, alpha: 0.05 };
const within = [0.99, 1.0, 1.01];

test('τ: what the stored runs spread beyond their own repetitions, with the runs it rests on', () => {
  assert.ok(Math.abs(targetStandardError(5) - 0.0139) < 0.0002, '5 % ÷ (2.326 + 1.282)');
  const steady = jobToJobSpread([within, within, within], settings);
  assert.equal(steady.runs, 3);
  assert.equal(steady.tau, 0, 'identical runs: no job-to-job spread');
  assert.equal(steady.supportsTargets, true);
  const jobs = [1, 1.04, 0.96, 1.03, 0.97].map((job) => within.map((v) => v * job));
  const moving = jobToJobSpread(jobs, settings);
  assert.ok(moving.tau! > 0.025 && moving.tau! < 0.04, String(moving.tau));
  assert.equal(moving.supportsTargets, false);
  assert.deepEqual(jobToJobSpread([within], settings), { runs: 1, tau: null, targetSe: targetStandardError(5), supportsTargets: null });
});

test('the pass bound includes τ: the same candidate passes against steady runs and not against moving ones', () => {
  const candidate = [1.0, 1.005, 0.995, 1.0, 1.01];
  const steady = [1, 1.001, 0.999, 1.0, 1.0005].map((job) => within.map((v) => v * job));
  const moving = [1, 1.04, 0.96, 1.03, 0.97].map((job) => within.map((v) => v * job));
  const a = evidenceFor(candidate, steady, 2, true, settings, context, ['a']);
  const b = evidenceFor(candidate, moving, 2, true, settings, context, ['b']);
  assert.equal(a.practical, false, `steady: bound ${a.changeBound}`);
  assert.equal(b.practical, true, `moving: bound ${b.changeBound}`);
  assert.ok(b.changeBound > a.changeBound);
});

test('the evidence and the notes say when τ is too large for the targets, with the figure', () => {
  const config = testConfig({}, ['baseline']);
  const reference = [1, 1.06, 0.94, 1.05, 0.95].map((job, i) =>
    syntheticRun({
      config,
      id: `past-${i}`,
      startedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      levels: { baseline: [1, 1.01, 0.99, 1, 1.005].map((v) => v * job) },
    }),
  );
  const run = syntheticRun({ config, id: 'now', levels: { baseline: [1, 1.01, 0.99, 1, 1.005] } });
  const analysis = analyzeWorded(run, { config, reference, resamples: 100 });
  const gate = analysis.gates.find((g) => g.kind === 'regression')!;
  assert.equal(gate.evidence?.jobToJob?.runs, 5);
  assert.equal(gate.evidence?.jobToJob?.supportsTargets, false);
  // A claim of its own, so a note beside the gate's line (which says one test, one interval, one MDE).
  assert.match(
    analysis.notes.join('\n'),
    /^baseline \[1000rps\] p\(50\): the job-to-job spread τ [\d.]+% over 5 stored runs is too large/m,
  );
  assert.doesNotMatch(gate.line, /job-to-job/);
});
