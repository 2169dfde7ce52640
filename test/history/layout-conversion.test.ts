// Converting a history branch from layout 1 (a JSON file and an HTML report per run, written by the
// mesh-perf before layout 2: test/fixtures/history-layout-1) with `mesh-perf report --store`: one
// commit; the dashboard in Chromium shows the same series (every chart's datasets, point by point)
// and the same change points before and after; every old run report address still opens its run,
// from file:// and over HTTP; the index holds the same figures the old one did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { launchBrowser, type BrowserSession } from '../support/browser.ts';
import { startStaticServer } from '../report/support/static-server.ts';
import { branchFiles, commitCount, tempDir } from './support/git-repo.ts';
import { layoutOneRepo } from './support/layout-1-fixture.ts';
import { runCli } from './support/mesh-perf-cli.ts';
import { folderStore, gitStore, readIndex } from './support/store-files.ts';
import { steppedRuns } from './support/stepped-runs.ts';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';

const exec = promisify(execFile);

/** The branch's files in a folder, as a Pages site or a checkout has them. */
async function checkout(repo: string, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const archive = await exec('git', ['archive', '--format=tar', 'gh-pages'], { cwd: repo, encoding: 'buffer', maxBuffer: 256 << 20 });
  await new Promise<void>((resolve, reject) => {
    const tar = execFile('tar', ['-x', '-C', dir], (error) => (error ? reject(error) : resolve()));
    tar.stdin!.end(archive.stdout);
  });
  return dir;
}

interface DashboardView {
  status: string;
  /** Per chart: its datasets, each a label and its points (x, y, the interval where there is one, invalid). */
  charts: { id: string; datasets: { label: string; points: (number | boolean | null)[][] }[] }[];
  changePoints: string[];
  note: string;
}

/** What the dashboard shows for a suite, every run (range "all"), a percentile. */
async function dashboardOf(browser: BrowserSession, url: string): Promise<DashboardView> {
  const { page, errors } = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __meshPerfRenders?: number }).__meshPerfRenders! >= 1, undefined, {
    timeout: 30_000,
  });
  const view = await page.evaluate(() => {
    const Chart = (window as unknown as { Chart: { getChart(c: unknown): any } }).Chart;
    const charts = [...document.querySelectorAll('#charts canvas')].map((canvas) => {
      const chart = Chart.getChart(canvas);
      return {
        id: canvas.id,
        // The series (a cross drawn over an invalid run's point is not one; the point says it is invalid).
        datasets: chart.data.datasets
          .filter((d: any) => !d.mark)
          .map((d: any) => ({
            label: d.label,
            points: d.data.map((p: any) => [p.x, p.y, p.lo ?? null, p.hi ?? null, p.invalid ?? null]),
          })),
      };
    });
    return {
      status: document.getElementById('status')!.textContent ?? '',
      charts,
      changePoints: [...document.querySelectorAll('#change-points tbody tr')].map((tr) => tr.textContent ?? ''),
      note: document.getElementById('cp-note')!.textContent ?? '',
    };
  });
  assert.deepEqual(errors, [], `${url}: no console errors`);
  await page.close();
  return view;
}

