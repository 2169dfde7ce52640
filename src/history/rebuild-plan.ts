// `mesh-perf report --store`: reads every run of a store and writes it again as this version
// stores it, with every suite's index shards and change points, the pages and the marker, e.g.
// after upgrading mesh-perf. A store in layout 1 (legacy-layout.ts: a JSON file and an HTML report
// per run, one index per suite) is converted: each run's body and timelines are written in
// layout 2, its old report's path becomes a redirect to the run page (old links still open it),
// the old index and dashboard data go. Runs are read in chunks and streamed to a sink (git
// staging, a folder), so a store holding years of runs is never held in memory at once.
// Retention applies here too.

import { buildRunView } from '../report/view.ts';
import { parseResultsJson } from '../results/migrate.ts';
import { renderRunRedirect } from '../site/pages.ts';
import { messageOf } from '../util/errors.ts';
import { type SuiteChangePoint, suiteChangePoints } from './change-points.ts';
import { StoreCorruptError } from './errors.ts';
import { legacyReportPathFor, RUNS_DIR, runFilePath, suiteDir, timelinesPathFor } from './layout.ts';
import { isLegacyRunFile, LEGACY_DATA_DIR, type LegacyEntry, legacyIndexPath, legacyReportOf, parseLegacyIndex } from './legacy-layout.ts';
import { describeRetention, prunedEntries } from './retention.ts';
import { attachChangedFields } from './changed-fields.ts';
import { dropUnchanged, type PlanOptions, pagesOf, readMarker, siteShellChanges, writeSuite } from './store-shell.ts';
import { packRun, restoreRun, StoredFileError } from './stored-run.ts';
import { emptyIndex, type IndexEntry, indexEntryFor } from './suite-index.ts';
import { loadSuiteState, type SuiteState } from './suite-state.ts';
import { emptyChanges, gitBlobId, type StoreChanges, type StoreTree } from './tree.ts';

export interface ChangeSink {
  write(path: string, text: string): Promise<void>;
  remove(path: string): Promise<void>;
}

export interface RebuildOptions extends PlanOptions {
  /** Also copy every other stored file (foreign files) to the sink: a full site export. */
  includeAll?: boolean;
  /** Runs read per chunk. */
  chunk?: number;
}

export interface RebuildSummary {
  suites: string[];
  runs: number;
  /** Files whose content changed (or all files with includeAll). */
  written: number;
  pruned: string[];
  /** Runs whose per-second timelines were dropped (timeline retention). */
  compacted: string[];
  /** Runs converted from layout 1 (0 when the store was in layout 2). */
  converted: number;
  /** Change points of every suite's series, newest first (as the dashboard lists them). */
  changePoints: (SuiteChangePoint & { suite: string })[];
  warnings: string[];
}

/** One run of the store as read, ready to be written again. */
interface ReadRun {
  entry: IndexEntry;
  body: string;
  timelines: string;
}

