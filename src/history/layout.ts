// Where things live in a results store (a gh-pages branch or a directory), layout 2. A publish adds
// a run's two files and rewrites only this month's index shard of its suite: nothing that grows
// with the history is rewritten every day, so each day's commit adds tens of KiB to git history.
//
//   mesh-perf.json                           store marker: kind, schemaVersion (= layout), suites and their months
//   index.html                               the dashboard (reads the index shards in the browser)
//   run.html                                 every run's report: run.html#run=<suite>/<year>/<stamp>-<id>
//   assets/                                  Chart.js, the report's stylesheet and chart script, the run page's script
//   runs/<suite>/index/<yyyy-mm>.<suite>.js  the suite's index, one shard per month (UTC) of run starts
//   runs/<suite>/change-points.<suite>.js    the change points of the suite's series (found at publish)
//   runs/<suite>/settled.<suite>.js          what a publish needs of the months before the recent ones (settled.ts)
//   runs/<suite>/<year>/<stamp>-<id>.js      one run's body (stored-run.ts: gzip, base64, in a script)
//   runs/<suite>/<year>/<stamp>-<id>.tl.js   its per-second timelines, or a stub once history.keepTimelines drops them
//   runs/<suite>/<year>/<stamp>-<id>.html    only in stores converted from layout 1: a redirect to the run's page
//
// Every data file is a script that hands its content to window.meshPerfStore, so the pages read
// them the same way from a Pages site and from a checkout opened with file:// (where fetch() of
// local files is refused). A suite's rewritten files end in the suite's name: git pairs a file
// with its earlier version for deltas by a hash of a path's last 16 characters, and with
// "index/2025-01.js" in every suite a day's shard of one suite was stored whole (13 KiB instead
// of a 2 KiB delta).
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';

export const MARKER_FILE = 'mesh-perf.json';
export const DASHBOARD_FILE = 'index.html';
/** Where the dashboard goes when an adopted branch already has its own index.html. */
export const ADOPTED_DASHBOARD_FILE = 'mesh-perf-dashboard.html';
export const RUN_PAGE_FILE = 'run.html';
/** Where the run page goes when an adopted branch already has its own run.html. */
export const ADOPTED_RUN_PAGE_FILE = 'mesh-perf-run.html';
export const GENERATOR_META = '<meta name="generator" content="mesh-perf">';
export const CHARTJS_ASSET = 'assets/chart.umd.min.js';
export const REPORT_CSS_ASSET = 'assets/report.css';
export const REPORT_JS_ASSET = 'assets/report.js';
/** The run page's script: reads a run's files and renders its report with report.html's renderer. */
export const RUN_PAGE_JS_ASSET = 'assets/run-page.js';
/** The dashboard's reader of index shards and change points. */
export const STORE_DATA_JS_ASSET = 'assets/store-data.js';
export const NOJEKYLL_FILE = '.nojekyll';
export const RUNS_DIR = 'runs';

/** Suite names become folder names: keep them to a portable, URL-safe alphabet. */
export function suiteDir(suite: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(suite) || suite.includes('..')) {
    throw new UsageError(
      `suite name ${JSON.stringify(suite)} cannot be used as a folder in the history store; expected letters, digits, '.', '_' and '-' (≤ 100 chars), such as "nightly"`,
    );
  }
  return suite;
}

export function suiteRoot(suite: string): string {
  return `${RUNS_DIR}/${suiteDir(suite)}`;
}

/** The month (UTC) a run start falls in, "2025-01": the index shard that lists it. */
export function monthOf(startedAt: string): string {
  return new Date(Date.parse(startedAt)).toISOString().slice(0, 7);
}

export function shardPath(suite: string, month: string): string {
  return `${suiteRoot(suite)}/index/${month}.${suite}.js`;
}

/** The month of a shard path under runs/<suite>/index/, or undefined for any other path. */
export function shardMonth(path: string, suite: string): string | undefined {
  const prefix = `${suiteRoot(suite)}/index/`;
  if (!path.startsWith(prefix) || !path.endsWith(`.${suite}.js`)) return undefined;
  const month = path.slice(prefix.length, -`.${suite}.js`.length);
  return /^\d{4}-\d{2}$/.test(month) ? month : undefined;
}

export function changePointsPath(suite: string): string {
  return `${suiteRoot(suite)}/change-points.${suite}.js`;
}

/** The verdicts of the suite's confirmed change points (history/confirmations.ts). */
export function confirmationsPath(suite: string): string {
  return `${suiteRoot(suite)}/confirmations.${suite}.js`;
}

/** "2025-01-15T03:00:00.000Z" → "20250115T030000Z": sorts by time, no ':' (Windows checkouts). */
export function compactStamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`run.startedAt ${JSON.stringify(iso)} is not an ISO date; cannot file the run in history`);
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

export function safeRunId(id: string): string {
  const cleaned = id
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return cleaned || 'run';
}

/**
 * "<stamp>-<id>", one timestamp: run ids made by mesh-perf already start with one (newRunId), and
 * the start time goes first so names sort by time, so that prefix is dropped from the id part.
 * (A republished run whose file had the old doubled name is moved: the index finds it by id.)
 */
export function runBasePath(result: RunResult): string {
  const year = new Date(result.run.startedAt).getUTCFullYear();
  const id = safeRunId(result.run.id);
  const rest = id.replace(/^\d{8}T\d{6}Z?-(?=.)/, '');
  return `${suiteRoot(result.run.suite)}/${year}/${compactStamp(result.run.startedAt)}-${rest}`;
}

/** The run's body file. */
export function runFilePath(result: RunResult): string {
  return `${runBasePath(result)}.js`;
}

/** The timelines file beside a body file. */
export function timelinesPathFor(runFile: string): string {
  return runFile.replace(/\.js$/, '.tl.js');
}

/** Where layout 1 kept the run's report: a redirect to the run page once converted. */
export function legacyReportPathFor(runFile: string): string {
  return runFile.replace(/\.js$/, '.html');
}

/** "runs/a/2025/x.js" → "a/2025/x": what the run page's URL names. */
export function runKeyOf(runFile: string): string {
  return runFile.slice(`${RUNS_DIR}/`.length).replace(/\.js$/, '');
}

/** The run page's URL for a run, relative to the store root. */
export function runPageHref(runFile: string, runPage: string = RUN_PAGE_FILE): string {
  return `${runPage}#run=${runKeyOf(runFile)
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/')}`;
}

/** Relative URL from a file's folder back to the store root ("runs/a/2025/x.html" → "../../../"). */
export function relativeRoot(path: string): string {
  const depth = path.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** True for run bodies (not timelines, shards or redirects) under runs/<suite>/. */
export function isRunFile(path: string, suite: string): boolean {
  const root = `${suiteRoot(suite)}/`;
  return path.startsWith(root) && /^\d{4}\/[^/]+\.js$/.test(path.slice(root.length)) && !path.endsWith('.tl.js');
}
