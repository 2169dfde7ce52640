// The measured scenario starts WARMUP_HANDOVER_MS after the warm-up ends, and the warm-up has a
// graceful stop of half that, so its VUs are back in k6's pool when the measured scenario takes
// them and no burst of overdue arrivals opens the measured window (src/load/window.ts,
// measuredStartMs; bench/harness-fidelity's ablation). The warm-up keeps its length, the measured
// scenario its length, and the measured window follows the measured scenario.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateConfig } from '../../src/config/validate.ts';
import { buildInvocation } from '../../src/load/engine.ts';
import { renderParams } from '../../src/load/script.ts';
import { measuredStartMs, measuredWindow, WARMUP_HANDOVER_MS } from '../../src/load/window.ts';
import { buildPlan } from '../../src/plan/plan.ts';

const TARGET = { mode: 'm', url: 'http://127.0.0.1:1/', env: {}, description: '' };

function trialOf(load: Record<string, unknown>) {
  const config = validateConfig({ platform: 'endpoints', modes: [{ name: 'm', url: TARGET.url }], load: { repetitions: 1, ...load } });
  return buildPlan(config, 1).trials[0]!;
}
const paramsOf = (load: Record<string, unknown>) => renderParams(trialOf(load).profile, TARGET);

/** k6 duration strings as rendered here: seconds with a unit. */
const seconds = (d: unknown) => {
  assert.match(String(d), /^\d+(\.\d+)?s$/);
  return Number(String(d).slice(0, -1));
};

test('open model: the measured scenario starts the handover after the warm-up, whose last requests finish in it', () => {
  const p = paramsOf({ rate: 5000, duration: '10s', warmup: '2s' });
  const { warmup, measure } = p.scenarios;
  assert.equal(WARMUP_HANDOVER_MS, 100);
  assert.equal(warmup!.executor, 'constant-arrival-rate');
  assert.equal(seconds(warmup!.duration), 2);
  assert.equal(seconds(warmup!.gracefulStop), 0.05);
  // Everything of the warm-up, graceful stop included, is over before the measured scenario starts.
  assert.ok(seconds(warmup!.duration) + seconds(warmup!.gracefulStop) < seconds(measure!.startTime));
  assert.equal(seconds(measure!.startTime), 2.1);
  assert.equal(seconds(measure!.duration), 10);
  assert.equal(warmup!.rate, measure!.rate);
  assert.equal(warmup!.preAllocatedVUs, measure!.preAllocatedVUs);
  // The script tags the timeline from the measured start; progress counts the handover too.
  assert.equal(p.warmupMs, 2100);
  assert.equal(buildInvocation(trialOf({ rate: 5000, duration: '10s', warmup: '2s' }), TARGET, '/').expectedSeconds, 12.1);
});

test('the measured window starts with the measured scenario, after warm-up and handover', () => {
  const summary = JSON.stringify({ state: { testRunDurationMs: 12_150 }, mesh_perf: { endedAtMs: 1_000_012_150 } });
  assert.deepEqual(measuredWindow(summary, { warmupMs: 2000, durationMs: 10_000 }), { startMs: 1_000_002_100, endMs: 1_000_012_100 });
  assert.deepEqual(measuredWindow(summary, { warmupMs: 0, durationMs: 10_000 }), { startMs: 1_000_000_000, endMs: 1_000_010_000 });
  assert.equal(measuredStartMs(0), 0);
  assert.equal(measuredStartMs(1000), 1100);
});

test("the shortest warm-up (1 s, k6's shortest scenario) and the closed model alike; no warm-up, no scenario", () => {
  const short = paramsOf({ rate: 100, duration: '5s', warmup: '1s' }).scenarios;
  assert.equal(seconds(short.warmup!.duration), 1);
  assert.equal(seconds(short.measure!.startTime), 1.1);
  const closed = paramsOf({ model: 'closed', vus: 10, duration: '5s', warmup: '3s' }).scenarios;
  assert.equal(closed.warmup!.executor, 'constant-vus');
  assert.equal(seconds(closed.warmup!.duration), 3);
  assert.equal(seconds(closed.warmup!.gracefulStop), 0.05);
  assert.equal(seconds(closed.measure!.startTime), 3.1);
  const none = paramsOf({ rate: 100, duration: '5s', warmup: '0s' });
  assert.deepEqual(Object.keys(none.scenarios), ['measure']);
  assert.equal(seconds(none.scenarios.measure!.startTime), 0);
  assert.equal(none.warmupMs, 0);
});