export async function rebuildStore(tree: StoreTree, options: RebuildOptions, sink: ChangeSink): Promise<RebuildSummary> {
  const { marker, layout } = await readMarker(tree, options.storeLabel, options.adopt ?? false);
  const legacy = layout < 2;
  const pages = await pagesOf(tree, marker);
  const summary: RebuildSummary = {
    suites: [],
    runs: 0,
    written: 0,
    pruned: [],
    compacted: [],
    converted: 0,
    changePoints: [],
    warnings: [],
  };
  const rendered = new Set<string>();
  const removed = new Set<string>();
  const emit = async (path: string, text: string) => {
    rendered.add(path);
    if (!options.includeAll && (await tree.blob(path)) === gitBlobId(text)) return;
    summary.written++;
    await sink.write(path, text);
  };
  const remove = async (path: string) => {
    removed.add(path);
    if (!options.includeAll && (await tree.blob(path)) !== undefined) await sink.remove(path);
  };
  const runPaths = await tree.list(`${RUNS_DIR}/`);
  const suiteNames = new Set([...marker.suites.map((s) => s.name), ...runPaths.map((p) => p.split('/')[1]!).filter(Boolean)]);
  const states: SuiteState[] = [];
  for (const suite of [...suiteNames].sort()) {
    const state = legacy ? await legacySuiteState(tree, suite, options.storeLabel) : await loadSuiteState(tree, suite, options.storeLabel);
    summary.warnings.push(...state.warnings);
    if (options.retention) {
      const gone = prunedEntries(state.index.runs, options.retention, options.now);
      if (gone.length > 0) {
        const ids = new Set(gone.map((e) => e.id));
        state.index.runs = state.index.runs.filter((e) => !ids.has(e.id));
        for (const entry of gone) {
          const paths = legacy
            ? [entry.file, legacyReportOf(entry.file)]
            : [entry.file, timelinesPathFor(entry.file), legacyReportPathFor(entry.file)];
          for (const path of paths) await remove(path);
          summary.pruned.push(entry.file);
        }
        summary.warnings.push(`retention (${describeRetention(options.retention)}) removed ${gone.length} run(s) of suite ${suite}`);
      }
    }
    const due = new Set(
      options.timelineRetention ? prunedEntries(state.index.runs, options.timelineRetention, options.now).map((e) => e.id) : [],
    );
    const chunk = options.chunk ?? 200;
    const entries: IndexEntry[] = [];
    // Run bodies as written here (a converted run is not in the tree under its new name): a change
    // point's two runs are read from them for its changed fields.
    const bodies = new Map<string, string>();
    for (let i = 0; i < state.index.runs.length; i += chunk) {
      const batch = state.index.runs.slice(i, i + chunk);
      const read = legacy
        ? await readLegacyRuns(tree, batch, due, options.storeLabel)
        : await readRuns(tree, batch, due, state, options.storeLabel);
      for (const [old, run] of read) {
        await emit(run.entry.file, run.body);
        bodies.set(run.entry.file, run.body);
        await emit(timelinesPathFor(run.entry.file), run.timelines);
        if (due.has(run.entry.id) && (legacy || state.timelines.get(timelinesPathFor(old.file)) !== gitBlobId(run.timelines)))
          summary.compacted.push(run.entry.file);
        if (legacy) {
          // The old report's address opens the run's page; the old run file goes.
          await emit(legacyReportOf(old.file), renderRunRedirect(run.entry.file, legacyReportOf(old.file), pages.runPage));
          await remove(old.file);
          summary.converted++;
        } else {
          if (old.file !== run.entry.file) await remove(old.file);
          // A converted run's old address keeps pointing at its page (the run page may have moved).
          const redirect = legacyReportPathFor(run.entry.file);
          if ((await tree.blob(redirect)) !== undefined) await emit(redirect, renderRunRedirect(run.entry.file, redirect, pages.runPage));
        }
        entries.push(run.entry);
        summary.runs++;
      }
    }
    state.index.runs = entries;
    // Every shard is written again (its bytes compared with the stored one's before it is).
    state.dirty = 'all';
    const changes = suiteChangePoints(state.index.runs);
    await attachChangedFields(tree, suite, changes, state.index.runs, bodies, options.storeLabel, bodies);
    summary.changePoints.push(...changes.changePoints.map((cp) => ({ ...cp, suite })));
    const suiteFiles = emptyChanges();
    writeSuite(state, suiteFiles, changes);
    await apply(suiteFiles, emit, remove);
    if (legacy) {
      await remove(legacyIndexPath(suite));
      await remove(`${LEGACY_DATA_DIR}/${suite}.js`);
    }
    states.push(state);
    summary.suites.push(suite);
  }
  await apply(siteShellChanges(marker, states, options, pages), emit, remove);
  if (options.includeAll) {
    const others = (await tree.list('')).filter(
      (p) => !rendered.has(p) && !removed.has(p) && !(legacy && p.startsWith(`${LEGACY_DATA_DIR}/`)),
    );
    for (let i = 0; i < others.length; i += 200) {
      const texts = await tree.readMany(others.slice(i, i + 200));
      for (const [path, text] of texts) await emit(path, text);
    }
  }
  summary.changePoints.sort((a, b) => (a.afterStartedAt < b.afterStartedAt ? 1 : a.afterStartedAt > b.afterStartedAt ? -1 : 0));
  return summary;
}

