// How the action's run mode ends when several things went wrong at once: the order is the one
// src/github/run-benchmark.ts `runOutcome` states, and a change-point gate set to fail fails a run
// the verdict passed (the scheduled run's own publish), but never hides a worse outcome.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOutcome } from '../../src/github/run-benchmark.ts';
import { EnvironmentError, EXIT } from '../../src/util/errors.ts';

const pass = { exitCode: EXIT.pass };
const failed = { exitCode: EXIT.gateFailed, failure: 'mesh-perf: 1 gate failed' };
const step = 'new change point (slower): 1000rps · istio-sidecar · p50 +12.0% [+9.0%, +15.0%]';

test('a change-point gate set to fail fails a passing run, naming the series', () => {
  const outcome = runOutcome({ judged: pass, changePointFailure: step });
  assert.equal(outcome.exitCode, EXIT.gateFailed);
  assert.match(outcome.failure ?? '', /change-point gate failed: new change point \(slower\): 1000rps · istio-sidecar/);
  assert.deepEqual(runOutcome({ judged: pass }), pass);
});

test('a worse outcome wins over the change-point gate: an early end, an unadopted store, a failed gate', () => {
  assert.equal(runOutcome({ judged: pass, changePointFailure: step, error: new EnvironmentError('k6 died') }).exitCode, EXIT.environment);
  assert.equal(runOutcome({ judged: pass, changePointFailure: step, refusedStore: new Error('holds index.html') }).exitCode, EXIT.usage);
  assert.deepEqual(runOutcome({ judged: failed, changePointFailure: step }), failed);
});

test('an unreachable store is exit 3 unless a gate failed', () => {
  const skipped = new EnvironmentError('history store https://***@example.test/r.git unreachable');
  assert.equal(runOutcome({ judged: pass, comparisonSkipped: skipped }).exitCode, EXIT.environment);
  assert.deepEqual(runOutcome({ judged: failed, comparisonSkipped: skipped }), failed);
});
