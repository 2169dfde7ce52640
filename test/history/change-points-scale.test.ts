// A store of 3 years of daily runs × 20 scenarios (5 suites × 4 load profiles × 5 modes) still
// publishes a day's runs, change points included, within the budget below. Measured with
// bench/change-points/publish-scale.ts (docs/methodology-statistics.md has before/after figures);
// the budget leaves room for a machine shared by other jobs, and fails on a quadratic slip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planPublish } from '../../src/history/publish-plan.ts';
import { loadSiteScripts } from '../../src/site/scripts.ts';
import { buildRunResult, DEFAULT_MODES } from '../support/results-fixture.ts';
import { buildScaleStore, MemoryTree, SCALE_SHAPE } from './support/scale-store.ts';

const BUDGET_S = 90;

test(`3 years × 20 scenarios: one day's publish with change points takes under ${BUDGET_S} s`, { timeout: 300_000 }, async () => {
  const files = buildScaleStore(SCALE_SHAPE);
  const scripts = await loadSiteScripts();
  const start = Date.UTC(2023, 0, 1, 2, 0, 0) + SCALE_SHAPE.days * 86_400_000;
  const runs = Array.from({ length: SCALE_SHAPE.suites }, (_, s) =>
    buildRunResult({
      suite: `suite-${s + 1}`,
      seed: 99 + s,
      startedAt: new Date(start + s * 60_000),
      modes: DEFAULT_MODES.slice(0, SCALE_SHAPE.modes),
      profiles: SCALE_SHAPE.profiles,
      durationS: 5,
    }),
  );
  const started = performance.now();
  const plan = await planPublish(new MemoryTree(files), runs, { storeLabel: 'memory', now: new Date(start), chartJs: '', scripts });
  const seconds = (performance.now() - started) / 1000;
  assert.equal(plan.added.length, SCALE_SHAPE.suites);
  const data = plan.changes.writes.get('runs/suite-1/change-points.suite-1.js')!;
  assert.match(data, /"changePoints":\[/);
  assert.ok(seconds < BUDGET_S, `${seconds.toFixed(1)} s`);
  console.log(`# publish into 3 years × 20 scenarios: ${seconds.toFixed(1)} s`);
});
