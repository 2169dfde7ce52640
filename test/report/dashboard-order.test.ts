// The dashboard in Chromium after runs were published out of order: the time axis spans the
// first to the last run, lines are drawn left to right (no crossing bands), the range filter
// counts from the newest run; runs within one day still get x-axis labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { launchBrowser, type BrowserSession } from '../support/browser.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { tempDir } from '../history/support/git-repo.ts';
import { outOfOrderBatches } from '../support/out-of-order-runs.ts';

interface Axis {
  min: number;
  max: number;
  labels: string[];
  /** x of every point of the first mode's line, in drawing order. */
  xs: number[];
  status: string;
}

async function axisOf(browser: BrowserSession, url: string): Promise<Axis> {
  const { page, errors } = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders >= 1, undefined, {
    timeout: 15_000,
  });
  const axis = await page.evaluate(() => {
    const chart = (window as unknown as { Chart: { getChart(c: unknown): any } }).Chart.getChart(document.getElementById('trend-0'));
    const x = chart.scales.x;
    const line = chart.data.datasets.find((d: any) => !d.band);
    return {
      min: x.min,
      max: x.max,
      labels: x.ticks.map((t: any) => String(t.label ?? '')),
      xs: line.data.map((p: any) => p.x),
      status: document.getElementById('status')!.textContent ?? '',
    };
  });
  assert.deepEqual(errors, [], 'no console errors');
  await page.close();
  return axis;
}

test('dashboard of out-of-order publishes: x axis from the first to the last run, drawn in time order', { timeout: 240_000 }, async () => {
  const site = join(await tempDir('dash-order'), 'site');
  const store = new DirectoryStore({ root: site, chartJs: loadChartJsSource });
  for (const batch of outOfOrderBatches()) await store.publish(batch);
  // Runs of one day (a burst of CI jobs): hourly labels instead of none.
  const burst = buildDailyRuns(4, { suite: 'burst', start: new Date(Date.UTC(2025, 10, 20, 8)) });
  burst.forEach((r, i) => (r.run.startedAt = new Date(Date.UTC(2025, 10, 20, 8 + i * 2)).toISOString()));
  await store.publish(burst.reverse());

  const browser = await launchBrowser();
  try {
    const first = Date.UTC(2025, 10, 1, 3);
    const last = Date.UTC(2025, 10, 14, 3);
    const nightly = await axisOf(browser, `${pathToFileURL(site).href}/index.html#suite=nightly`);
    assert.ok(
      nightly.min <= first && nightly.min > first - 86_400_000,
      `axis starts at the first run: ${new Date(nightly.min).toISOString()}`,
    );
    assert.ok(nightly.max >= last && nightly.max < last + 86_400_000, `axis ends at the last run: ${new Date(nightly.max).toISOString()}`);
    assert.deepEqual(
      nightly.xs,
      [...nightly.xs].sort((a, b) => a - b),
      'points drawn left to right',
    );
    assert.equal(nightly.xs.length, 14);
    assert.match(nightly.status, /14 of 14 runs of suite nightly \(2025-11-01 … 2025-11-14\)/);
    assert.ok(nightly.labels.filter(Boolean).length >= 2, `labels: ${nightly.labels.join(', ')}`);

    const oneDay = await axisOf(browser, `${pathToFileURL(site).href}/index.html#suite=burst`);
    assert.ok(oneDay.labels.filter(Boolean).length >= 2, `one-day axis has labels: ${JSON.stringify(oneDay.labels)}`);
    assert.ok(
      oneDay.labels.every((l) => /^11-20 \d\d:00$/.test(l)),
      oneDay.labels.join(', '),
    );
  } finally {
    await browser.close();
  }
});
