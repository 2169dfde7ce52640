// Turns "these runs go into the store" into one set of file changes: run files, their reports,
// the suite indexes (checked against the stored runs, then pruned by retention), the dashboard
// and the store marker. The git backend re-runs this on a fresh fetch after a rejected push, so
// it is a merge of records keyed by run id, never a textual rebase. Pure apart from reading the
// StoreTree it is given.
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { UsageError } from '../util/errors.ts';
import { StoreCorruptError, StoreNotAdoptedError } from './errors.ts';
import {
  CHARTJS_ASSET,
  DASHBOARD_FILE,
  MARKER_FILE,
  NOJEKYLL_FILE,
  reportPathFor,
  runFilePath,
  suiteDataPath,
  suiteDir,
  suiteIndexPath,
  RUNS_DIR,
} from './layout.ts';
import { emptyMarker, parseMarker, serializeMarker, type StoreMarker } from './marker.ts';
import { compactTimelines } from './compact-timelines.ts';
import { describeRetention, prunedEntries, type Retention } from './retention.ts';
import {
  dashboardFileFor,
  renderRunReportForStore,
  renderSiteShell,
  renderSuiteDataFile,
  reportAssets,
  suiteSummaryOf,
} from '../site/pages.ts';
import { loadSuiteState, type SuiteState } from './suite-state.ts';
import { indexEntryFor, serializeIndex } from './suite-index.ts';
import { unpublishableReason } from './publishable.ts';
import { changePointsMadeBy } from './change-point-gate.ts';
import { suiteChangePoints, type SuiteChangePoint, type SuiteChangePoints } from './change-points.ts';
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
}

export interface PublishPlan {
  changes: StoreChanges;
  added: string[];
  unchanged: string[];
  pruned: string[];
  /** Runs rewritten without their per-second timelines (timeline retention). */
  compacted: string[];
  /** Change points that the runs of this publish made appear (slowdowns and speed-ups). */
  newChangePoints: SuiteChangePoint[];
  warnings: string[];
}

/** Files as we would store them: compact JSON, floats to 6 significant digits (well under noise). */
export function serializeRun(result: RunResult): string {
  return `${JSON.stringify(result, (_key, value: unknown) =>
    typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value) ? Number(value.toPrecision(6)) : value,
  )}\n`;
}

export async function readMarker(tree: StoreTree, storeLabel: string, adopt: boolean): Promise<StoreMarker> {
  const text = await tree.read(MARKER_FILE);
  if (text === undefined) {
    const existing = (await tree.list('')).filter((p) => p !== NOJEKYLL_FILE);
    if (existing.length > 0 && !adopt) throw new StoreNotAdoptedError(storeLabel, existing);
    return emptyMarker();
  }
  const parsed = parseMarker(text);
  if (!parsed.ok) throw new StoreCorruptError(storeLabel, MARKER_FILE, parsed.reason);
  return parsed.marker;
}

export async function planPublish(tree: StoreTree, runs: RunResult[], options: PlanOptions): Promise<PublishPlan> {
  const marker = await readMarker(tree, options.storeLabel, options.adopt ?? false);
  const dashboard = await dashboardFileFor(tree, marker);
  if (dashboard !== DASHBOARD_FILE) marker.dashboard = dashboard;
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
    const state = await loadSuiteState(tree, suite, options.storeLabel);
    plan.warnings.push(...state.warnings);
    states.set(suite, state);
  }

  for (const result of incoming) {
    const state = states.get(result.run.suite)!;
    const file = runFilePath(result);
    const text = serializeRun(result);
    const blob = gitBlobId(text);
    const previous = state.index.runs.find((e) => e.id === result.run.id);
    if (previous && previous.file === file && previous.blob === blob) {
      plan.unchanged.push(file);
      continue;
    }
    if (previous && previous.file !== file) {
      plan.changes.deletes.add(previous.file);
      plan.changes.deletes.add(previous.report);
    }
    const report = reportPathFor(file);
    // Read back as every reader of the store will read it: a run the results schema refuses is
    // refused here, naming the file and the field, before it is stored. The report is rendered
    // from this stored form, so a later rebuild from the branch gives the same bytes.
    const stored = parseResultsJson(text, file);
    plan.changes.writes.set(file, text);
    const view = buildRunView(stored);
    plan.changes.writes.set(report, renderRunReportForStore(view, report, dashboard));
    state.index.runs = [...state.index.runs.filter((e) => e.id !== result.run.id), indexEntryFor(view, file, report, blob)];
    state.indexChanged = true;
    plan.added.push(file);
  }

  for (const state of states.values()) {
    for (const [path, result] of state.reread) {
      const report = reportPathFor(path);
      if (!plan.changes.writes.has(report))
        plan.changes.writes.set(report, renderRunReportForStore(buildRunView(result), report, dashboard));
    }
    if (options.retention) prune(state, options.retention, options.now, plan);
    if (options.timelineRetention) {
      const pending = new Map(incoming.filter((r) => r.run.suite === state.suite).map((r) => [runFilePath(r), r]));
      for (const c of await compactTimelines(
        tree,
        state.index,
        options.timelineRetention,
        options.now,
        options.storeLabel,
        serializeRun,
        pending,
      )) {
        plan.changes.writes.set(c.entry.file, c.text);
        plan.changes.writes.set(
          c.entry.report,
          renderRunReportForStore(buildRunView(parseResultsJson(c.text, c.entry.file)), c.entry.report, dashboard),
        );
        state.index.runs = state.index.runs.map((e) => (e.id === c.entry.id ? c.entry : e));
        state.indexChanged = true;
        plan.compacted.push(c.entry.file);
      }
    }
    if (state.indexChanged) {
      const changes = suiteChangePoints(state.index.runs);
      const added = new Set(
        incoming.filter((r) => r.run.suite === state.suite && plan.added.includes(runFilePath(r))).map((r) => r.run.id),
      );
      plan.newChangePoints.push(...changePointsMadeBy(changes, state.index.runs, added));
      writeSuite(state, plan.changes, changes);
    }
  }
  const shell = siteShellChanges(await tree.list(`${RUNS_DIR}/`), marker, [...states.values()], options);
  for (const [path, text] of shell.writes) plan.changes.writes.set(path, text);
  return finalize(plan, tree);
}

