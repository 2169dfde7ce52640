// report.html of a real A/B run (test/fixtures/results/ab-arms.results.json) in Chromium: the A/B
// section comes first, its per-block chart is drawn, and nothing errs. Screenshot in .test-artifacts/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import { canvasInk, launchBrowser } from '../support/browser.ts';
import { tempDir } from '../history/support/git-repo.ts';
import { loadStored } from './support/outputs.ts';
import { buildRunView } from '../../src/report/view.ts';

const ARTIFACTS = join(import.meta.dirname, '..', '..', '.test-artifacts');

test('the A/B section leads report.html and its per-block chart is drawn', { timeout: 120_000 }, async () => {
  const dir = await tempDir('ab-report');
  const path = await writeHtmlReport(buildRunView(loadStored('ab-arms')), dir);
  const browser = await launchBrowser();
  try {
    const { page, errors } = await browser.newPage();
    await page.goto(pathToFileURL(path).href);
    await page.waitForFunction(() => (window as unknown as { __meshPerfReady?: boolean }).__meshPerfReady === true, null, {
      timeout: 30_000,
    });
    const first = await page.evaluate(() => document.querySelector('main > section')?.id);
    assert.equal(first, 'ab');
    const text = await page.evaluate(() => document.querySelector('#ab')!.textContent!);
    assert.match(text, /proxy head vs base: p50 \+81\.1% \[-37\.6%, \+249%\], not settled within the budget/);
    const ab = (await canvasInk(page)).find((c) => c.id === 'ab-0');
    assert.ok(ab && ab.inked > 500, `ab-0 looks blank: ${JSON.stringify(ab)}`);
    assert.deepEqual(errors, []);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.locator('#ab').screenshot({ path: join(ARTIFACTS, 'report-ab.png') });
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
});
