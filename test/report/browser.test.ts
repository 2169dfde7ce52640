// The run report and the dashboard in a real browser (Debian's Chromium via playwright-core),
// opened from disk (file://) and over HTTP from 127.0.0.1 as a Pages site would serve them:
// no console errors, every chart canvas drawn, filters change the drawing, points link to run
// reports, nothing fetched from the network. Screenshots go to .test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import type { RunResult } from '../../src/results/types.ts';
import { canvasFingerprint, canvasInk, launchBrowser, type BrowserSession } from '../support/browser.ts';
import { buildDailyRuns, buildRunResult } from '../support/results-fixture.ts';
import { tempDir } from '../history/support/git-repo.ts';
import { startStaticServer } from './support/static-server.ts';
import { buildRunView } from '../../src/report/view.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.test-artifacts');

function nightlyRuns(): RunResult[] {
  const runs = buildDailyRuns(40, { suite: 'nightly', profiles: ['1000rps', '100rps'], resources: true });
  // One run every 5 days, so the range filter has something to cut.
  const start = Date.parse(runs[0]!.run.startedAt);
  runs.forEach((r, i) => {
    r.run.startedAt = new Date(start + i * 5 * 86_400_000).toISOString();
    if (i % 5 === 4) r.run.git.branch = 'release-1';
  });
  // Day 10 has an invalid repetition: the run is invalid and drawn differently.
  const bad = buildRunResult({
    suite: 'nightly',
    profiles: ['1000rps', '100rps'],
    startedAt: new Date(runs[10]!.run.startedAt),
    id: runs[10]!.run.id,
    seed: 4242,
    invalid: [{ mode: 'linkerd', repetition: 1 }],
  });
  bad.run.startedAt = runs[10]!.run.startedAt;
  runs[10] = bad;
  return runs;
}

async function expectDrawn(page: Page, label: string): Promise<number> {
  const canvases = await canvasInk(page);
  assert.ok(canvases.length > 0, `${label}: no canvas`);
  for (const c of canvases)
    assert.ok(c.width > 0 && c.inked > 500, `${label}: canvas ${c.id} looks blank (${c.inked} inked pixels of ${c.width}×${c.height})`);
  return canvases.length;
}

function onlyLocalRequests(page: Page): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('file://') && !url.startsWith('http://127.0.0.1') && !url.startsWith('data:') && !url.startsWith('about:'))
      foreign.push(url);
  });
  return foreign;
}

async function renders(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders);
}

async function nextRender(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders > n, before, {
    timeout: 10_000,
  });
}