function prune(state: SuiteState, retention: Retention, now: Date, plan: PublishPlan): void {
  const removed = prunedEntries(state.index.runs, retention, now);
  if (removed.length === 0) return;
  const gone = new Set(removed.map((e) => e.id));
  for (const entry of removed) {
    plan.changes.writes.delete(entry.file);
    plan.changes.writes.delete(entry.report);
    plan.changes.deletes.add(entry.file);
    plan.changes.deletes.add(entry.report);
    plan.pruned.push(entry.file);
  }
  state.index.runs = state.index.runs.filter((e) => !gone.has(e.id));
  state.indexChanged = true;
  plan.warnings.push(`retention (${describeRetention(retention)}) removed ${removed.length} run(s) of suite ${state.suite}`);
}

export function writeSuite(state: SuiteState, changes: StoreChanges, changePoints?: SuiteChangePoints): void {
  changes.writes.set(suiteIndexPath(state.suite), serializeIndex(state.index));
  changes.writes.set(suiteDataPath(state.suite), renderSuiteDataFile(state.index, changePoints));
}

/** Marker, dashboard page, Chart.js asset, .nojekyll: rewritten so they describe every suite. */
export function siteShellChanges(runPaths: string[], marker: StoreMarker, states: SuiteState[], options: PlanOptions): StoreChanges {
  const changes = emptyChanges();
  const suites = new Map(marker.suites.map((s) => [s.name, s]));
  for (const state of states) {
    if (state.index.runs.length > 0) suites.set(state.suite, suiteSummaryOf(state.index));
    else suites.delete(state.suite);
  }
  // Suites found on disk but missing from an adopted or older marker still get listed.
  for (const path of runPaths) {
    const match = new RegExp(`^${RUNS_DIR}/([^/]+)/index\\.json$`).exec(path);
    if (match && !suites.has(match[1]!)) suites.set(match[1]!, { name: match[1]!, runs: 0, profiles: [], modes: [], branches: [] });
  }
  const next: StoreMarker = { ...marker, suites: [...suites.values()] };
  changes.writes.set(MARKER_FILE, serializeMarker(next));
  changes.writes.set(next.dashboard ?? DASHBOARD_FILE, renderSiteShell(next));
  changes.writes.set(CHARTJS_ASSET, options.chartJs);
  for (const [path, text] of reportAssets()) changes.writes.set(path, text);
  changes.writes.set(NOJEKYLL_FILE, '');
  return changes;
}

/** Drops writes whose content is already stored, so an idempotent publish makes no commit. */
async function finalize(plan: PublishPlan, tree: StoreTree): Promise<PublishPlan> {
  for (const [path, text] of plan.changes.writes) {
    if ((await tree.blob(path)) === gitBlobId(text)) plan.changes.writes.delete(path);
  }
  for (const path of plan.changes.deletes) if ((await tree.blob(path)) === undefined) plan.changes.deletes.delete(path);
  return plan;
}

function dedupeIncoming(runs: RunResult[]): RunResult[] {
  const byKey = new Map<string, RunResult>();
  for (const run of runs) {
    const key = `${run.run.suite}\u0000${run.run.id}`;
    const seen = byKey.get(key);
    if (seen && serializeRun(seen) !== serializeRun(run)) {
      throw new UsageError(
        `two results files carry run id ${JSON.stringify(run.run.id)} of suite ${run.run.suite} with different content; publish them separately or fix the ids`,
      );
    }
    byKey.set(key, run);
  }
  return [...byKey.values()];
}
