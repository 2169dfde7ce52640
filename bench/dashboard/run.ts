// Benchmark: a history store holding 3 years of daily runs × 20 scenarios.
//   - how big the gh-pages branch gets (checked-out site, packed git history, largest file)
//   - how long `mesh-perf report` takes to rebuild it (export to a folder, and in place)
//   - how long the dashboard takes to first render in headless Chromium, beside the time to
//     load an empty page in the same browser, from file:// and over HTTP
// Usage: node --import tsx bench/dashboard/run.ts [--days 1095] [--suites 5] [--profiles 4]
//        [--modes 5] [--repetitions 3] [--duration 30] [--keep-timelines 30d] [--loads 5] [--keep]
import { execFile, spawn } from 'node:child_process';
import { writeFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { launchBrowser, type BrowserSession } from '../../test/support/browser.ts';
import { tempDir } from '../../test/history/support/git-repo.ts';
import { startStaticServer } from '../../test/report/support/static-server.ts';
import { describeShape, seedBranch, type SeedShape } from './seed.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '1095' },
    suites: { type: 'string', default: '5' },
    profiles: { type: 'string', default: '4' },
    modes: { type: 'string', default: '5' },
    repetitions: { type: 'string', default: '3' },
    duration: { type: 'string', default: '30' },
    loads: { type: 'string', default: '5' },
    'keep-timelines': { type: 'string', default: '30d' },
    keep: { type: 'boolean', default: false },
  },
});
const shape: SeedShape = {
  days: Number(values.days),
  suites: Number(values.suites),
  profilesPerSuite: Number(values.profiles),
  modes: Number(values.modes),
  repetitions: Number(values.repetitions),
  durationS: Number(values.duration),
  keepTimelines: values['keep-timelines'],
};

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec('git', args, { cwd, maxBuffer: 1024 * 1024 * 1024 })).stdout;
}

async function timed(args: string[]): Promise<{ seconds: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - started) / 1000, stdout })
        : reject(new Error(`mesh-perf ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function branchSizes(remote: string) {
  const listing = await git(remote, 'ls-tree', '-r', '-l', 'refs/heads/gh-pages');
  const kinds: Record<string, { files: number; bytes: number }> = {};
  let largest = { path: '', bytes: 0 };
  let total = 0;
  for (const line of listing.split('\n')) {
    if (!line) continue;
    const [meta, path] = line.split('\t') as [string, string];
    const bytes = Number(meta.trim().split(/\s+/)[3]);
    const kind = /^runs\/[^/]+\/\d{4}\/.*\.json$/.test(path)
      ? 'run files (.json)'
      : /^runs\/[^/]+\/\d{4}\/.*\.html$/.test(path)
        ? 'run reports (.html)'
        : path.endsWith('index.json')
          ? 'suite indexes'
          : path.startsWith('data/')
            ? 'dashboard data (.js)'
            : 'dashboard, assets, marker';
    kinds[kind] ??= { files: 0, bytes: 0 };
    kinds[kind]!.files++;
    kinds[kind]!.bytes += bytes;
    total += bytes;
    if (bytes > largest.bytes) largest = { path, bytes };
  }
  return { kinds, total, largest };
}

async function packedKiB(repo: string): Promise<number> {
  const out = await git(repo, 'count-objects', '-v');
  const get = (key: string) => Number(/^(\S+): (\d+)$/m.test(out) ? (new RegExp(`^${key}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0) : 0);
  return get('size-pack') + get('size');
}

async function firstRender(browser: BrowserSession, url: string, loads: number, marker: 'rendered' | 'load'): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < loads; i++) {
    const { page, errors } = await browser.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const ms =
      marker === 'rendered'
        ? await page
            .waitForFunction(() => (window as unknown as { __meshPerfRendered?: number }).__meshPerfRendered, undefined, {
              timeout: 60_000,
            })
            .then((h) => h.jsonValue() as Promise<number>)
        : await page.evaluate(() => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            return nav.loadEventEnd || performance.now();
          });
    if (errors.length) throw new Error(`${url}: ${errors.join('; ')}`);
    times.push(ms);
    await page.close();
  }
  return times;
}

