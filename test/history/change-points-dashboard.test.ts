// The dashboard of a store with a step, in Chromium: the change point is listed with what
// changed (every field that differed) and its confirmation's verdict, marked on the chart, and a
// run page's link lands on the change point it follows; the page of the step's first run says the
// verdict.
// MESH_PERF_SCREENSHOTS=<dir> also saves the page at a phone's width (400 px) and a desktop's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIRMATION_KIND, CONFIRMATION_SCHEMA_VERSION } from '../../src/confirm/record.ts';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { wordConfirmation } from '../../src/report/confirm-words.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { launchBrowser } from '../support/browser.ts';
import { tempDir } from './support/git-repo.ts';
import { STEP_AT, steppedRuns } from './support/stepped-runs.ts';

test('dashboard: change points listed, marked on the chart, and reached from a run page', { timeout: 180_000 }, async () => {
  const dir = await tempDir('change-points-dashboard');
  const root = join(dir, 'history');
  const runs = steppedRuns(45);
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  await store.publish(runs);
  const cp = (await store.changePoints('nightly', 'main')).changePoints.find((c) => c.mode === 'istio-sidecar' && c.metric === 'ratio')!;
  await store.recordConfirmations([
    wordConfirmation({
      kind: CONFIRMATION_KIND,
      schemaVersion: CONFIRMATION_SCHEMA_VERSION,
      suite: 'nightly',
      branch: 'main',
      profile: cp.profile,
      mode: cp.mode,
      metric: 'p50',
      before: cp.before,
      after: cp.after,
      size: cp.size,
      verdict: 'confirmed',
      reason: 'ab-fail',
      startedAt: '2026-11-21T04:00:00.000Z',
      finishedAt: '2026-11-21T04:09:00.000Z',
      settings: [{ path: 'istio', before: '{"version":"1.29.2"}', after: '{"version":"1.30.0"}' }],
      fixed: [],
      environment: [],
      rounds: [
        {
          purpose: 'ab',
          runId: 'r1',
          verdict: 'fail',
          elapsedS: 212,
          groups: [{ settings: ['istio'], decision: 'fail', change: { value: 0.29, low: 0.26, high: 0.32 }, minimum: 0.05, blocks: 10 }],
        },
      ],
      culprits: [{ settings: ['istio'], together: false }],
      runner: 'linux-x64-2c',
      tool: 'test',
    }),
  ]);
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
      // Every other field that differed, and the verdict with how it was reached.
      assert.match(
        sidecar[0]!.text,
        /image@istiod\/discovery: docker\.io\/istio\/pilot@sha256:1{64} → docker\.io\/istio\/pilot@sha256:2{64}/,
      );
      assert.match(
        sidecar[0]!.text,
        /confirmed istio \{"version":"1\.29\.2"\} → \{"version":"1\.30\.0"\} moved 1000rps · istio-sidecar · p50 by \+29\.0% \[\+26\.0%, \+32\.0%\] in a same-run A\/B \(10 blocks\) \(judged on p50\)how/,
      );
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
    // The page of the step's first run says the change point it starts and the verdict.
    await page.setViewportSize({ width: 1280, height: 1000 });
    const file = (await store.list({ suite: 'nightly', ids: [cp.after] }))[0]!;
    const stamp = file.run.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    await page.goto(
      `${pathToFileURL(join(root, 'run.html')).href}#run=nightly/${stamp.slice(0, 4)}/${stamp}-${cp.after.split('-').at(-1)}`,
    );
    await page.waitForFunction(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered);
    const started = await page.textContent('#change-point');
    assert.match(
      started ?? '',
      /This run starts a change point.*1000rps · istio-sidecar · p50 ratio to baseline \+\d+\.\d%: confirmed istio/s,
    );
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
