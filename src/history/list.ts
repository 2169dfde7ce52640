// Reads past runs for a query from any StoreTree: the suite index picks the runs (branch, commit,
// runner class), and only those run bodies are read and migrated to the current schema (without
// their per-second timelines: comparisons read repetitions' figures, never timelines).
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { messageOf } from '../util/errors.ts';
import { type SuiteChangePoints, suiteChangePoints } from './change-points.ts';
import { attachChangedFields } from './changed-fields.ts';
import { StoreCorruptError } from './errors.ts';
import { MARKER_FILE, suiteDir } from './layout.ts';
import { legacyIndexPath, parseLegacyIndex } from './legacy-layout.ts';
import { MARKER_SCHEMA_VERSION, parseMarker } from './marker.ts';
import type { IndexEntry } from './suite-index.ts';
import { loadSuiteState, readConfirmationsFile, readRuns } from './suite-state.ts';
import type { ConfirmationRecord } from '../confirm/record.ts';
import type { StoreTree } from './tree.ts';
import type { HistoryQuery } from './types.ts';

export function matchesQuery(entry: IndexEntry, query: HistoryQuery): boolean {
  if (query.branch !== undefined && entry.branch !== query.branch) return false;
  if (query.commit !== undefined && entry.sha !== query.commit) return false;
  if (query.runnerClass !== undefined && entry.runnerClass !== query.runnerClass) return false;
  if (query.excludeRunId !== undefined && entry.id === query.excludeRunId) return false;
  if (query.ids !== undefined && !query.ids.includes(entry.id)) return false;
  return true;
}

/**
 * Every index entry of a suite, and whether the store is still in layout 1 (read as it is: a
 * lookup does not convert the store, the next publish or rebuild does). Undefined without a store.
 */
async function suiteEntries(
  tree: StoreTree,
  suite: string,
  storeLabel: string,
): Promise<{ entries: IndexEntry[]; legacy: boolean } | undefined> {
  const markerText = await tree.read(MARKER_FILE);
  if (markerText === undefined) return undefined;
  const marker = parseMarker(markerText);
  if (!marker.ok) throw new StoreCorruptError(storeLabel, MARKER_FILE, marker.reason);
  if (marker.storedVersion < MARKER_SCHEMA_VERSION) {
    const path = legacyIndexPath(suiteDir(suite));
    const text = await tree.read(path);
    if (text === undefined) return { entries: [], legacy: true };
    const parsed = parseLegacyIndex(text, suite);
    if (!parsed.ok) throw new StoreCorruptError(storeLabel, path, parsed.reason);
    // Layout 1's entries carry the same fields (and name .json run files).
    return { entries: parsed.runs as unknown as IndexEntry[], legacy: true };
  }
  return { entries: (await loadSuiteState(tree, suiteDir(suite), storeLabel)).index.runs, legacy: false };
}

/** Matching index entries, newest first, and whether the store is in layout 1. */
async function queryIndex(tree: StoreTree, query: HistoryQuery, storeLabel: string): Promise<{ entries: IndexEntry[]; legacy: boolean }> {
  const suite = await suiteEntries(tree, query.suite, storeLabel);
  if (!suite) return { entries: [], legacy: false };
  const entries = suite.entries
    .filter((e) => matchesQuery(e, query))
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
  return { entries: query.limit !== undefined ? entries.slice(0, Math.max(0, query.limit)) : entries, legacy: suite.legacy };
}

export async function listFromTree(tree: StoreTree, query: HistoryQuery, storeLabel: string): Promise<RunResult[]> {
  const { entries, legacy } = await queryIndex(tree, query, storeLabel);
  const paths = entries.map((e) => e.file);
  const runs = legacy ? await readLegacyRuns(tree, paths, storeLabel) : await readRuns(tree, paths, storeLabel);
  return entries.map((e) => runs.get(e.file)!);
}

async function readLegacyRuns(tree: StoreTree, paths: string[], storeLabel: string): Promise<Map<string, RunResult>> {
  const texts = await tree.readMany(paths);
  const out = new Map<string, RunResult>();
  for (const path of paths) {
    const text = texts.get(path);
    if (text === undefined) throw new StoreCorruptError(storeLabel, path, 'is listed in the index but could not be read');
    try {
      out.set(path, parseResultsJson(text, path));
    } catch (error) {
      throw new StoreCorruptError(storeLabel, path, messageOf(error).replace(`${path}: `, ''));
    }
  }
  return out;
}

/** The change points of one branch of a suite, from its checked index; none for an empty store. */
export async function changePointsFromTree(tree: StoreTree, suite: string, branch: string, storeLabel: string): Promise<SuiteChangePoints> {
  const found = await suiteEntries(tree, suite, storeLabel);
  if (!found) return { series: [], changePoints: [] };
  const changes = suiteChangePoints(found.entries, { branch });
  // What else changed at each: as the change-points file lists it (read from the runs where it does not).
  if (!found.legacy)
    await attachChangedFields(
      tree,
      suiteDir(suite),
      changes,
      found.entries,
      new Map(found.entries.map((e) => [e.file, e.blob])),
      storeLabel,
    );
  return changes;
}

/** A suite's confirmations (none in a store without the file, or in layout 1). */
export async function confirmationsFromTree(tree: StoreTree, suite: string, storeLabel: string): Promise<ConfirmationRecord[]> {
  return readConfirmationsFile(tree, suiteDir(suite), storeLabel);
}
