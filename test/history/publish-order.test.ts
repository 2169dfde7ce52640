// Dashboard data are sorted by time whatever order runs are published in (folder-name order put
// Nov 10–14 before Nov 2–9, and a late job's older run last); calibration runs and runs that
// never measured anything stay out of the suite; `report --store` on a mistyped path fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { main } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { outOfOrderBatches, suiteData } from '../support/out-of-order-runs.ts';
import { tempDir } from './support/git-repo.ts';

test('publish in any order: the dashboard data are sorted by time', async () => {
  const site = join(await tempDir('order'), 'site');
  const store = new DirectoryStore({ root: site, chartJs: loadChartJsSource });
  for (const batch of outOfOrderBatches()) await store.publish(batch);
  const data = await suiteData(site, 'nightly');
  const days = data.runs.map((r) => r.startedAt.slice(0, 10));
  assert.equal(days.length, 14);
  assert.deepEqual(
    days,
    Array.from({ length: 14 }, (_, i) => `2025-11-${String(i + 1).padStart(2, '0')}`),
  );
});

test('instants, not strings: an offset timestamp sorts by the moment it names', async () => {
  const site = join(await tempDir('offset'), 'site');
  const [a, b] = buildDailyRuns(2, { suite: 'tz', start: new Date(Date.UTC(2025, 10, 2, 9)) });
  // 10:00+02:00 is 08:00Z, before b's 09:00Z of the same day once a is moved onto b's day.
  a!.run.startedAt = '2025-11-03T10:00:00+02:00';
  const store = new DirectoryStore({ root: site, chartJs: loadChartJsSource });
  await store.publish([b!, a!]);
  assert.deepEqual(
    (await suiteData(site, 'tz')).runs.map((r) => r.id),
    [a!.run.id, b!.run.id],
  );
});

test('calibration runs and runs that never started are not published', async () => {
  const site = join(await tempDir('skip'), 'site');
  const [good, calibration, never] = buildDailyRuns(3, { suite: 'nightly' });
  (calibration!.config as Record<string, unknown>).calibrate = true;
  never!.modes = [];
  never!.run.aborted = 'platform failed to start';
  const outcome = await new DirectoryStore({ root: site, chartJs: loadChartJsSource }).publish([good!, calibration!, never!]);
  assert.equal(outcome.added.length, 1);
  assert.match(outcome.warnings.join('\n'), new RegExp(`${calibration!.run.id} was not published: an A/A calibration run`));
  assert.match(outcome.warnings.join('\n'), /never measured anything \(platform failed to start\)/);
  assert.deepEqual(
    (await suiteData(site, 'nightly')).runs.map((r) => r.id),
    [good!.run.id],
  );
});

async function cli(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, {
    stdout: () => {},
    stderr: (t) => void (stderr += t),
    log: silentLogger,
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stderr };
}

test('report --store on a mistyped path exits 2 and creates nothing', async () => {
  const dir = await tempDir('typo');
  const run = await cli(['report', '--store', 'hsitory'], dir);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /mesh-perf report: --store hsitory: no such folder/);
  assert.equal(existsSync(join(dir, 'hsitory')), false);
});
