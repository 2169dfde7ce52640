// What every write to a store shares, publish and rebuild alike: the marker and the layout it
// names, where the pages go, a suite's index shards and change points, the pages and assets that
// describe every suite, and dropping writes that change nothing. Pure apart from the StoreTree.

import {
  dashboardFileFor,
  renderChangePointsFile,
  renderRunPage,
  renderSiteShell,
  runPageFileFor,
  type SiteScripts,
  siteAssets,
  suiteSummaryOf,
} from '../site/pages.ts';
import { type SuiteChangePoints, suiteChangePoints } from './change-points.ts';
import { StoreCorruptError, StoreNotAdoptedError } from './errors.ts';
import {
  changePointsPath,
  DASHBOARD_FILE,
  isRunFile,
  MARKER_FILE,
  monthOf,
  NOJEKYLL_FILE,
  RUN_PAGE_FILE,
  shardMonth,
  shardPath,
  suiteRoot,
  timelinesPathFor,
} from './layout.ts';
import { emptyMarker, MARKER_SCHEMA_VERSION, parseMarker, type StoreMarker, serializeMarker } from './marker.ts';
import type { Retention } from './retention.ts';
import { emptySettled, fileMonth, filesDigest, serializeSettled, settle, settledBoundary, settledPath } from './settled.ts';
import { NO_TIMELINES } from './stored-run.ts';
import { byMonth, serializeShard } from './suite-index.ts';
import type { SuiteState } from './suite-state.ts';
import { emptyChanges, gitBlobId, type StoreChanges, type StoreTree } from './tree.ts';

export interface PlanOptions {
  /** Shown in errors, without credentials. */
  storeLabel: string;
  /** Write into a non-empty branch/folder that has no marker. */
  adopt?: boolean;
  retention?: Retention;
  /** How long per-second timelines stay; undefined keeps them forever. */
  timelineRetention?: Retention;
  now: Date;
  /** Chart.js source, vendored as assets/chart.umd.min.js. */
  chartJs: string;
  /** The run page's and the dashboard's bundled scripts (site/scripts.ts). */
  scripts: SiteScripts;
}

/** The marker and the layout the store holds (1: legacy-layout.ts, to convert; 2: layout.ts). */
export async function readMarker(tree: StoreTree, storeLabel: string, adopt: boolean): Promise<{ marker: StoreMarker; layout: number }> {
  const text = await tree.read(MARKER_FILE);
  if (text === undefined) {
    const existing = (await tree.list('')).filter((p) => p !== NOJEKYLL_FILE);
    if (existing.length > 0 && !adopt) throw new StoreNotAdoptedError(storeLabel, existing);
    return { marker: emptyMarker(), layout: MARKER_SCHEMA_VERSION };
  }
  const parsed = parseMarker(text);
  if (!parsed.ok) throw new StoreCorruptError(storeLabel, MARKER_FILE, parsed.reason);
  return { marker: parsed.marker, layout: parsed.storedVersion };
}

/** Where the pages go (moved aside on an adopted branch that has its own). */
export async function pagesOf(tree: StoreTree, marker: StoreMarker): Promise<{ dashboard: string; runPage: string }> {
  const dashboard = await dashboardFileFor(tree, marker);
  if (dashboard !== DASHBOARD_FILE) marker.dashboard = dashboard;
  const runPage = await runPageFileFor(tree, marker);
  if (runPage !== RUN_PAGE_FILE) marker.runPage = runPage;
  return { dashboard, runPage };
}

/**
 * The suite's shards that changed (state.dirty; a month left without runs is deleted) and its
 * change points. Shards of other months stay as they are: a day's publish rewrites one.
 */
export function writeSuite(
  state: SuiteState,
  changes: StoreChanges,
  changePoints: SuiteChangePoints = suiteChangePoints(state.index.runs),
): void {
  const months = byMonth(state.index.runs);
  for (const [month, entries] of months) {
    if (state.dirty === 'all' || state.dirty.has(month) || !state.months.has(month))
      changes.writes.set(shardPath(state.suite, month), serializeShard(state.suite, month, entries, state.index.ciLevel));
  }
  for (const month of state.months) if (!months.has(month)) changes.deletes.add(shardPath(state.suite, month));
  changes.writes.set(changePointsPath(state.suite), renderChangePointsFile(state.index, changePoints, state.settled, state.confirmations));
  writeSettled(state, changes);
}

