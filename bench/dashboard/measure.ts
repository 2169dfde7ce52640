// What bench/dashboard measures of a seeded history branch: the checked-out site by kind of file,
// the git history (loose and after gc), what each day's publish adds to it (the thin pack a push of
// that day sends), CPU time of a piece of work (this process and the git processes it waited for),
// and first renders in headless Chromium.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { BrowserSession } from '../../test/support/browser.ts';

const exec = promisify(execFile);

export async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec('git', args, { cwd, maxBuffer: 1024 * 1024 * 1024 })).stdout;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Which part of a store a file is, in either layout. */
export function kindOf(path: string): string {
  if (/^runs\/[^/]+\/\d{4}\/.*\.tl\.js$/.test(path)) return 'run timelines (.tl.js)';
  if (/^runs\/[^/]+\/\d{4}\/.*\.js$/.test(path)) return 'run bodies (.js)';
  if (/^runs\/[^/]+\/\d{4}\/.*\.json$/.test(path)) return 'run files (.json)';
  if (/^runs\/[^/]+\/\d{4}\/.*\.html$/.test(path)) return 'run reports (.html)';
  if (/^runs\/[^/]+\/index\/.*\.js$/.test(path) || /^runs\/[^/]+\/index\.json$/.test(path)) return 'suite indexes';
  if (path.startsWith('data/')) return 'dashboard data (.js)';
  if (/^runs\/[^/]+\/change-points\.js$/.test(path)) return 'change points';
  return 'pages, assets, marker';
}

export interface BranchSize {
  kinds: Map<string, { files: number; bytes: number }>;
  files: number;
  total: number;
  largest: { path: string; bytes: number };
}

export async function branchSize(repo: string, ref = 'refs/heads/gh-pages'): Promise<BranchSize> {
  const listing = await git(repo, 'ls-tree', '-r', '-l', ref);
  const kinds = new Map<string, { files: number; bytes: number }>();
  let largest = { path: '', bytes: 0 };
  let total = 0;
  let files = 0;
  for (const line of listing.split('\n')) {
    if (!line) continue;
    const [meta, path] = line.split('\t') as [string, string];
    const bytes = Number(meta.trim().split(/\s+/)[3]);
    const kind = kindOf(path);
    const k = kinds.get(kind) ?? { files: 0, bytes: 0 };
    k.files++;
    k.bytes += bytes;
    kinds.set(kind, k);
    total += bytes;
    files++;
    if (bytes > largest.bytes) largest = { path, bytes };
  }
  return { kinds, files, total, largest };
}

/** Bytes git keeps: packs plus loose objects (count-objects -v). */
export async function repoBytes(repo: string): Promise<number> {
  const out = await git(repo, 'count-objects', '-v');
  const get = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  return (get('size-pack') + get('size')) * 1024;
}

/**
 * The thin pack a push of `commit` onto its parent sends: what that commit adds to the history.
 * Deltas are found afresh only for loose objects (measure before gc).
 */
export async function commitPackBytes(repo: string, commit: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      // Without bitmaps: a gc'd bare repository has a bitmap index, and pack-objects walking it
      // leaves out the thin pack's delta bases (the day before's versions), as a pushing client
      // (which has no bitmaps) would not: the day's files then counted whole, 3 to 4 times the size.
      ['-c', 'pack.useBitmaps=false', 'pack-objects', '--revs', '--thin', '--stdout', '-q'],
      { cwd: repo, encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout.length)),
    );
    child.stdin!.end(`${commit}\n^${commit}^\n`);
  });
}

/** History added by each of the last `days` commits of the branch, oldest first. */
export async function dailyPackBytes(repo: string, days: number, ref = 'refs/heads/gh-pages'): Promise<number[]> {
  const commits = (await git(repo, 'rev-list', '--min-parents=1', `--max-count=${days}`, ref)).trim().split('\n').reverse();
  const out: number[] = [];
  for (const c of commits) out.push(await commitPackBytes(repo, c));
  return out;
}

/** CPU seconds of this process and of the child processes it waited for (git), Linux /proc. */
function cpuNow(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: field 14 (cutime) and 15 (cstime) of proc(5), in clock ticks.
  const children = (Number(fields[13]) + Number(fields[14])) / 100;
  return (own.user + own.system) / 1e6 + children;
}

/** Wall and CPU seconds of `work`. */
export async function measured<T>(work: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const wall0 = performance.now();
  const cpu0 = cpuNow();
  const value = await work();
  return { value, wall: (performance.now() - wall0) / 1000, cpu: cpuNow() - cpu0 };
}

/**
 * Milliseconds from navigation start until the page says it rendered: `flag` is a window property
 * the page sets to performance.now(); 'load' the load event (empty page); 'dcl' the end of
 * DOMContentLoaded (a page whose scripts draw everything before it: layout 1's run reports).
 */
export async function renderTimes(browser: BrowserSession, url: string, loads: number, flag: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < loads; i++) {
    const { page, errors } = await browser.newPage();
    await page.goto(url, { waitUntil: 'load' });
    const ms =
      flag === 'load' || flag === 'dcl'
        ? await page.evaluate((which) => {
            const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
            return (which === 'load' ? nav.loadEventEnd : nav.domContentLoadedEventEnd) || performance.now();
          }, flag)
        : await page
            .waitForFunction(
              (name) => {
                const v = (window as unknown as Record<string, unknown>)[name];
                return typeof v === 'number' ? v : undefined;
              },
              flag,
              { timeout: 120_000, polling: 10 },
            )
            .then((h) => h.jsonValue() as Promise<number>);
    if (errors.length) throw new Error(`${url}: ${errors.join('; ')}`);
    times.push(ms);
    await page.close();
  }
  return times;
}
