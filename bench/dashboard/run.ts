// Benchmark: a history store holding 3 years of daily runs × 20 scenarios, in today's layout
// (layout 2: one run page, compact run files, monthly index shards) beside the layout before it
// (layout 1: a JSON file and an HTML report per run, one index per suite rewritten daily, the
// dashboard's data beside it), each seeded by its own code in this same run: layout 1 by the
// source tree of the commit before layout 2 (--before, default LAYOUT_1_COMMIT, unpacked with
// `git archive`), loaded into this process beside this tree's code. Figures with their ratio:
//   - how big the branch gets: checked-out site by kind of file, git history (loose, after gc),
//     what a day's publish adds to the history (the thin pack of that day's commit), largest file
//   - CPU and wall time of publishing one more day into the 3-year branch
//   - rebuilding: exporting the site (`mesh-perf report --out`), rebuilding in place, and
//     converting the layout-1 branch to layout 2 (`mesh-perf report --store`), in this process
//   - first render in headless Chromium of the dashboard and of a run's page, beside an empty
//     page, from file:// and over HTTP
// Usage: node --import tsx bench/dashboard/run.ts [--days 1095] [--suites 5] [--profiles 4]
//        [--modes 5] [--repetitions 3] [--duration 30] [--keep-timelines 30d] [--loads 5]
//        [--before <commit>] [--before-repo <path>] [--after-repo <path>] [--skip-layout-1]
//        [--skip-pages] [--keep]
//        node --import tsx bench/dashboard/run.ts --pages <work dir> [--loads 5]
// CPU-heavy for hours (two 3-year branches are seeded; layout 1's code takes most of it, about
// 5 h on a loaded 2-vCPU VM); it drives no network load. --before-repo takes the layout-1 branch
// that another run of this bench is seeding with the same shape and --before (its
// <work dir>/history.git, or layout-1.git): this run seeds layout 2 meanwhile, then waits for that
// path to appear and hard-links it in at once (before the other run's gc packs it), so both
// branches are measured here, loose as seeded, while layout 1 is seeded once. --after-repo takes
// the layout-2 branch as seedBranch wrote it (same shape) instead of seeding it here.
// --skip-layout-1 measures layout 2 alone (no layout-1 column, no conversion): layout 1's seeding
// is hours; its figures at this shape are in docs/history.md from the run that measured them.
// --skip-pages keeps the work dir and leaves the Chromium renders to `--pages <work dir>`, which
// measures only them (take the load lock for that step alone: seeding is hours of CPU).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { DirectorySink } from '../../src/history/directory-store.ts';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { parseTimelineRetention } from '../../src/history/retention.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import type { RunResult } from '../../src/results/types.ts';
import { loadSiteScripts } from '../../src/site/scripts.ts';
import { tempDir } from '../../test/history/support/git-repo.ts';
import { startStaticServer } from '../../test/report/support/static-server.ts';
import { launchBrowser } from '../../test/support/browser.ts';
import {
  type BranchSize,
  branchSize,
  commitPackBytes,
  dailyPackBytes,
  git,
  kib,
  measured,
  median,
  mib,
  renderTimes,
  repoBytes,
} from './measure.ts';
import { describeShape, runsOfDay, SHAPE_OPTIONS, seedBranch, shapeFromFlags } from './seed.ts';

/** The last commit whose code writes layout 1. */
const LAYOUT_1_COMMIT = '00649c2';
const ROOT = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);

