// Reads past runs for a query from any StoreTree: the suite index picks the runs (branch, commit,
// runner class), and only those run files are read and migrated to the current schema.
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import { MARKER_FILE, suiteDir } from './layout.ts';
import { parseMarker } from './marker.ts';
import { loadSuiteState } from './suite-state.ts';
import type { IndexEntry } from './suite-index.ts';
import type { StoreTree } from './tree.ts';
import type { HistoryQuery } from './types.ts';
import { suiteChangePoints, type SuiteChangePoints } from './change-points.ts';

export function matchesQuery(entry: IndexEntry, query: HistoryQuery): boolean {
  if (query.branch !== undefined && entry.branch !== query.branch) return false;
  if (query.commit !== undefined && entry.sha !== query.commit) return false;
  if (query.runnerClass !== undefined && entry.runnerClass !== query.runnerClass) return false;
  if (query.excludeRunId !== undefined && entry.id === query.excludeRunId) return false;
  return true;
}

/** Matching index entries, newest first. */
export async function queryEntries(tree: StoreTree, query: HistoryQuery, storeLabel: string): Promise<IndexEntry[]> {
  const markerText = await tree.read(MARKER_FILE);
  if (markerText === undefined) return [];
  const marker = parseMarker(markerText);
  if (!marker.ok) throw new StoreCorruptError(storeLabel, MARKER_FILE, marker.reason);
  const state = await loadSuiteState(tree, suiteDir(query.suite), storeLabel);
  const entries = state.index.runs
    .filter((e) => matchesQuery(e, query))
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
  return query.limit !== undefined ? entries.slice(0, Math.max(0, query.limit)) : entries;
}

export async function listFromTree(tree: StoreTree, query: HistoryQuery, storeLabel: string): Promise<RunResult[]> {
  const entries = await queryEntries(tree, query, storeLabel);
  const texts = await tree.readMany(entries.map((e) => e.file));
  return entries.map((entry) => {
    const text = texts.get(entry.file);
    if (text === undefined) throw new StoreCorruptError(storeLabel, entry.file, 'is listed in the index but could not be read');
    try {
      return parseResultsJson(text, entry.file);
    } catch (error) {
      throw new StoreCorruptError(storeLabel, entry.file, messageOf(error).replace(`${entry.file}: `, ''));
    }
  });
}

/** The change points of one branch of a suite, from its checked index; none for an empty store. */
export async function changePointsFromTree(tree: StoreTree, suite: string, branch: string, storeLabel: string): Promise<SuiteChangePoints> {
  const markerText = await tree.read(MARKER_FILE);
  if (markerText === undefined) return { series: [], changePoints: [] };
  const marker = parseMarker(markerText);
  if (!marker.ok) throw new StoreCorruptError(storeLabel, MARKER_FILE, marker.reason);
  const state = await loadSuiteState(tree, suiteDir(suite), storeLabel);
  return suiteChangePoints(state.index.runs, { branch });
}
