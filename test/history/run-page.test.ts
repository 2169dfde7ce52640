// The one run page of a history store (run.html) in Chromium, from file:// and over HTTP: each
// run renders from its stored files with every chart drawn and reads as the run's own report.html
// (same renderer: the same verdict, summary, analysis and repetitions); a run whose timelines were
// dropped says so; its results.json download holds the stored run; a run that is not in the store
// says so instead of failing; nothing is fetched from the network. A run links "the change point it
// follows" only when its series has one at or before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { parseRetention } from '../../src/history/retention.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import { buildRunView } from '../../src/report/view.ts';
import { parseResultsJson } from '../../src/results/migrate.ts';
import type { RunResult } from '../../src/results/types.ts';
import { canvasInk, launchBrowser } from '../support/browser.ts';
import { buildDailyRuns, buildRunResult } from '../support/results-fixture.ts';
import { startStaticServer } from '../report/support/static-server.ts';
import { tempDir } from './support/git-repo.ts';
import { STEP_AT, steppedRuns } from './support/stepped-runs.ts';
import { folderStore, readIndex, readStoredRun } from './support/store-files.ts';

const SECTIONS = ['#verdict', '#summary', '#analysis', '#repetitions', '#ab'];

async function sections(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const id of SECTIONS) out[id] = (await page.locator(id).count()) ? await page.locator(id).innerText() : '';
  return out;
}

function foreignRequests(page: Page): string[] {
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!/^(file:|http:\/\/127\.0\.0\.1|data:|about:|blob:)/.test(url)) foreign.push(url);
  });
  return foreign;
}

test('run.html renders every stored run as its own report.html, from file:// and over HTTP', { timeout: 600_000 }, async () => {
  const dir = await tempDir('run-page');
  const root = join(dir, 'store');
  const ab = parseResultsJson(await readFile(join(import.meta.dirname, '../fixtures/results/ab-arms.results.json'), 'utf8'), 'ab');
  const runs: RunResult[] = [
    ...buildDailyRuns(3, { suite: 'nightly', profiles: ['1000rps', '100rps'], resources: true }),
    buildRunResult({ suite: 'nightly', invalid: [{ mode: 'linkerd', repetition: 1 }], startedAt: new Date(Date.UTC(2025, 0, 9)), seed: 5 }),
    ab,
  ];
  // The two oldest nightly runs lose their timelines.
  await new DirectoryStore({ root, chartJs: loadChartJsSource, timelineRetention: parseRetention('2runs') }).publish(runs);
  const files = [...(await readIndex(folderStore(root), 'nightly')).runs, ...(await readIndex(folderStore(root), 'default')).runs];
  assert.equal(files.length, runs.length);

  // Each run's own report.html, rendered from the run as stored.
  const standalone = new Map<string, string>();
  for (const entry of files) {
    const out = join(dir, 'reports', entry.id);
    await mkdir(out, { recursive: true });
    await writeHtmlReport(buildRunView(await readStoredRun(folderStore(root), entry.file)), out);
    standalone.set(entry.id, pathToFileURL(join(out, 'report.html')).href);
  }

  const server = await startStaticServer(root);
  const browser = await launchBrowser();
  try {
    const expected = new Map<string, Record<string, string>>();
    for (const [id, url] of standalone) {
      const { page, errors } = await browser.newPage();
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true);
      expected.set(id, await sections(page));
      assert.deepEqual(errors, []);
      await page.close();
    }
    for (const [where, base] of [
      ['file', `${pathToFileURL(root).href}/`],
      ['http', server.url],
    ] as const) {
      for (const entry of files) {
        const { page, errors } = await browser.newPage();
        const foreign = foreignRequests(page);
        const key = entry.file.replace(/^runs\//, '').replace(/\.js$/, '');
        await page.goto(`${base}run.html#run=${key}`);
        await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, undefined, {
          timeout: 30_000,
        });
        const label = `${entry.id} (${where})`;
        assert.ok(await page.evaluate(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered), label);
        assert.deepEqual(await sections(page), expected.get(entry.id), `${label}: reads as its report.html`);
        const canvases = await canvasInk(page);
        assert.ok(canvases.length >= 3, `${label}: ${canvases.length} charts`);
        for (const c of canvases) assert.ok(c.inked > 500, `${label}: chart ${c.id} looks blank`);
        const dropped = (await page.content()).includes('No per-second timeline in this copy');
        assert.equal(dropped, !entry.tl, `${label}: timelines ${entry.tl ? 'drawn' : 'said to be dropped'}`);
        // results.json: the stored run, to the field.
        const downloaded = await page.evaluate(async () => {
          const link = document.getElementById('results-json') as HTMLAnchorElement;
          return { name: link.download, json: await (await fetch(link.href)).text() };
        });
        assert.equal(downloaded.name, `${key.split('/')[2]}.results.json`);
        assert.deepEqual(JSON.parse(downloaded.json), JSON.parse(JSON.stringify(await readStoredRun(folderStore(root), entry.file))));
        assert.deepEqual(errors, [], label);
        assert.deepEqual(foreign, [], label);
        await page.close();
      }

      // A run that is not in the store (pruned, or a mistyped address): said on the page.
      const { page } = await browser.newPage();
      await page.goto(`${base}run.html#run=nightly/2025/20250101T000000Z-gone`);
      await page.waitForFunction(() => /not in this history/.test(document.getElementById('run-status')?.textContent ?? ''));
      await page.goto(`${base}run.html`);
      await page.waitForFunction(() => /No run named in this address/.test(document.getElementById('run-status')?.textContent ?? ''));
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('run.html links the change point a run follows only when its series has one at or before the run', { timeout: 300_000 }, async () => {
  const dir = await tempDir('run-page-change-point');
  const root = join(dir, 'store');
  const runs = steppedRuns(STEP_AT + 8);
  await new DirectoryStore({ root, chartJs: loadChartJsSource }).publish(runs);
  const files = new Map((await readIndex(folderStore(root), 'nightly')).runs.map((e) => [e.id, e.file]));
  const browser = await launchBrowser();
  try {
    const linkOf = async (index: number) => {
      const { page, errors } = await browser.newPage();
      const key = files
        .get(runs[index]!.run.id)!
        .replace(/^runs\//, '')
        .replace(/\.js$/, '');
      await page.goto(`${pathToFileURL(root).href}/run.html#run=${key}`);
      await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, undefined, {
        timeout: 30_000,
      });
      const links = await page
        .locator('header a', { hasText: 'change point it follows' })
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      assert.ok(await page.locator('header a', { hasText: 'trend dashboard' }).count(), 'the dashboard link stays');
      assert.deepEqual(errors, []);
      await page.close();
      return links;
    };
    // Before the step the series has no change point: no link to one.
    assert.deepEqual(await linkOf(5), [], 'a run before any change point');
    assert.deepEqual(await linkOf(STEP_AT - 1), [], 'the last run before the change point');
    // At and after the step: the link, to the dashboard that marks the change point.
    for (const index of [STEP_AT, STEP_AT + 5])
      assert.deepEqual(await linkOf(index), [`index.html#suite=nightly&after=${encodeURIComponent(runs[index]!.run.id)}`], `run ${index}`);
  } finally {
    await browser.close();
  }
});