const dir = await tempDir('bench-dashboard');
const loads = Number(values.loads);
try {
  console.log(`# mesh-perf dashboard benchmark\nshape: ${describeShape(shape)}\nwork dir: ${dir}\n`);
  const remote = join(dir, 'history.git');
  const seedSeconds = await seedBranch(remote, shape, await loadChartJsSource(), (day) =>
    process.stderr.write(`seeded ${day}/${shape.days} days\r`),
  );
  process.stderr.write('\n');
  const commits = Number((await git(remote, 'rev-list', '--count', 'refs/heads/gh-pages')).trim());

  const sizes = await branchSizes(remote);
  const looseKiB = await packedKiB(remote);
  const gcStarted = performance.now();
  await git(remote, 'gc', '--quiet');
  const gcSeconds = (performance.now() - gcStarted) / 1000;
  const gcKiB = await packedKiB(remote);
  console.log(`## Branch size after ${commits} daily commits (seeding took ${seedSeconds.toFixed(0)} s)`);
  console.log('| part | files | bytes |\n|---|---:|---:|');
  for (const [kind, v] of Object.entries(sizes.kinds)) console.log(`| ${kind} | ${v.files} | ${mib(v.bytes)} |`);
  console.log(
    `| **checked-out site (what Pages serves)** | ${Object.values(sizes.kinds).reduce((a, v) => a + v.files, 0)} | **${mib(sizes.total)}** |`,
  );
  console.log(`| git history, every object zlib-compressed on its own (no deltas) | | ${mib(looseKiB * 1024)} |`);
  console.log(
    `| **git history after \`git gc\`** (what a clone downloads; gc took ${gcSeconds.toFixed(0)} s) | | **${mib(gcKiB * 1024)}** |`,
  );
  console.log(`| largest file: ${sizes.largest.path} | 1 | ${mib(sizes.largest.bytes)} |\n`);

  const cliStart = await timed(['--help']);
  const site = join(dir, 'site');
  const exportRun = await timed(['report', '--store', remote, '--out', site]);
  const rebuildRun = await timed(['report', '--store', remote]);
  console.log('## `mesh-perf report`');
  console.log('| command | wall time |\n|---|---:|');
  console.log(`| \`mesh-perf --help\` (process start, reference) | ${cliStart.seconds.toFixed(1)} s |`);
  console.log(
    `| \`mesh-perf report --store <repo> --out <dir>\` (fetch, re-render every report, write the site) | ${exportRun.seconds.toFixed(1)} s |`,
  );
  console.log(
    `| \`mesh-perf report --store <repo>\` (rebuild in place; nothing changed, no commit) | ${rebuildRun.seconds.toFixed(1)} s |\n`,
  );

  await mkdir(join(site, 'bench'), { recursive: true });
  await writeFile(
    join(site, 'bench', 'empty.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>empty</title></head><body></body></html>\n',
  );
  const server = await startStaticServer(site);
  const browser = await launchBrowser();
  try {
    const rows: [string, number[]][] = [];
    for (const [where, base] of [
      ['file://', `${pathToFileURL(site).href}/`],
      ['http (127.0.0.1)', server.url],
    ] as const) {
      rows.push([`empty page, ${where}`, await firstRender(browser, `${base}bench/empty.html`, loads, 'load')]);
      rows.push([`dashboard first render (default: 1 year), ${where}`, await firstRender(browser, `${base}index.html`, loads, 'rendered')]);
      rows.push([
        `dashboard first render (range: all), ${where}`,
        await firstRender(browser, `${base}index.html#range=0`, loads, 'rendered'),
      ]);
    }
    console.log(`## Dashboard in headless Chromium (${loads} loads each, fresh page; ms since navigation start)`);
    console.log('| page | median | min | max |\n|---|---:|---:|---:|');
    for (const [label, times] of rows)
      console.log(
        `| ${label} | ${median(times).toFixed(0)} ms | ${Math.min(...times).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms |`,
      );
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  if (values.keep) console.log(`\nkept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}
