// Reads one suite's index shards and checks them against the run files actually stored: a body
// whose blob changed since it was indexed (or that is not indexed at all) is read and parsed, so a
// damaged file stops the publish by name; entries whose file is gone are dropped. Without shards
// the suite is re-indexed from its run files. Layout 2 only (a layout-1 store is converted first,
// rebuild-plan.ts). Pure apart from the StoreTree it reads.
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import { isRunFile, monthOf, shardMonth, suiteRoot, timelinesPathFor } from './layout.ts';
import { StoredFileError, unpackRun } from './stored-run.ts';
import { emptyIndex, indexEntryFor, parseShard, type IndexEntry, type SuiteIndex } from './suite-index.ts';
import type { StoreTree } from './tree.ts';

export interface SuiteState {
  suite: string;
  index: SuiteIndex;
  /** Every run body under runs/<suite>/ with its blob id. */
  files: Map<string, string>;
  /** Every timelines file with its blob id. */
  timelines: Map<string, string>;
  /** Months that have a shard now. */
  months: Set<string>;
  /** True when the checked index differs from the stored shards. */
  indexChanged: boolean;
  /** Months whose shard must be rewritten (entries added, dropped, re-read); 'all' when every shard is. */
  dirty: Set<string> | 'all';
  warnings: string[];
}

/** Reads the bodies at `paths` as runs (without timelines), each failure a StoreCorruptError naming its file. */
export async function readRuns(tree: StoreTree, paths: string[], storeLabel: string): Promise<Map<string, RunResult>> {
  const texts = await tree.readMany(paths);
  const out = new Map<string, RunResult>();
  for (const path of paths) {
    const text = texts.get(path);
    if (text === undefined) throw new StoreCorruptError(storeLabel, path, 'is listed in the index but could not be read');
    out.set(path, readStoredRun(text, path, storeLabel));
  }
  return out;
}

/** One stored run (body, and timelines when given), a damaged or invalid file named in a StoreCorruptError. */
export function readStoredRun(body: string, path: string, storeLabel: string, timelines?: { text: string; path: string }): RunResult {
  try {
    return unpackRun(body, path, timelines);
  } catch (error) {
    if (error instanceof StoredFileError) throw new StoreCorruptError(storeLabel, error.path, error.message);
    throw new StoreCorruptError(storeLabel, path, messageOf(error).replace(`${path}: `, ''));
  }
}

export async function loadSuiteState(tree: StoreTree, suite: string, storeLabel: string): Promise<SuiteState> {
  const listing = await tree.list(`${suiteRoot(suite)}/`);
  const files = new Map<string, string>();
  const timelines = new Map<string, string>();
  const shards = new Map<string, string>();
  for (const path of listing) {
    if (isRunFile(path, suite)) files.set(path, (await tree.blob(path))!);
    else if (path.endsWith('.tl.js')) timelines.set(path, (await tree.blob(path))!);
    else {
      const month = shardMonth(path, suite);
      if (month) shards.set(path, month);
    }
  }
  const warnings: string[] = [];
  const index = emptyIndex(suite);
  let indexChanged = false;
  const dirty = new Set<string>();
  const shardTexts = await tree.readMany([...shards.keys()]);
  for (const [path, month] of shards) {
    const text = shardTexts.get(path);
    if (text === undefined) throw new StoreCorruptError(storeLabel, path, 'could not be read');
    const parsed = parseShard(text, suite, month);
    if (!parsed.ok) throw new StoreCorruptError(storeLabel, path, parsed.reason);
    index.runs.push(...parsed.entries);
    index.ciLevel = parsed.ciLevel;
  }
  if (shards.size === 0 && files.size > 0) {
    warnings.push(`${suiteRoot(suite)}/index/ holds no index shards; rebuilding it from the run files`);
    indexChanged = true;
  }

  const byFile = new Map(index.runs.map((e) => [e.file, e]));
  const kept: IndexEntry[] = [];
  for (const entry of index.runs) {
    if (files.get(entry.file) === entry.blob) kept.push(entry);
    else {
      dirty.add(monthOf(entry.startedAt));
      if (!files.has(entry.file)) {
        warnings.push(`${entry.file} is listed in the index of suite ${suite} but missing; dropping it from the index`);
        indexChanged = true;
      }
    }
  }
  const stale = [...files].filter(([path, blob]) => byFile.get(path)?.blob !== blob).map(([path]) => path);
  if (stale.length > 0) {
    for (const [path, result] of await readRuns(tree, stale, storeLabel)) {
      if (result.run.suite !== suite) warnings.push(`${path} says suite ${JSON.stringify(result.run.suite)} but is filed under "${suite}"`);
      kept.push(indexEntryFor(buildRunView(result), path, files.get(path)!));
      dirty.add(monthOf(result.run.startedAt));
      indexChanged = true;
    }
  }
  return {
    suite,
    index: { ...index, runs: dedupeById(kept, warnings) },
    files,
    timelines,
    months: new Set(shards.values()),
    indexChanged,
    dirty,
    warnings,
  };
}

/** Marks the shard of `startedAt`'s month for rewriting. */
export function markDirty(state: SuiteState, startedAt: string): void {
  if (state.dirty !== 'all') state.dirty.add(monthOf(startedAt));
  state.indexChanged = true;
}

/** Bodies without a timelines file beside them (the run page loads one for every run). */
export function bodiesWithoutTimelines(state: SuiteState): string[] {
  return [...state.files.keys()].filter((f) => !state.timelines.has(timelinesPathFor(f)));
}

/** The same run id twice (e.g. a file renamed by hand): keep the newest file name. */
function dedupeById(entries: IndexEntry[], warnings: string[]): IndexEntry[] {
  const byId = new Map<string, IndexEntry>();
  for (const e of entries) {
    const seen = byId.get(e.id);
    if (seen) warnings.push(`run ${e.id} is stored twice (${seen.file}, ${e.file}); indexing ${seen.file > e.file ? seen.file : e.file}`);
    if (!seen || e.file > seen.file) byId.set(e.id, e);
  }
  return [...byId.values()];
}
