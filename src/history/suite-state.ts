// Reads one suite's index and checks it against the run files actually stored: a run file whose
// blob changed since it was indexed (or that is not indexed at all) is read and parsed, so a
// damaged file stops the publish by name; entries whose file is gone are dropped. Without an
// index the suite is rebuilt from its run files. Pure apart from the StoreTree it reads.
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import { isRunFile, reportPathFor, suiteIndexPath, suiteRoot } from './layout.ts';
import { emptyIndex, indexEntryFor, INDEX_SCHEMA_VERSION, parseIndex, type IndexEntry, type SuiteIndex } from './suite-index.ts';
import type { StoreTree } from './tree.ts';

export interface SuiteState {
  suite: string;
  index: SuiteIndex;
  /** Every file under runs/<suite>/ with its blob id. */
  files: Map<string, string>;
  /** Runs that had to be read while checking (changed or unindexed files). */
  reread: Map<string, RunResult>;
  /** True when the stored index differs from the checked one and must be rewritten. */
  indexChanged: boolean;
  warnings: string[];
}

export async function loadSuiteState(tree: StoreTree, suite: string, storeLabel: string): Promise<SuiteState> {
  const indexPath = suiteIndexPath(suite);
  const listing = await tree.list(`${suiteRoot(suite)}/`);
  const files = new Map<string, string>();
  for (const path of listing) if (isRunFile(path, suite)) files.set(path, (await tree.blob(path))!);
  const warnings: string[] = [];
  let index = emptyIndex(suite);
  let indexChanged = false;
  const indexText = listing.includes(indexPath) ? await tree.read(indexPath) : undefined;
  if (indexText !== undefined) {
    const parsed = parseIndex(indexText, suite);
    if (!parsed.ok) throw new StoreCorruptError(storeLabel, indexPath, parsed.reason);
    index = parsed.index;
    // An older index lacks figures this version indexes: every run is read once and re-indexed.
    if (parsed.storedVersion < INDEX_SCHEMA_VERSION) {
      index = { ...index, runs: index.runs.map((e) => ({ ...e, blob: '' })) };
      indexChanged = true;
    }
  } else if (files.size > 0) {
    warnings.push(`${indexPath} is missing; rebuilding it from the run files`);
    indexChanged = true;
  }

  const byFile = new Map(index.runs.map((e) => [e.file, e]));
  const kept: IndexEntry[] = [];
  for (const entry of index.runs) {
    if (files.get(entry.file) === entry.blob) kept.push(entry);
    else if (!files.has(entry.file)) {
      warnings.push(`${entry.file} is listed in ${indexPath} but missing; dropping it from the index`);
      indexChanged = true;
    }
  }
  const stale = [...files].filter(([path, blob]) => byFile.get(path)?.blob !== blob).map(([path]) => path);
  const reread = new Map<string, RunResult>();
  if (stale.length > 0) {
    const texts = await tree.readMany(stale);
    for (const path of stale) {
      const text = texts.get(path);
      if (text === undefined) throw new StoreCorruptError(storeLabel, path, 'could not be read');
      let result: RunResult;
      try {
        result = parseResultsJson(text, path);
      } catch (error) {
        throw new StoreCorruptError(storeLabel, path, messageOf(error).replace(`${path}: `, ''));
      }
      if (result.run.suite !== suite) warnings.push(`${path} says suite ${JSON.stringify(result.run.suite)} but is filed under "${suite}"`);
      reread.set(path, result);
      kept.push(indexEntryFor(buildRunView(result), path, reportPathFor(path), files.get(path)!));
      indexChanged = true;
    }
  }
  return { suite, index: { ...index, runs: dedupeById(kept, warnings) }, files, reread, indexChanged, warnings };
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
