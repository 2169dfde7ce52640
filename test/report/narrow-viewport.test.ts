// report.html and the dashboard on a phone: at 400 CSS pixels no page is wider than the viewport
// (tables scroll inside their own box, charts resize), and both still render at 1280. Real
// Chromium; screenshots at both widths go to .test-artifacts/ (narrow-*.png, wide-*.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import { canvasInk, launchBrowser, type BrowserSession } from '../support/browser.ts';
import { buildDailyRuns, buildRunResult } from '../support/results-fixture.ts';
import { tempDir } from '../history/support/git-repo.ts';
import { buildRunView } from '../../src/report/view.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.test-artifacts');

/** The page's width beyond the viewport, and the elements that stick out of it (for the message). */
async function overflow(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const box = el.getBoundingClientRect();
      if (box.right > width + 1 && culprits.length < 8)
        culprits.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} right=${Math.round(box.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits };
  });
}

/** Loads a page and waits for its charts: the report sets __meshPerfReady, the dashboard counts renders. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const w = window as unknown as { __meshPerfReady?: boolean; __meshPerfRenders?: number };
      return w.__meshPerfReady === true || (w.__meshPerfRenders ?? 0) >= 1;
    },
    undefined,
    { timeout: 15_000 },
  );
}

test('report.html and the dashboard fit a 400 px phone and still read at 1280 px', { timeout: 240_000 }, async () => {
  const dir = await tempDir('narrow');
  await mkdir(ARTIFACTS, { recursive: true });
  let browser: BrowserSession | undefined;
  try {
    const runDir = join(dir, 'run');
    await mkdir(runDir);
    const run = buildRunResult({
      suite: 'nightly',
      resources: true,
      profiles: ['1000rps', '100rps'],
      invalid: [{ mode: 'istio-waypoint', repetition: 0 }],
    });
    await writeHtmlReport(buildRunView(run), runDir);
    const site = join(dir, 'site');
    await new DirectoryStore({ root: site, chartJs: loadChartJsSource }).publish(
      buildDailyRuns(12, { suite: 'nightly', profiles: ['1000rps', '100rps'], resources: true }),
    );
    browser = await launchBrowser();
    const pages = [
      ['report', pathToFileURL(join(runDir, 'report.html')).href],
      ['dashboard', `${pathToFileURL(site).href}/index.html`],
    ] as const;
    for (const [name, url] of pages) {
      for (const width of [400, 1280]) {
        const { page, errors } = await browser.newPage();
        await page.setViewportSize({ width, height: 900 });
        await open(page, url);
        const { scrollWidth, culprits } = await overflow(page);
        assert.ok(scrollWidth <= width, `${name} at ${width} px is ${scrollWidth} px wide: ${culprits.join(', ')}`);
        for (const canvas of await canvasInk(page)) {
          assert.ok(canvas.width <= width, `${name}: canvas ${canvas.id} is ${canvas.width} px wide at ${width}`);
          assert.ok(canvas.inked > 500, `${name} at ${width} px: canvas ${canvas.id} looks blank`);
        }
        await page.screenshot({ path: join(ARTIFACTS, `${width === 400 ? 'narrow' : 'wide'}-${name}.png`), fullPage: true });
        assert.deepEqual(errors, []);
        await page.close();
      }
    }
  } finally {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  }
});