const { values } = parseArgs({
  options: {
    ...SHAPE_OPTIONS,
    loads: { type: 'string', default: '5' },
    before: { type: 'string', default: LAYOUT_1_COMMIT },
    'before-repo': { type: 'string' },
    'after-repo': { type: 'string' },
    'skip-layout-1': { type: 'boolean', default: false },
    'skip-pages': { type: 'boolean', default: false },
    pages: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const shape = shapeFromFlags(values);
const loads = Number(values.loads);
const timelineRetention = parseTimelineRetention(shape.keepTimelines ?? '30d');

const ratio = (after: number, before: number) => (before > 0 ? `×${(after / before).toFixed(after / before < 0.1 ? 3 : 2)}` : '–');
const row = (label: string, before: string, after: string, r: string) => console.log(`| ${label} | ${before} | ${after} | ${r} |`);
const progress = (label: string) => (day: number) => process.stderr.write(`${label}: seeded ${day}/${shape.days} days\r`);

const skipBefore = values['skip-layout-1'];
// Where layout 1 was not measured (--skip-layout-1): its cells say so, and no ratio.
const NOT = 'not seeded';
const ratioOf = (after: number, before: number | undefined) => (before === undefined ? '' : ratio(after, before));

if (values.pages) {
  // Only the pages, from a work dir a run with --keep left (its site-1 and site-2): the render
  // times are the figures to take under the load lock, apart from hours of seeding.
  await measurePages(values.pages, existsSync(join(values.pages, 'site-1')));
  process.exit(0);
}

const dir = await tempDir('bench-dashboard');
try {
  console.log(
    `# mesh-perf dashboard benchmark\nshape: ${describeShape(shape)}\nlayout 1 ${skipBefore ? 'not seeded (--skip-layout-1)' : `written by ${values.before}`}; work dir: ${dir}\n`,
  );
  const chartJs = await loadChartJsSource();
  const old = skipBefore ? undefined : await layoutOneCode(join(dir, 'layout-1-code'));
  // The page scripts are bundled now, from the sources as this run started.
  await loadSiteScripts();

  const before = skipBefore ? undefined : join(dir, 'layout-1.git');
  const after = join(dir, 'layout-2.git');
  let seedingBefore = skipBefore ? NOT : 'seeded by another run';
  if (old && before && !values['before-repo']) {
    const seeded = await measured(() => old.seed.seedBranch(before, shape, chartJs, progress('layout 1')));
    seedingBefore = `${seeded.wall.toFixed(0)} s`;
    process.stderr.write('\n');
  }
  let seedingAfter = 'seeded by another process';
  if (values['after-repo']) await linkSeeded(values['after-repo'], after);
  else {
    const seededAfter = await measured(() => seedBranch(after, shape, chartJs, progress('layout 2')));
    seedingAfter = `${seededAfter.wall.toFixed(0)} s`;
    process.stderr.write('\n');
  }
  if (before && values['before-repo']) await linkSeeded(values['before-repo'], before);
  const commits = Number((await git(after, 'rev-list', '--count', 'refs/heads/gh-pages')).trim());

  // ---- sizes
  const sizes = { before: before ? await branchSize(before) : undefined, after: await branchSize(after) };
  const loose = { before: before ? await repoBytes(before) : undefined, after: await repoBytes(after) };
  // Before gc: a thin pack of loose objects is deltified against the day before afresh (after gc,
  // pack-objects reuses the packed form, where git keeps the newest version whole).
  const daily = { before: before ? await dailyPackBytes(before, 30) : undefined, after: await dailyPackBytes(after, 30) };
  const gcTime = {
    before: before ? (await measured(() => git(before, 'gc', '--quiet'))).wall : undefined,
    after: (await measured(() => git(after, 'gc', '--quiet'))).wall,
  };
  const packed = { before: before ? await repoBytes(before) : undefined, after: await repoBytes(after) };
  console.log(`## Branch after ${commits} daily commits (seeding: layout 1 ${seedingBefore}, layout 2 ${seedingAfter})`);
  console.log('| part | layout 1 (files, bytes) | layout 2 (files, bytes) | ratio |\n|---|---:|---:|---:|');
  const kinds = new Set([...(sizes.before?.kinds.keys() ?? []), ...sizes.after.kinds.keys()]);
  const cell = (s: BranchSize | undefined, kind: string) => {
    if (!s) return NOT;
    const k = s.kinds.get(kind);
    return k ? `${k.files} · ${mib(k.bytes)}` : '–';
  };
  for (const kind of kinds)
    row(
      kind,
      cell(sizes.before, kind),
      cell(sizes.after, kind),
      sizes.before ? ratio(sizes.after.kinds.get(kind)?.bytes ?? 0, sizes.before.kinds.get(kind)?.bytes ?? 0) : '',
    );
  row(
    '**checked-out site (what Pages serves)**',
    sizes.before ? `${sizes.before.files} · **${mib(sizes.before.total)}**` : NOT,
    `${sizes.after.files} · **${mib(sizes.after.total)}**`,
    ratioOf(sizes.after.total, sizes.before?.total),
  );
  row(
    'git history, every object zlib-compressed on its own (no deltas)',
    loose.before === undefined ? NOT : mib(loose.before),
    mib(loose.after),
    ratioOf(loose.after, loose.before),
  );
  row(
    `**git history after \`git gc\`** (what a clone downloads; gc took ${gcTime.before === undefined ? '' : `${gcTime.before.toFixed(0)} s / `}${gcTime.after.toFixed(0)} s)`,
    packed.before === undefined ? NOT : `**${mib(packed.before)}**`,
    `**${mib(packed.after)}**`,
    ratioOf(packed.after, packed.before),
  );
  const spread = (d: number[]) => `**${kib(median(d))}** (${kib(Math.min(...d))}–${kib(Math.max(...d))})`;
  row(
    '**history a daily publish adds** (thin pack of the day, median of the last 30 days; min–max)',
    daily.before ? spread(daily.before) : NOT,
    spread(daily.after),
    daily.before ? ratio(median(daily.after), median(daily.before)) : '',
  );
  row(
    'largest file',
    sizes.before ? `${sizes.before.largest.path} · ${mib(sizes.before.largest.bytes)}` : NOT,
    `${sizes.after.largest.path} · ${mib(sizes.after.largest.bytes)}`,
    ratioOf(sizes.after.largest.bytes, sizes.before?.largest.bytes),
  );
  console.log('');

  // ---- converting layout 1 to layout 2 (a copy of the layout-1 branch)
  // From here on the branches are served by `git daemon` as a remote (filters and fetches by object
  // id allowed, as GitHub allows them): a publish fetches trees only and the blobs it reads, and the
  // CPU measured is the publisher's (this process and its git clients), not the server's.
  const converted = before ? join(dir, 'converted.git') : undefined;
  if (before && converted) await exec('cp', ['-al', before, converted]);
  for (const repo of [before, after, converted]) {
    if (!repo) continue;
    await git(repo, 'config', 'uploadpack.allowFilter', 'true');
    await git(repo, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  }
  const daemon = await startDaemon(dir);
  const served = (repo: string) => `${daemon.url}${basename(repo)}`;
  let conversion: { summary: string; size: string } | undefined;
  if (converted) {
    const convertedHead = (await git(converted, 'rev-parse', 'refs/heads/gh-pages')).trim();
    const converting = await measured(() =>
      new GitBranchStore({
        url: served(converted),
        branch: 'gh-pages',
        chartJs: loadChartJsSource,
        ...(timelineRetention ? { timelineRetention } : {}),
        now: () => lastDay(),
      }).rebuild(),
    );
    const convertedSize = await branchSize(converted);
    const conversionPack = await commitPackBytes(converted, (await git(converted, 'rev-parse', 'refs/heads/gh-pages')).trim());
    if ((await git(converted, 'rev-list', '--count', `${convertedHead}..refs/heads/gh-pages`)).trim() !== '1')
      throw new Error('the conversion was not one commit');
    conversion = {
      summary: `${converting.value.summary.converted} runs, one commit) | | **${converting.wall.toFixed(1)} s** (CPU ${converting.cpu.toFixed(1)} s)`,
      size: `${mib(convertedSize.total)} · ${mib(conversionPack)}`,
    };
  }

  // ---- one more day into each 3-year branch, then three more
  // The first publish into a branch without settled-months files (history/settled.ts: a branch
  // seeded or written before them) reads every shard and writes them; the next ones read the
  // recent shards only (the daily figure: median of three days, one of them the first of a month,
  // when a month settles and those files are rewritten).
  const nextDay = runsOfDay(shape, shape.days);
  const storeOf = (Store: typeof GitBranchStore, url: string, day: RunResult[] = nextDay) =>
    new Store({
      url,
      branch: 'gh-pages',
      chartJs: loadChartJsSource,
      ...(timelineRetention ? { timelineRetention } : {}),
      now: () => new Date(day[0]!.run.startedAt),
    });
  // Layout 1's code publishes the day as its own fixtures wrote it (the results schema of its time).
  const publishBefore =
    old && before
      ? await measured(() => storeOf(old.store.GitBranchStore, served(before)).publish(old.seed.runsOfDay(shape, shape.days)))
      : undefined;
  const publishAfter = await measured(() => storeOf(GitBranchStore, served(after)).publish(nextDay));
  // The day's push: objects the publish wrote (loose in the bare repository) against the day before.
  const head = async (repo: string) => (await git(repo, 'rev-parse', 'refs/heads/gh-pages')).trim();
  const dayPack = {
    before: before ? await commitPackBytes(before, await head(before)) : undefined,
    after: await commitPackBytes(after, await head(after)),
  };
  const laterDays: { cpu: number; wall: number; pack: number; date: string }[] = [];
  for (let i = 1; i <= 3; i++) {
    const day = runsOfDay(shape, shape.days + i);
    const t = await measured(() => storeOf(GitBranchStore, served(after), day).publish(day));
    laterDays.push({
      cpu: t.cpu,
      wall: t.wall,
      pack: await commitPackBytes(after, await head(after)),
      date: day[0]!.run.startedAt.slice(0, 10),
    });
  }
  const spreadOf = (values: number[], f: (v: number) => string) =>
    `${f(median(values))} (${f(Math.min(...values))}–${f(Math.max(...values))})`;
  const secs = (v: number) => `${v.toFixed(2)} s`;
  console.log(
    `## Publishing one more day (${shape.suites} runs) into the 3-year branch, in this process (git fetch, plan, commit, push to the branch served by git daemon on 127.0.0.1; load average ${loadAverage()})`,
  );
  console.log(
    `| | layout 1 | layout 2, first day (writes the settled-months files where the branch has none) | ratio | layout 2, the 3 days after (${laterDays.map((d) => d.date).join(', ')}): median (min–max) |\n|---|---:|---:|---:|---:|`,
  );
  const row5 = (label: string, a: string, b: string, r: string, c: string) => console.log(`| ${label} | ${a} | ${b} | ${r} | ${c} |`);
  row5(
    '**CPU time** (this process and its git processes)',
    publishBefore ? `**${publishBefore.cpu.toFixed(2)} s**` : NOT,
    `**${publishAfter.cpu.toFixed(2)} s**`,
    ratioOf(publishAfter.cpu, publishBefore?.cpu),
    `**${spreadOf(
      laterDays.map((d) => d.cpu),
      secs,
    )}**`,
  );
  row5(
    'wall time',
    publishBefore ? `${publishBefore.wall.toFixed(2)} s` : NOT,
    `${publishAfter.wall.toFixed(2)} s`,
    ratioOf(publishAfter.wall, publishBefore?.wall),
    spreadOf(
      laterDays.map((d) => d.wall),
      secs,
    ),
  );
  row5(
    'history it added (thin pack)',
    dayPack.before === undefined ? NOT : kib(dayPack.before),
    kib(dayPack.after),
    ratioOf(dayPack.after, dayPack.before),
    spreadOf(
      laterDays.map((d) => d.pack),
      kib,
    ),
  );
  console.log('');

  // ---- rebuilding
  const siteBefore = join(dir, 'site-1');
  const siteAfter = join(dir, 'site-2');
  const exportBefore =
    old && before
      ? await measured(() => storeOf(old.store.GitBranchStore, served(before)).exportSite(new old.sink.DirectorySink(siteBefore)))
      : undefined;
  const exportAfter = await measured(() => storeOf(GitBranchStore, served(after)).exportSite(new DirectorySink(siteAfter)));
  const rebuildBefore = old && before ? await measured(() => storeOf(old.store.GitBranchStore, served(before)).rebuild()) : undefined;
  const rebuildAfter = await measured(() => storeOf(GitBranchStore, served(after)).rebuild());
  daemon.stop();
  const timed = (t: { wall: number; cpu: number } | undefined) => (t ? `**${t.wall.toFixed(1)} s** (CPU ${t.cpu.toFixed(1)} s)` : NOT);
  console.log('## Rebuilding (`mesh-perf report`), in this process (the CLI adds its start, about 1.5 s under tsx)');
  console.log('| | layout 1 | layout 2 | ratio |\n|---|---:|---:|---:|');
  row(
    '**export the site** (`report --store <repo> --out <dir>`: read every run, write every file)',
    timed(exportBefore),
    timed(exportAfter),
    ratioOf(exportAfter.wall, exportBefore?.wall),
  );
  row(
    '**rebuild in place** (`report --store <repo>`: every run read and checked; nothing changed, no commit)',
    timed(rebuildBefore),
    timed(rebuildAfter),
    ratioOf(rebuildAfter.wall, rebuildBefore?.wall),
  );
  if (conversion) {
    console.log(`| **convert layout 1 to layout 2** (\`report --store <repo>\` with this version: ${conversion.summary} | |`);
    row('converted branch: checked-out site · history the conversion commit adds', '', conversion.size, '');
  }
  console.log('');

  await writeFile(
    join(dir, 'empty.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>empty</title></head><body></body></html>\n',
  );
  if (values['skip-pages'])
    console.log(`pages not measured here: node --import tsx bench/dashboard/run.ts --pages ${dir} (under the load lock)`);
  else await measurePages(dir, Boolean(before));
} finally {
  if (values.keep || values['skip-pages']) console.log(`\nkept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}

/** Layout 1's code, as --before had it, unpacked beside this tree (its own imports resolve inside it). */
async function layoutOneCode(oldTree: string) {
  await mkdir(oldTree);
  const archive = await exec('git', ['archive', '--format=tar', values.before!], { cwd: ROOT, encoding: 'buffer', maxBuffer: 512 << 20 });
  await new Promise<void>((resolve, reject) =>
    execFile('tar', ['-x', '-C', oldTree], (e) => (e ? reject(e) : resolve())).stdin!.end(archive.stdout),
  );
  await exec('ln', ['-s', join(ROOT, 'node_modules'), join(oldTree, 'node_modules')]);
  return {
    seed: (await import(pathToFileURL(join(oldTree, 'bench/dashboard/seed.ts')).href)) as {
      seedBranch: typeof seedBranch;
      runsOfDay: typeof runsOfDay;
    },
    store: (await import(pathToFileURL(join(oldTree, 'src/history/git/git-branch-store.ts')).href)) as {
      GitBranchStore: typeof GitBranchStore;
    },
    sink: (await import(pathToFileURL(join(oldTree, 'src/history/directory-store.ts')).href)) as { DirectorySink: typeof DirectorySink },
  };
}

/**
 * Hard-links a branch another process is seeding with this shape (`source`, a bare repository that
 * appears when its seeding ends) in as `target`, at once (before that process's gc packs it).
 */
async function linkSeeded(source: string, target: string): Promise<void> {
  while (!existsSync(join(source, 'refs'))) {
    process.stderr.write(`waiting for ${source}\r`);
    await new Promise((r) => setTimeout(r, 5_000));
  }
  await exec('cp', ['-al', source, target]);
  const days = Number((await git(target, 'rev-list', '--count', 'refs/heads/gh-pages')).trim());
  if (days !== shape.days) throw new Error(`${source} holds ${days} daily commits, not ${shape.days}`);
  if (/^size-pack: [1-9]/m.test(await git(target, 'count-objects', '-v')))
    console.log(`note: ${source} was packed already: its loose size and daily figures below are not comparable\n`);
}

/** First renders in headless Chromium of the exported sites under `dir` (site-2, and site-1 when `withBefore`). */
async function measurePages(dir: string, withBefore: boolean): Promise<void> {
  const siteAfter = join(dir, 'site-2');
  const newest = await runFiles(siteAfter, 'suite-1', 1);
  const older = await runFiles(siteAfter, 'suite-1', 200);
  const server = await startStaticServer(dir);
  const browser = await launchBrowser();
  try {
    console.log(
      `## Pages in headless Chromium (${loads} loads each, fresh page; ms since navigation start, median (min–max); load average ${loadAverage()})`,
    );
    console.log('| page | layout 1 | layout 2 | ratio |\n|---|---:|---:|---:|');
    const fmt = (t: number[]) => `${median(t).toFixed(0)} ms (${Math.min(...t).toFixed(0)}–${Math.max(...t).toFixed(0)})`;
    const times = async (url: string, flag: string) => (withBefore ? await renderTimes(browser, url, loads, flag) : undefined);
    for (const [where, base] of [
      ['file://', `${pathToFileURL(dir).href}/`],
      ['http (127.0.0.1)', server.url],
    ] as const) {
      const empty = await renderTimes(browser, `${base}empty.html`, loads, 'load');
      row(`empty page, ${where}`, fmt(empty), fmt(empty), '');
      for (const [label, hash] of [
        ['dashboard (default: 1 year)', ''],
        ['dashboard (range: all)', '#range=0'],
      ] as const) {
        // Layout 1's dashboard drew every chart before it said it rendered; layout 2's says when its
        // first screen is drawn (the charts on it, the tables), then draws the charts below it.
        const b = await times(`${base}site-1/index.html${hash}`, '__meshPerfRendered');
        const first = await renderTimes(browser, `${base}site-2/index.html${hash}`, loads, '__meshPerfRendered');
        const all = await renderTimes(browser, `${base}site-2/index.html${hash}`, loads, '__meshPerfDrawn');
        row(`**${label}: first render**, ${where}`, b ? fmt(b) : NOT, `**${fmt(first)}**`, b ? ratio(median(first), median(b)) : '');
        row(`${label}: every chart drawn, ${where}`, b ? fmt(b) : NOT, fmt(all), b ? ratio(median(all), median(b)) : '');
      }
      for (const [label, key] of [
        ['newest run (timelines kept)', newest],
        ['a run 200 days old (timelines dropped)', older],
      ] as const) {
        // Layout 1's stored report draws every chart before DOMContentLoaded; layout 2's run page
        // says when its first screen is drawn, then draws the charts below it.
        const b = await times(`${base}site-1/runs/${key}.html`, 'dcl');
        const first = await renderTimes(browser, `${base}site-2/run.html#run=${key}`, loads, '__meshPerfRendered');
        const all = await renderTimes(browser, `${base}site-2/run.html#run=${key}`, loads, '__meshPerfDrawn');
        row(
          `**run page, ${label}: first render**, ${where}`,
          b ? fmt(b) : NOT,
          `**${fmt(first)}**`,
          b ? ratio(median(first), median(b)) : '',
        );
        row(`run page, ${label}: every chart drawn, ${where}`, b ? fmt(b) : NOT, fmt(all), b ? ratio(median(all), median(b)) : '');
      }
    }
    console.log(`load average at the end: ${loadAverage()}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** The start of the last seeded day (what "now" is for the conversion's timeline retention). */
function lastDay(): Date {
  return new Date(runsOfDay(shape, shape.days - 1)[0]!.run.startedAt);
}

/** "suite/<year>/<name>" of the run `back` runs before the newest of a suite in an exported site. */
async function runFiles(site: string, suite: string, back: number): Promise<string> {
  const years = (await readdir(join(site, 'runs', suite))).filter((y) => /^\d{4}$/.test(y)).sort();
  const names: string[] = [];
  for (const year of years) {
    for (const f of (await readdir(join(site, 'runs', suite, year))).sort())
      if (f.endsWith('.js') && !f.endsWith('.tl.js')) names.push(`${suite}/${year}/${f.replace(/\.js$/, '')}`);
  }
  return names[Math.max(0, names.length - back)]!;
}

/** `git daemon` serving every repository under `root` (push allowed), on a free port of 127.0.0.1. */
async function startDaemon(root: string): Promise<{ url: string; stop(): void }> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(
    'git',
    ['daemon', '--reuseaddr', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${root}`, '--export-all', '--enable=receive-pack', root],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 100; i++) {
    try {
      await exec('git', ['ls-remote', `git://127.0.0.1:${port}/layout-2.git`]);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // A run that fails part-way leaves no daemon behind.
  process.once('exit', () => child.kill());
  return { url: `git://127.0.0.1:${port}/`, stop: () => void child.kill() };
}