async function apply(changes: StoreChanges, emit: (path: string, text: string) => Promise<void>, remove: (path: string) => Promise<void>) {
  for (const path of changes.deletes) await remove(path);
  for (const [path, text] of changes.writes) await emit(path, text);
}

/** Layout 2: each run's files read back (every one checked), stored again as this version stores them. */
async function readRuns(
  tree: StoreTree,
  batch: IndexEntry[],
  due: ReadonlySet<string>,
  state: SuiteState,
  storeLabel: string,
): Promise<[IndexEntry, ReadRun][]> {
  const tlPaths = batch.map((e) => timelinesPathFor(e.file)).filter((p) => state.timelines.has(p));
  const texts = await tree.readMany([...batch.map((e) => e.file), ...tlPaths]);
  return batch.map((entry) => {
    const text = texts.get(entry.file);
    if (text === undefined) throw new StoreCorruptError(storeLabel, entry.file, 'could not be read');
    const tlPath = timelinesPathFor(entry.file);
    const tl = texts.get(tlPath);
    const restored = guarded(storeLabel, entry.file, () =>
      restoreRun(text, entry.file, tl === undefined ? undefined : { text: tl, path: tlPath }, !due.has(entry.id)),
    );
    const file = runFilePath(restored.result);
    const fresh = indexEntryFor(buildRunView(restored.result), file, gitBlobId(restored.body));
    return [entry, { entry: fresh, body: restored.body, timelines: restored.timelines }];
  });
}

/** Layout 1: each run file read (every one checked) and packed as layout 2 stores runs. */
async function readLegacyRuns(
  tree: StoreTree,
  batch: IndexEntry[],
  due: ReadonlySet<string>,
  storeLabel: string,
): Promise<[IndexEntry, ReadRun][]> {
  const texts = await tree.readMany(batch.map((e) => e.file));
  return batch.map((entry) => {
    const text = texts.get(entry.file);
    if (text === undefined) throw new StoreCorruptError(storeLabel, entry.file, 'could not be read');
    const result = guarded(storeLabel, entry.file, () => parseResultsJson(text, entry.file));
    const packed = packRun(result, !due.has(entry.id));
    const file = runFilePath(result);
    const fresh = indexEntryFor(buildRunView(packed.stored), file, gitBlobId(packed.body));
    return [entry, { entry: fresh, body: packed.body, timelines: packed.timelines }];
  });
}

function guarded<T>(storeLabel: string, path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof StoredFileError) throw new StoreCorruptError(storeLabel, error.path, error.message);
    throw new StoreCorruptError(storeLabel, path, messageOf(error).replace(`${path}: `, ''));
  }
}

/**
 * A layout-1 suite as a SuiteState whose entries name the old run files (id and start only: every
 * run is read again to convert it). The old index is checked as that version checked it, and
 * gives the start of each run file it vouches for (same blob); other files are read for theirs.
 */
