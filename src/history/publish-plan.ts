// Turns "these runs go into the store" into one set of file changes: each run's body and
// timelines, the index shards they fall in (checked against the stored runs, then pruned by
// retention), the change points, the pages and the store marker. The git backend re-runs this on
// a fresh fetch after a rejected push, so it is a merge of records keyed by run id, never a
// textual rebase. A store still in layout 1 is converted in the same change (rebuild-plan.ts).
// Pure apart from reading the StoreTree it is given.

import { buildRunView } from '../report/view.ts';
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';
import { changePointsMadeBy } from './change-point-gate.ts';
import { attachChangedFields } from './changed-fields.ts';
import { type SuiteChangePoint, suiteChangePoints } from './change-points.ts';
import {
  confirmationsPath,
  ADOPTED_DASHBOARD_FILE,
  ADOPTED_RUN_PAGE_FILE,
  DASHBOARD_FILE,
  legacyReportPathFor,
  MARKER_FILE,
  RUN_PAGE_FILE,
  runFilePath,
  shardMonth,
  shardPath,
  suiteDir,
  suiteRoot,
  timelinesPathFor,
} from './layout.ts';
import { MARKER_SCHEMA_VERSION } from './marker.ts';
import { unpublishableReason } from './publishable.ts';
import { convertLegacyStore } from './rebuild-plan.ts';
import { describeRetention, prunedEntries, type Retention } from './retention.ts';
import { sameJson, storedNumbers } from './run-codec.ts';
import { settledPath, trendOffsets } from './settled.ts';
import { dropUnchanged, type PlanOptions, pagesOf, readMarker, siteShellChanges, writeSettled, writeSuite } from './store-shell.ts';
import { NO_TIMELINES, packRun, unpackRun } from './stored-run.ts';
import { indexEntryFor } from './suite-index.ts';
import { bodiesWithoutTimelines, loadSuiteState, markDirty, type SuiteState } from './suite-state.ts';
import { emptyChanges, gitBlobId, type StoreChanges, type StoreTree } from './tree.ts';

export interface PublishPlan {
  changes: StoreChanges;
  added: string[];
  unchanged: string[];
  pruned: string[];
  /** Runs whose per-second timelines were dropped (timeline retention). */
  compacted: string[];
  /** Change points that the runs of this publish made appear (slowdowns and speed-ups). */
  newChangePoints: SuiteChangePoint[];
  warnings: string[];
}

export type { PlanOptions };