test('run report and dashboard in Chromium, from file:// and over HTTP', { timeout: 300_000 }, async (t) => {
  const dir = await tempDir('browser');
  await mkdir(ARTIFACTS, { recursive: true });
  let browser: BrowserSession | undefined;
  const server = await startStaticServer(dir);
  try {
    const runDir = join(dir, 'run');
    await mkdir(runDir);
    const single = buildRunResult({
      suite: 'nightly',
      resources: true,
      profiles: ['1000rps', '100rps'],
      invalid: [{ mode: 'istio-waypoint', repetition: 0 }],
    });
    await writeHtmlReport(buildRunView(single), runDir);
    const site = join(dir, 'site');
    const store = new DirectoryStore({ root: site, chartJs: loadChartJsSource });
    const runs = nightlyRuns();
    await store.publish(runs);
    await store.publish(
      buildDailyRuns(5, { suite: 'weekly', modes: ['baseline', 'istio-ambient'], start: new Date(Date.UTC(2025, 0, 3)) }),
    );
    const empty = join(dir, 'empty');
    await new DirectoryStore({ root: empty, chartJs: loadChartJsSource }).rebuild();
    browser = await launchBrowser();
    const session = browser;

    for (const [where, url] of [
      ['file', pathToFileURL(join(runDir, 'report.html')).href],
      ['http', `${server.url}run/report.html`],
    ] as const) {
      await t.test(`standalone report over ${where}: charts drawn, invalid repetition marked, no errors`, async () => {
        const { page, errors } = await session.newPage();
        const foreign = onlyLocalRequests(page);
        await page.goto(url);
        await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, undefined, {
          timeout: 15_000,
        });
        const count = await expectDrawn(page, `report (${where})`);
        assert.equal(count, 2 * 6, 'spectrum, bars, overhead, timeline, cpu, memory per profile');
        assert.equal(await page.locator('#repetitions tr.invalid').count(), 2, 'one invalid repetition per profile');
        assert.match((await page.locator('#repetitions tr.invalid').first().textContent()) ?? '', /dropped iterations/);
        const before = await canvasFingerprint(page, '#timeline-0');
        await page.selectOption('#timeline-stat-0', 'p50');
        assert.notEqual(await canvasFingerprint(page, '#timeline-0'), before, 'the timeline statistic selector redraws');
        await page.screenshot({ path: join(ARTIFACTS, `report-${where}.png`), fullPage: true });
        assert.deepEqual(errors, []);
        assert.deepEqual(foreign, []);
        await page.close();
      });
    }

    for (const [where, base] of [
      ['file', `${pathToFileURL(site).href}/`],
      ['http', `${server.url}site/`],
    ] as const) {
      await t.test(`dashboard over ${where}: trends drawn, filters change the drawing, points link to reports`, async () => {
        const { page, errors } = await session.newPage();
        const foreign = onlyLocalRequests(page);
        await page.goto(`${base}index.html`);
        await page.waitForFunction(() => (window as unknown as { __meshPerfRenders: number }).__meshPerfRenders >= 1, undefined, {
          timeout: 15_000,
        });
        assert.equal(await expectDrawn(page, `dashboard (${where})`), 2, 'one chart per load profile');
        assert.match((await page.locator('#status').textContent()) ?? '', /40 of 40 runs of suite nightly/);
        await page.screenshot({ path: join(ARTIFACTS, `dashboard-${where}.png`), fullPage: true });

        // The invalid run is drawn with a different point style: a cross over its point of the line.
        const styles = await page.evaluate((invalidId) => {
          const chart = (window as unknown as { Chart: { getChart(c: unknown): any } }).Chart.getChart(document.getElementById('trend-0'));
          const out: { invalid: boolean; style: string }[] = [];
          for (const label of ['linkerd invalid', 'linkerd']) {
            const index = chart.data.datasets.findIndex((d: any) => d.label === label);
            if (index < 0) continue;
            const meta = chart.getDatasetMeta(index);
            chart.data.datasets[index].data.forEach((p: any, i: number) => {
              if (label === 'linkerd invalid' || p.run.id !== invalidId)
                out.push({ invalid: p.run.id === invalidId, style: meta.data[i].options.pointStyle });
            });
          }
          return out;
        }, runs[10]!.run.id);
        assert.deepEqual(
          [...new Set(styles.filter((s: { invalid: boolean }) => s.invalid).map((s: { style: string }) => s.style))],
          ['crossRot'],
        );
        assert.deepEqual(
          [...new Set(styles.filter((s: { invalid: boolean }) => !s.invalid).map((s: { style: string }) => s.style))],
          ['circle'],
        );

        await page.selectOption('#f-range', '0');
        const status = async () => (await page.locator('#status').textContent()) ?? '';
        const filters: [string, () => Promise<void>, (() => Promise<void>)?][] = [
          // The dashboard opens on p50, the gate's statistic: p99 is the change.
          ['percentile', () => page.selectOption('#f-stat', 'p99').then(() => undefined)],
          ['mode', () => page.locator('#f-modes input[value="istio-waypoint"]').uncheck()],
          [
            'range',
            () => page.selectOption('#f-range', '90').then(() => undefined),
            async () => assert.match(await status(), /19 of 40 runs/),
          ],
          [
            'branch',
            () => page.selectOption('#f-branch', 'release-1').then(() => undefined),
            async () => assert.match(await status(), /4 of 40 runs/),
          ],
          ['x axis', () => page.selectOption('#f-axis', 'commit').then(() => undefined)],
        ];
        for (const [name, apply, check] of filters) {
          const before = await canvasFingerprint(page, '#trend-0');
          const n = await renders(page);
          await apply();
          await nextRender(page, n);
          assert.notEqual(await canvasFingerprint(page, '#trend-0'), before, `the ${name} filter changes what is drawn`);
          await expectDrawn(page, `dashboard after ${name} filter`);
          await check?.();
        }
        assert.ok(page.url().includes('branch=release-1') && page.url().includes('stat=p99'), `filters are kept in the URL: ${page.url()}`);

        let n = await renders(page);
        await page.selectOption('#f-profile', '100rps');
        await nextRender(page, n);
        assert.equal(await expectDrawn(page, 'one profile'), 1, 'the load-profile filter leaves one chart');
        n = await renders(page);
        await page.selectOption('#f-suite', 'weekly');
        await nextRender(page, n);
        assert.match((await page.locator('#status').textContent()) ?? '', /5 of 5 runs of suite weekly/);
        await expectDrawn(page, 'weekly suite');

        // The runs table links to each run's report and to its commit.
        const links = await page.locator('#runs a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
        assert.ok(
          links.some((h) => h?.startsWith('https://github.com/example/mesh-app/commit/')),
          links.join(' '),
        );
        assert.ok(
          links.some((h) => /^run\.html#run=weekly\/2025\/[^/]+$/.test(h ?? '')),
          links.join(' '),
        );

        // Clicking a point opens that run's report.
        await page.locator('#trend-0').scrollIntoViewIfNeeded();
        await page.locator('#trend-0').scrollIntoViewIfNeeded();
        const target = await page.evaluate(() => {
          const canvas = document.getElementById('trend-0')!;
          const chart = (window as unknown as { Chart: { getChart(c: unknown): any } }).Chart.getChart(canvas);
          const index = chart.data.datasets.findIndex((d: any) => !d.band);
          const last = chart.getDatasetMeta(index).data.length - 1;
          const point = chart.getDatasetMeta(index).data[last];
          const box = canvas.getBoundingClientRect();
          return { x: box.left + point.x, y: box.top + point.y, report: chart.data.datasets[index].data[last].run.report as string };
        });
        await Promise.all([
          page.waitForURL((u) => u.href.endsWith(target.report), { timeout: 10_000 }),
          page.mouse.click(target.x, target.y),
        ]);
        await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, undefined, {
          timeout: 15_000,
        });
        await expectDrawn(page, 'run report from the store');
        await page.screenshot({ path: join(ARTIFACTS, `store-report-${where}.png`), fullPage: false });
        assert.deepEqual(errors, []);
        assert.deepEqual(foreign, []);
        await page.close();
      });
    }

    await t.test('an empty store shows a hint instead of charts, without errors', async () => {
      const { page, errors } = await session.newPage();
      await page.goto(pathToFileURL(join(empty, 'index.html')).href);
      await page.waitForFunction(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered !== undefined, undefined, {
        timeout: 15_000,
      });
      assert.match((await page.locator('#status').textContent()) ?? '', /No runs published yet/);
      assert.deepEqual(errors, []);
      await page.close();
    });
  } finally {
    await browser?.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
