// Reads one suite's index shards and checks them against the run files actually stored: a body
// whose blob changed since it was indexed (or that is not indexed at all) is read and parsed, so a
// damaged file stops the publish by name; entries whose file is gone are dropped. Without shards
// the suite is re-indexed from its run files. Layout 2 only (a layout-1 store is converted first,
// rebuild-plan.ts). A publish reads only the recent shards when the suite's settled-months file
// (settled.ts) says nothing under the suite changed since it was written and the publish touches
// no settled month; otherwise every shard, as before. Pure apart from the StoreTree it reads.

import { buildRunView } from '../report/view.ts';
import type { RunResult } from '../results/types.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import type { ConfirmationRecord } from '../confirm/record.ts';
import { parseConfirmations } from './confirmations.ts';
import { confirmationsPath, isRunFile, monthOf, shardMonth, suiteRoot, timelinesPathFor } from './layout.ts';
import type { Retention } from './retention.ts';
import { fileMonth, filesDigest, parseSettled, type Settled, settledPath } from './settled.ts';
import { StoredFileError, unpackRun } from './stored-run.ts';
import { emptyIndex, type IndexEntry, indexEntryFor, parseShard, type SuiteIndex } from './suite-index.ts';
import type { StoreTree } from './tree.ts';

export interface SuiteState {
  suite: string;
  index: SuiteIndex;
  /** Every run body under runs/<suite>/ with its blob id. */
  files: Map<string, string>;
  /** Every timelines file with its blob id. */
  timelines: Map<string, string>;
  /** Months that have a shard now (of those read: the recent ones when `settled` is set). */
  months: Set<string>;
  /** Blob id of each month's shard as stored. */
  shardBlobs?: Map<string, string>;
  /**
   * The settled months' summary when only the recent shards were read: `index.runs` then holds
   * the runs of months from `settled.before` on, and the rest of the suite is what this says.
   */
  settled?: Settled;
  /** The verdicts of the suite's confirmed change points (confirmations.ts), carried into its change-points file. */
  confirmations: ConfirmationRecord[];
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

/** What a publish will do to a suite, so that loadSuiteState can tell whether the recent shards are enough. */
export interface RecentRead {
  incoming: { id: string; startedAt: string }[];
  retention?: Retention;
  now: Date;
}

export async function loadSuiteState(tree: StoreTree, suite: string, storeLabel: string, recent?: RecentRead): Promise<SuiteState> {
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
  const shardBlobs = new Map<string, string>();
  for (const [path, month] of shards) shardBlobs.set(month, (await tree.blob(path))!);
  const confirmations = await readConfirmationsFile(tree, suite, storeLabel);
  if (recent) {
    const fast = await recentState(tree, suite, storeLabel, recent, { files, timelines, shards, shardBlobs });
    if (fast) return { ...fast, confirmations };
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
    shardBlobs,
    confirmations,
    indexChanged,
    dirty,
    warnings,
  };
}

/** The suite's confirmations file, checked (a damaged one stops the write, naming it); none when there is no file. */
export async function readConfirmationsFile(tree: StoreTree, suite: string, storeLabel: string): Promise<ConfirmationRecord[]> {
  const path = confirmationsPath(suite);
  const text = await tree.read(path);
  if (text === undefined) return [];
  const parsed = parseConfirmations(text, suite);
  if (!parsed.ok) throw new StoreCorruptError(storeLabel, path, parsed.reason);
  return parsed.records;
}

/**
 * The suite from its settled-months file and the shards of the months after it, or undefined when
 * every shard must be read: no such file (or one of another version), anything under the suite
 * not as the file says it was written, a run going into (or an id already in) a settled month, or
 * retention about to remove settled runs. A damaged file stops the publish, naming it.
 */
async function recentState(
  tree: StoreTree,
  suite: string,
  storeLabel: string,
  recent: RecentRead,
  listing: { files: Map<string, string>; timelines: Map<string, string>; shards: Map<string, string>; shardBlobs: Map<string, string> },
): Promise<SuiteState | undefined> {
  const path = settledPath(suite);
  const text = await tree.read(path);
  if (text === undefined) return undefined;
  const parsed = parseSettled(text, suite);
  if (parsed.ok === false) throw new StoreCorruptError(storeLabel, path, parsed.reason);
  if (parsed.ok !== true) return undefined;
  const settled = parsed.settled;
  const { shardBlobs } = listing;
  // The settled months as the file says they were written: their shards and their run files.
  const settledShards = [...shardBlobs].filter(([month]) => month < settled.before);
  if (settledShards.length !== Object.keys(settled.shards).length) return undefined;
  for (const [month, blob] of settledShards) if (settled.shards[month] !== blob) return undefined;
  if (filesDigest(new Map([...listing.files, ...listing.timelines]), settled.before) !== settled.files) return undefined;
  const settledIds = new Set(settled.ids);
  if (recent.incoming.some((r) => monthOf(r.startedAt) < settled.before || settledIds.has(r.id))) return undefined;

  const recentShards = [...listing.shards].filter(([, month]) => month >= settled.before);
  const texts = await tree.readMany(recentShards.map(([p]) => p));
  const index = emptyIndex(suite);
  for (const [shard, month] of recentShards) {
    const shardText = texts.get(shard);
    if (shardText === undefined) throw new StoreCorruptError(storeLabel, shard, 'could not be read');
    const read = parseShard(shardText, suite, month);
    if (!read.ok) throw new StoreCorruptError(storeLabel, shard, read.reason);
    index.runs.push(...read.entries);
    index.ciLevel = read.ciLevel;
  }
  // The recent months' run files against their shards (what the full read checks, for them).
  const indexed = new Map(index.runs.map((e) => [e.file, e.blob]));
  for (const [file, blob] of indexed) if (listing.files.get(file) !== blob) return undefined;
  for (const file of listing.files.keys()) {
    const month = fileMonth(file);
    if ((month === undefined || month >= settled.before) && !indexed.has(file)) return undefined;
  }
  if (recent.retention && settled.summary.runs > 0) {
    const r = recent.retention;
    if (r.kind === 'age' && Date.parse(settled.summary.first!) < recent.now.getTime() - r.days * 86_400_000) return undefined;
    if (r.kind === 'count' && settled.summary.runs + index.runs.length + recent.incoming.length > r.runs) return undefined;
  }
  return {
    suite,
    index,
    files: listing.files,
    timelines: listing.timelines,
    months: new Set(recentShards.map(([, month]) => month)),
    shardBlobs,
    settled,
    confirmations: [],
    indexChanged: false,
    dirty: new Set(),
    warnings: [],
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