/** Suite names settledPath accepts (layout.ts suiteDir); others are refused later, with the reason. */
const SUITE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export async function planPublish(tree: StoreTree, runs: RunResult[], options: PlanOptions): Promise<PublishPlan> {
  // What a publish reads (the marker, the pages, the settled-months file of each suite it adds to
  // and, most days, the shards of the suite's two newest months: the months after the settled
  // ones), in one request from a partial clone; anything else it needs is read when needed.
  if (tree.prefetch) {
    const suites = [...new Set(runs.map((r) => r.run.suite))].filter((s) => SUITE_NAME.test(s));
    const recentShards: string[] = [];
    for (const suite of suites) {
      const months = (await tree.list(`${suiteRoot(suite)}/index/`)).map((p) => shardMonth(p, suite)).filter((m) => m !== undefined);
      for (const month of months.sort().slice(-2)) recentShards.push(shardPath(suite, month));
    }
    await tree.prefetch([
      MARKER_FILE,
      DASHBOARD_FILE,
      RUN_PAGE_FILE,
      ADOPTED_DASHBOARD_FILE,
      ADOPTED_RUN_PAGE_FILE,
      ...suites.map((s) => settledPath(s)),
      ...suites.map((s) => confirmationsPath(s)),
      ...recentShards,
    ]);
  }
  const { marker, layout } = await readMarker(tree, options.storeLabel, options.adopt ?? false);
  if (layout < MARKER_SCHEMA_VERSION) {
    const converted = await convertLegacyStore(tree, options);
    const plan = await planPublish(converted.tree, runs, options);
    const changes = converted.changes;
    for (const path of plan.changes.deletes) {
      changes.writes.delete(path);
      changes.deletes.add(path);
    }
    for (const [path, text] of plan.changes.writes) {
      changes.deletes.delete(path);
      changes.writes.set(path, text);
    }
    plan.changes = await dropUnchanged(changes, tree);
    plan.warnings.unshift(...converted.warnings);
    return plan;
  }
  const pages = await pagesOf(tree, marker);
  const plan: PublishPlan = {
    changes: emptyChanges(),
    added: [],
    unchanged: [],
    pruned: [],
    compacted: [],
    newChangePoints: [],
    warnings: [],
  };
  const incoming = dedupeIncoming(runs).filter((result) => {
    const reason = unpublishableReason(result);
    if (reason) plan.warnings.push(`run ${result.run.id} was not published: ${reason}`);
    return reason === undefined;
  });
  const suites = [...new Set(incoming.map((r) => suiteDir(r.run.suite)))].sort();
  const states = new Map<string, SuiteState>();
  for (const suite of suites) {
    const runsOfSuite = incoming.filter((r) => r.run.suite === suite).map((r) => ({ id: r.run.id, startedAt: r.run.startedAt }));
    const recent = { incoming: runsOfSuite, now: options.now, ...(options.retention ? { retention: options.retention } : {}) };
    const state = await loadSuiteState(tree, suite, options.storeLabel, recent);
    plan.warnings.push(...state.warnings);
    states.set(suite, state);
  }

  for (const result of incoming) {
    const state = states.get(result.run.suite)!;
    const file = runFilePath(result);
    const packed = packRun(result);
    const blob = gitBlobId(packed.body);
    const previous = state.index.runs.find((e) => e.id === result.run.id);
    if (previous && previous.file === file && previous.blob === blob) {
      plan.unchanged.push(file);
      continue;
    }
    if (previous && previous.file !== file) {
      for (const path of [previous.file, timelinesPathFor(previous.file), legacyReportPathFor(previous.file)])
        plan.changes.deletes.add(path);
    }
    // Read back as every reader of the store will read it: a run the results schema refuses is
    // refused here, naming the file and the field, before it is stored; the index entry is made
    // from this stored form, so a later rebuild from the branch gives the same bytes.
    const stored = unpackRun(packed.body, file, { text: packed.timelines, path: timelinesPathFor(file) });
    plan.changes.writes.set(file, packed.body);
    plan.changes.writes.set(timelinesPathFor(file), packed.timelines);
    plan.changes.deletes.delete(file);
    state.index.runs = [...state.index.runs.filter((e) => e.id !== result.run.id), indexEntryFor(buildRunView(stored), file, blob)];
    state.files.set(file, blob);
    if (previous) markDirty(state, previous.startedAt);
    markDirty(state, stored.run.startedAt);
    plan.added.push(file);
  }

  for (const state of states.values()) {
    // A body without its timelines file would make its page load a missing script.
    for (const file of bodiesWithoutTimelines(state)) {
      if (!plan.changes.writes.has(timelinesPathFor(file))) plan.changes.writes.set(timelinesPathFor(file), NO_TIMELINES);
    }
    if (options.retention) prune(state, options.retention, options.now, plan);
    if (options.timelineRetention) dropTimelines(state, options.timelineRetention, options.now, plan);
    if (state.indexChanged) {
      // With only the recent shards read, the settled months' tail stands in for the older runs.
      const entries = state.settled ? [...state.settled.tail, ...state.index.runs] : state.index.runs;
      const changes = suiteChangePoints(entries, state.settled ? { offsets: trendOffsets(state.settled) } : {});
      const added = new Set(
        incoming.filter((r) => r.run.suite === state.suite && plan.added.includes(runFilePath(r))).map((r) => r.run.id),
      );
      await attachChangedFields(tree, state.suite, changes, entries, state.files, options.storeLabel, plan.changes.writes);
      plan.newChangePoints.push(...changePointsMadeBy(changes, entries, added));
      writeSuite(state, plan.changes, changes);
    } else writeSettled(state, plan.changes);
  }
  const shell = siteShellChanges(marker, [...states.values()], options, pages);
  for (const [path, text] of shell.writes) plan.changes.writes.set(path, text);
  plan.changes = await dropUnchanged(plan.changes, tree);
  return plan;
}

function prune(state: SuiteState, retention: Retention, now: Date, plan: PublishPlan): void {
  const removed = prunedEntries(state.index.runs, retention, now);
  if (removed.length === 0) return;
  const gone = new Set(removed.map((e) => e.id));
  for (const entry of removed) {
    for (const path of [entry.file, timelinesPathFor(entry.file), legacyReportPathFor(entry.file)]) {
      plan.changes.writes.delete(path);
      plan.changes.deletes.add(path);
    }
    state.files.delete(entry.file);
    markDirty(state, entry.startedAt);
    plan.pruned.push(entry.file);
  }
  state.index.runs = state.index.runs.filter((e) => !gone.has(e.id));
  plan.warnings.push(`retention (${describeRetention(retention)}) removed ${removed.length} run(s) of suite ${state.suite}`);
}

/** Past the timeline retention a run's timelines file becomes the stub; its body stays as it is. */
function dropTimelines(state: SuiteState, retention: Retention, now: Date, plan: PublishPlan): void {
  const stub = gitBlobId(NO_TIMELINES);
  for (const entry of prunedEntries(state.index.runs, retention, now)) {
    const path = timelinesPathFor(entry.file);
    const pending = plan.changes.writes.get(path);
    const holds = pending !== undefined ? pending !== NO_TIMELINES : (state.timelines.get(path) ?? stub) !== stub;
    if (!holds) continue;
    plan.changes.writes.set(path, NO_TIMELINES);
    plan.compacted.push(entry.file);
  }
}

function dedupeIncoming(runs: RunResult[]): RunResult[] {
  const byKey = new Map<string, RunResult>();
  for (const run of runs) {
    const key = `${run.run.suite}\u0000${run.run.id}`;
    const seen = byKey.get(key);
    if (seen && !sameJson(storedNumbers(seen), storedNumbers(run))) {
      throw new UsageError(
        `two results files carry run id ${JSON.stringify(run.run.id)} of suite ${run.run.suite} with different content; publish them separately or fix the ids`,
      );
    }
    byKey.set(key, run);
  }
  return [...byKey.values()];
}
