// The default error gate (load.maxErrorRate): failed requests fail the run whatever the latency,
// counted over every repetition (valid or not), with the mode, the rate and the top causes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_GATE } from '../../src/analysis/error-gate.ts';
import { analyzeWorded, syntheticRun, testConfig } from './synthetic.ts';

const steady = [1.0, 1.02, 0.98, 1.01, 0.99];
const errorGates = (analysis: ReturnType<typeof analyzeWorded>) => analysis.gates.filter((g) => g.gate === ERROR_GATE);

test('no failed request: the error gate is listed as passed for every mode, and the run passes', () => {
  const config = testConfig({}, ['baseline', 'sidecar']);
  const analysis = analyzeWorded(syntheticRun({ config, levels: { baseline: steady, sidecar: steady } }), { config });
  assert.deepEqual(
    errorGates(analysis).map((g) => [g.mode, g.decision, g.threshold, g.line]),
    [
      ['baseline', 'pass', '≤ 1.00%', 'baseline [1000rps]: error rate 0%, load.maxErrorRate 1.00% → pass'],
      ['sidecar', 'pass', '≤ 1.00%', 'sidecar [1000rps]: error rate 0%, load.maxErrorRate 1.00% → pass'],
    ],
  );
  assert.equal(analysis.verdict, 'pass');
  assert.deepEqual(analysis.verdictReasons, []);
});

test('above the default 1%: fail, naming the mode, the rate and the top causes', () => {
  const config = testConfig({}, ['baseline', 'sidecar']);
  const run = syntheticRun({
    config,
    levels: { baseline: steady, sidecar: steady },
    tweak: (mode, _i, spec) => (mode === 'sidecar' ? { ...spec, failures: 300, requests: 10_000 } : spec),
  });
  for (const rep of run.modes.find((m) => m.name === 'sidecar')!.repetitions)
    rep.errorCauses = { 'HTTP 503': 290, 'connection reset': 7, timeout: 3 };
  const analysis = analyzeWorded(run, { config });
  const gate = errorGates(analysis).find((g) => g.mode === 'sidecar');
  assert.deepEqual(
    errorGates(analysis).map((g) => [g.mode, g.decision]),
    [
      ['baseline', 'pass'],
      ['sidecar', 'fail'],
    ],
    'the mode without failures passes the gate',
  );
  assert.equal(gate!.decision, 'fail');
  assert.equal(
    gate!.line,
    'sidecar [1000rps]: 3.00% of requests failed (1500 of 50000), above load.maxErrorRate 1.00%: HTTP 503 × 1,450; connection reset × 35; timeout × 15',
  );
  assert.equal(analysis.verdict, 'fail');
  assert.ok(analysis.verdictReasons.includes(gate!.line));
});

test('maxErrorRate 0 allows no failed request at all; exactly the limit passes', () => {
  const zero = testConfig({ load: { rate: 1000, duration: '10s', repetitions: 5, maxErrorRate: 0 } }, ['baseline']);
  const one = syntheticRun({
    config: zero,
    levels: { baseline: steady },
    tweak: (_m, i, spec) => (i === 0 ? { ...spec, failures: 1 } : spec),
  });
  assert.equal(analyzeWorded(one, { config: zero }).verdict, 'fail');
  const half = testConfig({ load: { rate: 1000, duration: '10s', repetitions: 5, maxErrorRate: 0.5 } }, ['baseline']);
  const at = syntheticRun({
    config: half,
    levels: { baseline: steady },
    tweak: (_m, _i, spec) => ({ ...spec, failures: 5000, requests: 10_000 }),
  });
  assert.equal(errorGates(analyzeWorded(at, { config: half }))[0]!.decision, 'pass');
});

test('failures that also made repetitions invalid still fail the run (fail, not invalid)', () => {
  const config = testConfig({}, ['baseline']);
  const run = syntheticRun({
    config,
    levels: { baseline: steady },
    tweak: (_m, _i, spec) => ({
      ...spec,
      failures: 10_000,
      requests: 10_000,
      invalidReason: '12 dropped iterations: 10000 requests timed out',
    }),
  });
  const analysis = analyzeWorded(run, { config });
  assert.equal(errorGates(analysis)[0]!.decision, 'fail');
  assert.equal(analysis.verdict, 'fail');
});

test('load.maxErrorRate outside 0..1 is a config error naming the field', () => {
  assert.throws(() => testConfig({ load: { rate: 1000, maxErrorRate: 5 } }), /load\.maxErrorRate: expected a fraction from 0 to 1/);
});

test("a repetition a fault hit (its echo pod deleted, a proxy restarted: repetitions[].disruptions) is left out of the error gate: its failures are the fault's, named in its reason (issue 51)", () => {
  const config = testConfig({}, ['baseline', 'sidecar']);
  const run = syntheticRun({
    config,
    levels: { baseline: steady, sidecar: steady },
    tweak: (mode, i, spec) => (mode === 'sidecar' && i === 0 ? { ...spec, failures: 800, requests: 10_000 } : spec),
  });
  const hit = run.modes.find((m) => m.name === 'sidecar')!.repetitions[0]!;
  hit.errorCauses = { timeout: 700, 'connection refused': 100 };
  const before = errorGates(analyzeWorded(run, { config })).find((g) => g.mode === 'sidecar')!;
  assert.equal(before.decision, 'fail', 'counted, 800 failures fail the gate');
  hit.valid = false;
  hit.invalidReasons = ['echo server pod ns/echo-1 was deleted during the repetition (replaced by echo-2)'];
  hit.disruptions = [{ pod: 'ns/echo-1', component: 'echo server', event: 'deleted', replacement: 'echo-2' }];
  const analysis = analyzeWorded(run, { config });
  const gate = errorGates(analysis).find((g) => g.mode === 'sidecar')!;
  assert.equal(gate.decision, 'pass', gate.line);
  assert.equal(analysis.verdict, 'invalid', 'the run is invalid for the repetition the fault hit, not failed for its errors');
});
