// The dashboard reads only the index shards its view needs: a year by default, every month for
// "all", a branch's own range, and the month of a run a change-point link names. Over HTTP, where
// each shard is a request the test can see.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { launchBrowser } from '../support/browser.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { startStaticServer } from '../report/support/static-server.ts';
import { tempDir } from './support/git-repo.ts';

test('the dashboard loads the months its range, branch or link needs, and says how many runs it shows of all', {
  timeout: 240_000,
}, async () => {
  const root = join(await tempDir('dashboard-months'), 'site');
  // Two years, a run every 10 days; the release branch only in the first year.
  const runs = buildDailyRuns(73, { suite: 'nightly', modes: ['baseline', 'istio-ambient'], durationS: 3 });
  const start = Date.UTC(2024, 0, 5, 3);
  runs.forEach((r, i) => {
    r.run.startedAt = new Date(start + i * 10 * 86_400_000).toISOString();
    if (i % 9 === 4 && i < 30) r.run.git.branch = 'release-1';
  });
  await new DirectoryStore({ root, chartJs: loadChartJsSource }).publish(runs);
  const server = await startStaticServer(root);
  const browser = await launchBrowser();
  try {
    const { page, errors } = await browser.newPage();
    const shards = () => new Set(server.requests.filter((p) => p.includes('/index/')).map((p) => p.split('/').pop()!.slice(0, 7)));
    const renders = () => page.evaluate(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders);
    const status = async () => (await page.locator('#status').textContent()) ?? '';
    const next = async (n: number) =>
      page.waitForFunction((k) => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders > k, n, { timeout: 15_000 });

    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders >= 1);
    const newest = new Date(Date.parse(runs.at(-1)!.run.startedAt));
    const yearAgo = new Date(newest.getTime() - 365 * 86_400_000).toISOString().slice(0, 7);
    assert.ok(
      [...shards()].every((m) => m >= yearAgo),
      `a year of shards only: ${[...shards()].sort().join(' ')}`,
    );
    assert.match(await status(), /^3[67] of 73 runs of suite nightly/);

    const n = await renders();
    await page.selectOption('#f-range', '0');
    await next(n);
    assert.match(await status(), /^73 of 73 runs/);
    assert.equal(shards().size, 24, 'every month once');

    assert.deepEqual(errors, []);
    await page.close();

    // A branch whose runs are all older than a year: its own year, from its newest run.
    const branch = await browser.newPage();
    await branch.page.goto(`${server.url}index.html#branch=release-1`);
    await branch.page.waitForFunction(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders >= 1);
    assert.match((await branch.page.locator('#status').textContent()) ?? '', /^3 of 73 runs/);
    assert.deepEqual(branch.errors, []);
    await branch.page.close();

    // A change-point link naming an old run loads its month.
    server.requests.length = 0;
    const link = await browser.newPage();
    await link.page.goto(`${server.url}index.html#suite=nightly&after=${runs[2]!.run.id}`);
    await link.page.waitForFunction(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders >= 1);
    assert.ok(shards().has('2024-01'), 'the month of the run the link names');
    assert.deepEqual(link.errors, []);
    await link.page.close();
  } finally {
    await browser.close();
    await server.close();
  }
});
