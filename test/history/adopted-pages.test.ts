// An adopted branch (a Pages site that has its own index.html and run.html) keeps its pages: the
// dashboard and the run page move aside, say so in the marker, and link to each other there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { tempDir } from './support/git-repo.ts';

test('adopted with its own index.html and run.html: the dashboard and the run page move aside and find each other', async () => {
  const root = join(await tempDir('adopted-pages'), 'site');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'index.html'), '<h1>our docs</h1>\n');
  await writeFile(join(root, 'run.html'), '<h1>how we run things</h1>\n');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource, adopt: true });
  await store.publish(buildDailyRuns(2, { suite: 'nightly' }));
  assert.equal(await readFile(join(root, 'index.html'), 'utf8'), '<h1>our docs</h1>\n');
  assert.equal(await readFile(join(root, 'run.html'), 'utf8'), '<h1>how we run things</h1>\n');
  const marker = JSON.parse(await readFile(join(root, 'mesh-perf.json'), 'utf8'));
  assert.equal(marker.dashboard, 'mesh-perf-dashboard.html');
  assert.equal(marker.runPage, 'mesh-perf-run.html');
  const dashboard = await readFile(join(root, 'mesh-perf-dashboard.html'), 'utf8');
  assert.match(dashboard, /"runPage":"mesh-perf-run\.html"/, 'the dashboard links runs to the moved run page');
  const runPage = await readFile(join(root, 'mesh-perf-run.html'), 'utf8');
  assert.match(runPage, /"dashboard":"mesh-perf-dashboard\.html"/, 'the run page links back to the moved dashboard');
  // A second publish keeps them where they are.
  await store.publish(buildDailyRuns(3, { suite: 'nightly' }).slice(2));
  assert.equal(await readFile(join(root, 'run.html'), 'utf8'), '<h1>how we run things</h1>\n');
});
