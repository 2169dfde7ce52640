// Where things live in a results store (a gh-pages branch or a directory). One file per run,
// sharded by suite and year, so a publish adds files instead of rewriting one growing blob;
// a small per-suite index carries what the dashboard and the gate need without reading runs.
//
//   mesh-perf.json                        store marker: kind, schemaVersion, suites
//   index.html, assets/chart.umd.min.js   the dashboard (works from file:// and Pages)
//   data/<suite>.js                       the suite index wrapped for <script> loading (file://)
//   runs/<suite>/index.json               the per-suite index
//   runs/<suite>/<year>/<stamp>-<id>.json one run (results.json as published; the id without its own stamp)
//   runs/<suite>/<year>/<stamp>-<id>.html its report
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';

export const MARKER_FILE = 'mesh-perf.json';
export const DASHBOARD_FILE = 'index.html';
/** Where the dashboard goes when an adopted branch already has its own index.html. */
export const ADOPTED_DASHBOARD_FILE = 'mesh-perf-dashboard.html';
export const GENERATOR_META = '<meta name="generator" content="mesh-perf">';
export const CHARTJS_ASSET = 'assets/chart.umd.min.js';
export const REPORT_CSS_ASSET = 'assets/report.css';
export const REPORT_JS_ASSET = 'assets/report.js';
export const NOJEKYLL_FILE = '.nojekyll';
export const RUNS_DIR = 'runs';
export const DATA_DIR = 'data';

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

export function suiteIndexPath(suite: string): string {
  return `${suiteRoot(suite)}/index.json`;
}

export function suiteDataPath(suite: string): string {
  return `${DATA_DIR}/${suiteDir(suite)}.js`;
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

export function runFilePath(result: RunResult): string {
  return `${runBasePath(result)}.json`;
}

export function reportPathFor(runFile: string): string {
  return runFile.replace(/\.json$/, '.html');
}

/** Relative URL from a file's folder back to the store root ("runs/a/2025/x.html" → "../../../"). */
export function relativeRoot(path: string): string {
  const depth = path.split('/').length - 1;
  return depth === 0 ? './' : '../'.repeat(depth);
}

/** True for run files (not indexes) under runs/<suite>/. */
export function isRunFile(path: string, suite: string): boolean {
  const root = `${suiteRoot(suite)}/`;
  return path.startsWith(root) && /^\d{4}\/[^/]+\.json$/.test(path.slice(root.length));
}
