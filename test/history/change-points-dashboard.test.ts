// The dashboard of a store with a step, in Chromium: the change point is listed with what
// changed, marked on the chart, and a run page's link lands on the change point it follows.
// MESH_PERF_SCREENSHOTS=<dir> also saves the page at a phone's width (400 px) and a desktop's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { launchBrowser } from '../support/browser.ts';
import { tempDir } from './support/git-repo.ts';
import { STEP_AT, steppedRuns } from './support/stepped-runs.ts';

test('dashboard: change points listed, marked on the chart, and reached from a run page', { timeout: 180_000 }, async () => {
  const dir = await tempDir('change-points-dashboard');
  const root = join(dir, 'history');
  const runs = steppedRuns(45);
  await new DirectoryStore({ root, chartJs: loadChartJsSource }).publish(runs);
  const browser = await launchBrowser();
  try {
    const { page, errors } = await browser.newPage();
    const after = runs[STEP_AT + 5]!.run.id;
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 1400 });
      await page.goto(`${pathToFileURL(join(root, 'index.html')).href}#suite=nightly&stat=p50&after=${after}`);
      await page.waitForFunction(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered);
      const rows = await page.$$eval('#change-points tbody tr', (trs) =>
        trs.map((tr) => ({ text: tr.textContent ?? '', current: tr.className })),
      );
      const sidecar = rows.filter((r) => r.text.includes('istio-sidecar') && r.text.includes('p50 / baseline'));
      assert.equal(sidecar.length, 1, JSON.stringify(rows));
      assert.match(sidecar[0]!.text, /istio 1\.29\.2 → 1\.30\.0/);
      assert.match(sidecar[0]!.text, /\+\d+\.\d% \[\+\d+\.\d%, \+\d+\.\d%\]/);
      assert.ok(
        rows.some((r) => r.current === 'cp-current'),
        'the change point the run follows is highlighted',
      );
      // The chart holds the segment medians as datasets beside the run medians.
      const labels = await page.evaluate(() =>
        Object.values(
          (window as unknown as { Chart: { instances: Record<string, { data: { datasets: { label: string }[] } }> } }).Chart.instances,
        ).flatMap((c) => c.data.datasets.map((d) => d.label)),
      );
      assert.ok(labels.includes('istio-sidecar segment median'), labels.join(', '));
      // On a phone the page is no wider than the screen: tables scroll inside their own box. Read once
      // layout has settled (the charts resize after the render flag, later on a busy machine: a CI
      // run with two e2e files side by side once measured the page mid-resize).
      const fits = await page
        .waitForFunction((w) => document.documentElement.scrollWidth <= w, width, { timeout: 10_000 })
        .then(
          () => true,
          () => false,
        );
      assert.ok(fits, `wider than ${width} px: ${await page.evaluate(() => document.documentElement.scrollWidth)} px after 10 s`);
      if (process.env.MESH_PERF_SCREENSHOTS)
        await page.screenshot({ path: join(process.env.MESH_PERF_SCREENSHOTS, `dashboard-change-points-${width}.png`), fullPage: true });
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
