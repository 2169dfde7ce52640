// `mesh-perf report`: re-renders every run report, every suite's index and data file, and the
// dashboard from the run files in a store, e.g. after upgrading mesh-perf. Runs are read in
// chunks and streamed to a sink (git staging, a folder), so a store holding years of runs is
// never held in memory at once. Retention applies here too.
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { messageOf } from '../util/errors.ts';
import { StoreCorruptError } from './errors.ts';
import { reportPathFor, RUNS_DIR, suiteIndexPath, suiteDataPath } from './layout.ts';
import { describeRetention, prunedEntries } from './retention.ts';
import { withoutTimelines } from './compact-timelines.ts';
import { readMarker, serializeRun, siteShellChanges, type PlanOptions } from './publish-plan.ts';
import { dashboardFileFor, renderRunReportForStore, renderSuiteDataFile } from '../site/pages.ts';
import { DASHBOARD_FILE } from './layout.ts';
import { loadSuiteState, type SuiteState } from './suite-state.ts';
import { suiteChangePoints, type SuiteChangePoint } from './change-points.ts';
import { indexEntryFor, serializeIndex } from './suite-index.ts';
import { gitBlobId, type StoreTree } from './tree.ts';

export interface ChangeSink {
  write(path: string, text: string): Promise<void>;
  remove(path: string): Promise<void>;
}

export interface RebuildOptions extends PlanOptions {
  /** Also copy every other stored file (run JSON, foreign files) to the sink: a full site export. */
  includeAll?: boolean;
  /** Runs read per chunk. */
  chunk?: number;
}

export interface RebuildSummary {
  suites: string[];
  runs: number;
  reports: number;
  /** Files whose content changed (or all files with includeAll). */
  written: number;
  pruned: string[];
  /** Runs rewritten without their per-second timelines (timeline retention). */
  compacted: string[];
  /** Change points of every suite's series, newest first (as the dashboard lists them). */
  changePoints: (SuiteChangePoint & { suite: string })[];
  warnings: string[];
}

export async function rebuildStore(tree: StoreTree, options: RebuildOptions, sink: ChangeSink): Promise<RebuildSummary> {
  const marker = await readMarker(tree, options.storeLabel, options.adopt ?? false);
  const dashboard = await dashboardFileFor(tree, marker);
  if (dashboard !== DASHBOARD_FILE) marker.dashboard = dashboard;
  const summary: RebuildSummary = {
    suites: [],
    runs: 0,
    reports: 0,
    written: 0,
    pruned: [],
    compacted: [],
    changePoints: [],
    warnings: [],
  };
  const emit = async (path: string, text: string) => {
    if (!options.includeAll && (await tree.blob(path)) === gitBlobId(text)) return;
    summary.written++;
    await sink.write(path, text);
  };
  const runPaths = await tree.list(`${RUNS_DIR}/`);
  const suiteNames = new Set([...marker.suites.map((s) => s.name), ...runPaths.map((p) => p.split('/')[1]!).filter(Boolean)]);
  const states: SuiteState[] = [];
  const rendered = new Set<string>();
  for (const suite of [...suiteNames].sort()) {
    const state = await loadSuiteState(tree, suite, options.storeLabel);
    summary.warnings.push(...state.warnings);
    if (options.retention) {
      const removed = prunedEntries(state.index.runs, options.retention, options.now);
      if (removed.length > 0) {
        const gone = new Set(removed.map((e) => e.id));
        state.index.runs = state.index.runs.filter((e) => !gone.has(e.id));
        for (const entry of removed) {
          for (const path of [entry.file, entry.report]) if ((await tree.blob(path)) !== undefined) await sink.remove(path);
          summary.pruned.push(entry.file);
        }
        summary.warnings.push(`retention (${describeRetention(options.retention)}) removed ${removed.length} run(s) of suite ${suite}`);
      }
    }
    const dueForCompaction = new Set(
      options.timelineRetention
        ? prunedEntries(state.index.runs, options.timelineRetention, options.now)
            .filter((e) => e.tl !== false)
            .map((e) => e.id)
        : [],
    );
    const chunk = options.chunk ?? 200;
    for (let i = 0; i < state.index.runs.length; i += chunk) {
      const entries = state.index.runs.slice(i, i + chunk);
      const texts = await tree.readMany(entries.map((e) => e.file));
      for (const entry of entries) {
        const text = texts.get(entry.file);
        if (text === undefined) throw new StoreCorruptError(options.storeLabel, entry.file, 'could not be read');
        let result: RunResult;
        try {
          result = parseResultsJson(text, entry.file);
        } catch (error) {
          throw new StoreCorruptError(options.storeLabel, entry.file, messageOf(error).replace(`${entry.file}: `, ''));
        }
        const report = reportPathFor(entry.file);
        entry.report = report;
        let runText = text;
        if (dueForCompaction.has(entry.id)) {
          result = withoutTimelines(result);
          runText = serializeRun(result);
          Object.assign(entry, indexEntryFor(buildRunView(result), entry.file, report, gitBlobId(runText)), { tl: false });
          summary.compacted.push(entry.file);
        }
        await emit(
          report,
          renderRunReportForStore(buildRunView(runText === text ? result : parseResultsJson(runText, entry.file)), report, dashboard),
        );
        rendered.add(report);
        if (options.includeAll || runText !== text) {
          await emit(entry.file, runText);
          rendered.add(entry.file);
        }
        summary.reports++;
        summary.runs++;
      }
    }
    await emit(suiteIndexPath(suite), serializeIndex(state.index));
    const changes = suiteChangePoints(state.index.runs);
    summary.changePoints.push(...changes.changePoints.map((cp) => ({ ...cp, suite })));
    await emit(suiteDataPath(suite), renderSuiteDataFile(state.index, changes));
    rendered.add(suiteIndexPath(suite));
    rendered.add(suiteDataPath(suite));
    states.push(state);
    summary.suites.push(suite);
  }
  const shell = siteShellChanges(runPaths, marker, states, options);
  for (const [path, text] of shell.writes) {
    await emit(path, text);
    rendered.add(path);
  }
  if (options.includeAll) {
    const others = (await tree.list('')).filter(
      (p) => !rendered.has(p) && !summary.pruned.includes(p) && !summary.pruned.includes(p.replace(/\.html$/, '.json')),
    );
    for (let i = 0; i < others.length; i += 200) {
      const texts = await tree.readMany(others.slice(i, i + 200));
      for (const [path, text] of texts) await emit(path, text);
    }
  }
  return summary;
}