test('report --store converts a layout-1 branch in one commit: same series and change points, old run addresses open their runs', {
  timeout: 600_000,
}, async () => {
  const dir = await tempDir('layout-conversion');
  const repo = await layoutOneRepo(dir);
  const before = await checkout(repo, join(dir, 'before'));
  const oldFiles = await branchFiles(repo, 'gh-pages');
  const oldReports = oldFiles.filter((f) => /^runs\/[^/]+\/\d{4}\/[^/]+\.html$/.test(f));
  const suites = JSON.parse(await readFile(join(before, 'mesh-perf.json'), 'utf8')).suites.map((s: { name: string }) => s.name) as string[];
  assert.ok(oldReports.length >= 40 && suites.length >= 5, `fixture: ${oldReports.length} runs, ${suites.length} suites`);
  const commits = await commitCount(repo, 'gh-pages');

  const converted = await runCli(['report', '--store', repo]);
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(
    converted.stdout,
    new RegExp(`${oldReports.length} runs in ${suites.length} suite\\(s\\), \\d+ file\\(s\\) rewritten, converted from history layout 1`),
  );
  assert.equal(await commitCount(repo, 'gh-pages'), commits + 1, 'one commit');
  const newFiles = await branchFiles(repo, 'gh-pages');
  assert.deepEqual(
    newFiles.filter((f) => (f.endsWith('.json') && f !== 'mesh-perf.json') || f.startsWith('data/')),
    [],
    'the old run files, indexes and dashboard data are gone',
  );
  for (const report of oldReports) assert.ok(newFiles.includes(report), `${report} is still there (a redirect)`);
  const after = await checkout(repo, join(dir, 'after'));

  // Again: nothing left to convert, no commit.
  const again = await runCli(['report', '--store', repo]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await commitCount(repo, 'gh-pages'), commits + 1, 'a second rebuild changes nothing');

  // The index holds the figures the old one held (achieved rps, which no page drew, left out).
  for (const suite of suites) {
    const sandbox = {
      window: {} as {
        meshPerfData?: Record<
          string,
          { runs: { id: string; modes: Record<string, Record<string, { n: number; valid: number; s: Record<string, unknown> }>> }[] }
        >;
      },
    };
    runInNewContext(await readFile(join(before, 'data', `${suite}.js`), 'utf8'), sandbox);
    const old = JSON.parse(JSON.stringify(sandbox.window.meshPerfData![suite]!.runs)) as {
      id: string;
      modes: Record<string, Record<string, { s: Record<string, unknown> }>>;
    }[];
    for (const run of old) for (const modes of Object.values(run.modes)) for (const mode of Object.values(modes)) delete mode.s.rps;
    const fresh = (await readIndex(folderStore(after), suite)).runs;
    assert.deepEqual(
      fresh.map((r) => [r.id, r.modes]),
      old.map((r) => [r.id, r.modes]),
      `${suite}: the same runs with the same figures`,
    );
  }

  const browser = await launchBrowser();
  const server = await startStaticServer(dir);
  try {
    for (const suite of suites) {
      for (const stat of ['p50', 'p99']) {
        const hash = `#suite=${suite}&range=0&stat=${stat}`;
        const old = await dashboardOf(browser, `${pathToFileURL(before).href}/index.html${hash}`);
        const fresh = await dashboardOf(browser, `${pathToFileURL(after).href}/index.html${hash}`);
        assert.ok(old.charts.length > 0 && old.charts.every((c) => c.datasets.length > 0), `${suite}: the old dashboard drew charts`);
        assert.deepEqual(fresh.charts, old.charts, `${suite} ${stat}: the same series, point by point`);
        // The converted dashboard has a confirmation column the old one lacked (none confirmed yet).
        assert.deepEqual(
          fresh.changePoints.map((row) => row.replace(/unconfirmed$/, '')),
          old.changePoints,
          `${suite} ${stat}: the same change points`,
        );
        assert.equal(fresh.note, old.note);
        assert.equal(fresh.status, old.status);
        if (suite === 'nightly') assert.ok(old.changePoints.length > 0, 'the step of the nightly suite is a change point');
      }
    }

    // Every old run report address opens that run's page from a checkout; a sample of them from a
    // Pages site (the same redirect).
    for (const [where, base, reports] of [
      ['file', `${pathToFileURL(after).href}/`, oldReports],
      ['http', `${server.url}after/`, oldReports.filter((_, i) => i % 7 === 0)],
    ] as const) {
      for (const report of reports) {
        const { page, errors } = await browser.newPage();
        await page.goto(`${base}${report}`);
        await page.waitForFunction(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered, undefined, {
          timeout: 30_000,
        });
        const id = /-([^-]+)\.html$/.exec(report)![1]!;
        assert.ok(page.url().includes('run.html#run='), `${report} (${where}) lands on the run page: ${page.url()}`);
        assert.ok(page.url().endsWith(report.replace(/^runs\//, '').replace(/\.html$/, '')), page.url());
        assert.match(await page.title(), new RegExp(`mesh-perf · ${report.split('/')[1]} · .*${id}`), `${report} (${where}) shows its run`);
        assert.deepEqual(errors, [], `${report} (${where})`);
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
});

test('a layout-1 branch: lookups read it as it is; the next publish converts it in its own commit', { timeout: 300_000 }, async () => {
  const dir = await tempDir('layout-1-publish');
  const repo = await layoutOneRepo(dir);
  const head = (await exec('git', ['rev-parse', 'refs/heads/gh-pages'], { cwd: repo })).stdout.trim();
  const commits = await commitCount(repo, 'gh-pages');
  const store = new GitBranchStore({ url: repo, branch: 'gh-pages', chartJs: loadChartJsSource });
  const latest = await store.list({ suite: 'nightly', branch: 'main', limit: 3 });
  assert.equal(latest.length, 3);
  assert.ok(latest.every((r) => r.run.suite === 'nightly' && r.run.git.branch === 'main' && r.modes.length > 0));
  const steps = await store.changePoints('nightly', 'main');
  assert.ok(
    steps.changePoints.some((cp) => cp.mode === 'istio-sidecar' && cp.metric === 'ratio'),
    'change points from the layout-1 index',
  );
  assert.equal((await exec('git', ['rev-parse', 'refs/heads/gh-pages'], { cwd: repo })).stdout.trim(), head, 'reading converts nothing');

  const next = steppedRuns(40)[39]!;
  const outcome = await store.publish([next]);
  assert.equal(outcome.added.length, 1);
  assert.match(outcome.warnings.join('\n'), /converted the store to history layout 2 \(\d+ runs/);
  assert.equal(await commitCount(repo, 'gh-pages'), commits + 1, 'conversion and the new run in one commit');
  const marker = JSON.parse((await exec('git', ['show', 'gh-pages:mesh-perf.json'], { cwd: repo })).stdout);
  assert.equal(marker.schemaVersion, 2);
  const files = await branchFiles(repo, 'gh-pages');
  assert.ok(!files.some((f) => f.startsWith('data/') || /\.json$/.test(f.replace('mesh-perf.json', ''))), 'no layout-1 file left');
  const index = await readIndex(gitStore(repo), 'nightly');
  assert.equal(index.runs.at(-1)!.id, next.run.id);
  assert.equal((await store.list({ suite: 'nightly', branch: 'main', limit: 1 }))[0]!.run.id, next.run.id);
});
