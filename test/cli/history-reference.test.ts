// `run --history-store DIR` with nothing comparable says why: outside a git checkout the run has
// no branch to match (the old message guessed "first run, or no history configured").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { referenceLoader } from '../../src/cli/reference.ts';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { validateConfig } from '../../src/config/validate.ts';
import type { Logger } from '../../src/util/log.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { tempDir } from '../history/support/git-repo.ts';

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, phase() {}, info() {}, warn: (m) => void warnings.push(m), progress() {}, progressDone() {} };
}

async function storeWithRuns(): Promise<string> {
  const root = join(await tempDir('ref'), 'store');
  const runs = buildDailyRuns(3, { suite: 'nightly' });
  for (const r of runs) r.run.git.branch = 'main';
  await new DirectoryStore({ root, chartJs: loadChartJsSource }).publish(runs);
  return root;
}

const config = (store: string) =>
  validateConfig({ suite: 'nightly', modes: [{ name: 'baseline' }], load: { rate: 5 }, history: { store } });

test('outside a git checkout: the warning names the missing branch, the runs held, and --baseline', async () => {
  const store = await storeWithRuns();
  const log = recordingLog();
  const current = buildDailyRuns(1, { suite: 'nightly', start: new Date(Date.UTC(2026, 0, 1)) })[0]!;
  current.run.git = {};
  const runs = await referenceLoader(config(store), undefined, '/tmp/not-a-checkout', log)!(current);
  assert.deepEqual(runs, []);
  assert.equal(log.warnings.length, 1);
  assert.match(
    log.warnings[0]!,
    /holds 3 runs of suite "nightly", but past runs are matched by git branch and this run has none \(\/tmp\/not-a-checkout is not inside a git checkout/,
  );
  assert.match(log.warnings[0]!, /--baseline /);
});

test('another branch: the warning says which branches the store has', async () => {
  const store = await storeWithRuns();
  const log = recordingLog();
  const current = buildDailyRuns(1, { suite: 'nightly', start: new Date(Date.UTC(2026, 0, 1)) })[0]!;
  current.run.git = { branch: 'feature' };
  await referenceLoader(config(store), undefined, '/tmp', log)!(current);
  assert.match(log.warnings[0]!, /none of its 3 runs of suite "nightly" is a valid run of branch "feature" \(valid runs are of: main\)/);
});