/**
 * The suite's settled-months file (settled.ts) as the branch will be after `changes`: its
 * boundary moved to the month before the newest (or the oldest still holding timelines), the runs
 * of months that became settled summed into it. Deleted when it cannot be made (the suite is gone,
 * or its boundary would move back): the next publish reads every shard and writes it again.
 */
export function writeSettled(state: SuiteState, changes: StoreChanges): void {
  const path = settledPath(state.suite);
  const root = `${suiteRoot(state.suite)}/`;
  // Run and timelines files, and shards, as they will be.
  const files = new Map([...state.files, ...state.timelines]);
  const shards = new Map(state.shardBlobs ?? []);
  for (const [p, text] of changes.writes) {
    if (!p.startsWith(root)) continue;
    const month = shardMonth(p, state.suite);
    if (month) shards.set(month, gitBlobId(text));
    else if (isRunFile(p, state.suite) || p.endsWith('.tl.js')) files.set(p, gitBlobId(text));
  }
  for (const p of changes.deletes) {
    const month = shardMonth(p, state.suite);
    if (month) shards.delete(month);
    files.delete(p);
  }
  const stub = gitBlobId(NO_TIMELINES);
  const timelineMonths = state.index.runs
    .filter((e) => {
      const blob = files.get(timelinesPathFor(e.file));
      return blob !== undefined && blob !== stub;
    })
    .map((e) => monthOf(e.startedAt));
  const months = new Set([...(state.settled?.summary.months ?? []), ...state.index.runs.map((e) => monthOf(e.startedAt))]);
  const before = settledBoundary([...months], timelineMonths);
  const base = state.settled ?? emptySettled(state.suite, before ?? '');
  if (before === undefined || before < base.before) {
    changes.writes.delete(path);
    changes.deletes.add(path);
    return;
  }
  const settled = settle(base, state.index.runs, before);
  settled.shards = Object.fromEntries([...shards].filter(([month]) => month < before));
  settled.files = settledFilesUnchanged(state, changes, before) ? state.settled!.files : filesDigest(files, before);
  changes.deletes.delete(path);
  changes.writes.set(path, serializeSettled(settled));
}

/**
 * Whether the settled months' files are as the settled-months file that was read says: the same
 * boundary, and nothing written or deleted in a month before it (recentState checked the digest
 * of those files as listed, so it still holds and need not be computed again).
 */
function settledFilesUnchanged(state: SuiteState, changes: StoreChanges, before: string): boolean {
  if (!state.settled || state.settled.before !== before) return false;
  const root = `${suiteRoot(state.suite)}/`;
  const settledMonth = (p: string) => {
    const month = p.startsWith(root) ? fileMonth(p) : undefined;
    return month !== undefined && month < before;
  };
  for (const p of changes.writes.keys()) if (settledMonth(p)) return false;
  for (const p of changes.deletes) if (settledMonth(p)) return false;
  return true;
}

/** Marker, dashboard, run page, assets, .nojekyll: rewritten so they describe every suite. */
export function siteShellChanges(
  marker: StoreMarker,
  states: readonly SuiteState[],
  options: PlanOptions,
  pages: { dashboard: string; runPage: string },
): StoreChanges {
  const changes = emptyChanges();
  const suites = new Map(marker.suites.map((s) => [s.name, s]));
  for (const state of states) {
    if (state.index.runs.length > 0 || (state.settled?.summary.runs ?? 0) > 0)
      suites.set(state.suite, suiteSummaryOf(state.index, state.settled?.summary));
    else suites.delete(state.suite);
  }
  const next: StoreMarker = { ...marker, schemaVersion: MARKER_SCHEMA_VERSION, suites: [...suites.values()] };
  changes.writes.set(MARKER_FILE, serializeMarker(next));
  changes.writes.set(pages.dashboard, renderSiteShell(next, pages.runPage));
  changes.writes.set(pages.runPage, renderRunPage(pages.dashboard));
  for (const [path, text] of siteAssets(options.chartJs, options.scripts)) changes.writes.set(path, text);
  changes.writes.set(NOJEKYLL_FILE, '');
  return changes;
}

/** Drops writes whose content is already stored, so an idempotent publish makes no commit. */
export async function dropUnchanged(changes: StoreChanges, tree: StoreTree): Promise<StoreChanges> {
  for (const [path, text] of changes.writes) {
    if ((await tree.blob(path)) === gitBlobId(text)) changes.writes.delete(path);
  }
  for (const path of changes.deletes) if ((await tree.blob(path)) === undefined) changes.deletes.delete(path);
  return changes;
}