async function legacySuiteState(tree: StoreTree, suite: string, storeLabel: string): Promise<SuiteState> {
  suiteDir(suite);
  const listing = await tree.list(`${RUNS_DIR}/${suite}/`);
  const indexPath = legacyIndexPath(suite);
  const warnings: string[] = [];
  const vouched = new Map<string, LegacyEntry>();
  if (listing.includes(indexPath)) {
    const parsed = parseLegacyIndex((await tree.read(indexPath)) ?? '', suite);
    if (!parsed.ok) throw new StoreCorruptError(storeLabel, indexPath, parsed.reason);
    for (const entry of parsed.runs) vouched.set(entry.file, entry);
  }
  const index = emptyIndex(suite);
  const unknown: string[] = [];
  for (const file of listing.filter((p) => isLegacyRunFile(p, suite))) {
    const entry = vouched.get(file);
    if (entry && entry.blob === (await tree.blob(file))) index.runs.push(stub(entry.id, file, entry.startedAt));
    else unknown.push(file);
  }
  for (let i = 0; i < unknown.length; i += 200) {
    const texts = await tree.readMany(unknown.slice(i, i + 200));
    for (const file of unknown.slice(i, i + 200)) {
      const text = texts.get(file);
      if (text === undefined) throw new StoreCorruptError(storeLabel, file, 'could not be read');
      const head = guarded(storeLabel, file, () => parseResultsJson(text, file)).run;
      if (head.suite !== suite) warnings.push(`${file} says suite ${JSON.stringify(head.suite)} but is filed under "${suite}"`);
      index.runs.push(stub(head.id, file, head.startedAt));
    }
  }
  // The same run id twice (a file renamed by hand): keep the newest file name, as layout 1 did.
  const byId = new Map<string, IndexEntry>();
  for (const e of index.runs) {
    const seen = byId.get(e.id);
    if (seen) warnings.push(`run ${e.id} is stored twice (${seen.file}, ${e.file}); keeping ${seen.file > e.file ? seen.file : e.file}`);
    if (!seen || e.file > seen.file) byId.set(e.id, e);
  }
  index.runs = [...byId.values()];
  return {
    suite,
    index,
    files: new Map(),
    timelines: new Map(),
    months: new Set(),
    confirmations: [],
    indexChanged: true,
    dirty: 'all',
    warnings,
  };
}

function stub(id: string, file: string, startedAt: string): IndexEntry {
  return { id, file, blob: '', v: 0, startedAt, verdict: 'pass', platform: '', invalidReps: 0, baseline: '', modes: {} };
}

/**
 * The layout-2 store a layout-1 store converts to, as a tree over the old one and the changes
 * that make it (publish converts a layout-1 store in its own commit).
 */
export async function convertLegacyStore(
  tree: StoreTree,
  options: PlanOptions,
): Promise<{ tree: StoreTree; changes: StoreChanges; warnings: string[] }> {
  const changes = emptyChanges();
  const sink: ChangeSink = {
    write: async (path, text) => {
      changes.deletes.delete(path);
      changes.writes.set(path, text);
    },
    remove: async (path) => {
      changes.writes.delete(path);
      changes.deletes.add(path);
    },
  };
  const summary = await rebuildStore(tree, options, sink);
  await dropUnchanged(changes, tree);
  return {
    tree: new OverlayTree(tree, changes),
    changes,
    warnings: [
      `converted the store to history layout 2 (${summary.converted} runs; their old report addresses redirect to run.html)`,
      ...summary.warnings,
    ],
  };
}

/** A tree with changes applied on top, read-only. */
class OverlayTree implements StoreTree {
  constructor(
    private readonly base: StoreTree,
    private readonly changes: StoreChanges,
  ) {}

  async list(prefix: string): Promise<string[]> {
    const paths = new Set((await this.base.list(prefix)).filter((p) => !this.changes.deletes.has(p)));
    for (const path of this.changes.writes.keys()) if (path.startsWith(prefix)) paths.add(path);
    return [...paths].sort();
  }

  async blob(path: string): Promise<string | undefined> {
    const text = this.changes.writes.get(path);
    if (text !== undefined) return gitBlobId(text);
    return this.changes.deletes.has(path) ? undefined : this.base.blob(path);
  }

  async read(path: string): Promise<string | undefined> {
    if (this.changes.writes.has(path)) return this.changes.writes.get(path);
    return this.changes.deletes.has(path) ? undefined : this.base.read(path);
  }

  async readMany(paths: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const rest = paths.filter((p) => !this.changes.writes.has(p) && !this.changes.deletes.has(p));
    for (const p of paths) if (this.changes.writes.has(p)) out.set(p, this.changes.writes.get(p)!);
    for (const [p, t] of await this.base.readMany(rest)) out.set(p, t);
    return out;
  }
}
