// The static site inside a history store: the dashboard page, the one run page, their shared
// assets and the change-points data file, all linking with relative URLs so the same files work
// on a Pages site and from a local checkout (file://). No page is stored per run: the run page
// renders any run from its stored files in the browser (src/browser/run-page.ts). Pure.

import { type ConfirmationRecord, confirmationKey } from '../confirm/record.ts';
import { ANALYSED_RUNS, type ChangedFields, pairKey, type SuiteChangePoints } from '../history/change-points.ts';
import { confirmationsByKey } from '../history/confirmations.ts';
import {
  ADOPTED_DASHBOARD_FILE,
  ADOPTED_RUN_PAGE_FILE,
  CHARTJS_ASSET,
  DASHBOARD_FILE,
  GENERATOR_META,
  REPORT_CSS_ASSET,
  REPORT_JS_ASSET,
  RUN_PAGE_FILE,
  RUN_PAGE_JS_ASSET,
  RUNS_DIR,
  relativeRoot,
  runPageHref,
  STORE_DATA_JS_ASSET,
} from '../history/layout.ts';
import type { StoreMarker, SuiteSummaryInfo } from '../history/marker.ts';
import type { SettledSummary } from '../history/settled.ts';
import { jsonScript } from '../history/store-scripts.ts';
import { byMonth, type IndexEntry, type SuiteIndex, sortEntries } from '../history/suite-index.ts';
import type { StoreTree } from '../history/tree.ts';
import { REPORT_CLIENT_JS } from '../report/html/client.ts';
import { escapeHtml as e } from '../report/html/escape.ts';
import { BASE_CSS } from '../report/html/styles.ts';
import { renderDashboardHtml } from './dashboard/render.ts';
import { renderRunPageHtml } from './run-page/render.ts';

/** The browser bundles a store carries (site/scripts.ts builds or reads them). */
export interface SiteScripts {
  runPage: string;
  storeData: string;
}

/** index.html, unless an adopted branch has its own: then the dashboard moves aside. */
export async function dashboardFileFor(tree: StoreTree, marker: StoreMarker): Promise<string> {
  if (marker.dashboard) return marker.dashboard;
  return (await foreignPage(tree, DASHBOARD_FILE)) ? ADOPTED_DASHBOARD_FILE : DASHBOARD_FILE;
}

/** run.html, unless an adopted branch has its own. */
export async function runPageFileFor(tree: StoreTree, marker: StoreMarker): Promise<string> {
  if (marker.runPage) return marker.runPage;
  return (await foreignPage(tree, RUN_PAGE_FILE)) ? ADOPTED_RUN_PAGE_FILE : RUN_PAGE_FILE;
}

async function foreignPage(tree: StoreTree, path: string): Promise<boolean> {
  const existing = await tree.read(path);
  return existing !== undefined && !existing.includes(GENERATOR_META);
}

export function renderSiteShell(marker: StoreMarker, runPage: string = RUN_PAGE_FILE): string {
  return renderDashboardHtml({
    marker,
    chartJsSrc: CHARTJS_ASSET,
    storeDataSrc: STORE_DATA_JS_ASSET,
    runsPrefix: `${RUNS_DIR}/`,
    runPage,
  });
}

export function renderRunPage(dashboard: string = DASHBOARD_FILE): string {
  return renderRunPageHtml({
    dashboard,
    runsPrefix: `${RUNS_DIR}/`,
    chartJsSrc: CHARTJS_ASSET,
    cssHref: REPORT_CSS_ASSET,
    reportJsSrc: REPORT_JS_ASSET,
    runPageJsSrc: RUN_PAGE_JS_ASSET,
  });
}

/** Shared files of the pages in a store. */
export function siteAssets(chartJs: string, scripts: SiteScripts): Map<string, string> {
  return new Map([
    [CHARTJS_ASSET, chartJs],
    [REPORT_CSS_ASSET, BASE_CSS],
    [REPORT_JS_ASSET, REPORT_CLIENT_JS],
    [RUN_PAGE_JS_ASSET, scripts.runPage],
    [STORE_DATA_JS_ASSET, scripts.storeData],
  ]);
}

/**
 * runs/<suite>/change-points.<suite>.js: the change points the dashboard lists and marks, found at publish
 * over the whole index (too much work for a page load), with the body file of every run they name
 * (the dashboard links runs it has not loaded) and the branch it shows by default.
 */
export function renderChangePointsFile(
  index: SuiteIndex,
  changes: SuiteChangePoints,
  settled?: { tail: readonly IndexEntry[]; summary: { nonPr: Record<string, number> } },
  confirmations: readonly ConfirmationRecord[] = [],
): string {
  // Each change point with its latest confirmation (any figure of its mode at its two runs).
  const verdicts = confirmationsByKey(confirmations);
  const files: Record<string, string> = {};
  const byId = new Map([...(settled?.tail ?? []), ...index.runs].map((r) => [r.id, r.file]));
  for (const cp of changes.changePoints) {
    for (const id of [cp.before, cp.after, ...cp.segments.flatMap((s) => [s.from, s.to])]) {
      const file = byId.get(id);
      if (file) files[id] = file;
    }
  }
  // A step moves several series at the same two runs: their changed fields are stored once per pair.
  const fields: Record<string, ChangedFields> = {};
  const changePoints = changes.changePoints.map((cp) => {
    const { fields: list, more, unknown, ...changed } = cp.changed;
    if (list) fields[pairKey(cp.before, cp.after)] = { fields: list, ...(more ? { more } : {}), ...(unknown ? { unknown } : {}) };
    const confirmation = verdicts.get(confirmationKey(cp));
    return { ...cp, changed, ...(confirmation ? { confirmation } : {}) };
  });
  const doc = {
    suite: index.suite,
    analysedRuns: ANALYSED_RUNS,
    mainBranch: mainBranchOf(index.runs, settled?.summary.nonPr),
    changePoints,
    fields,
    // Series too short to split, said on the page rather than drawn as "no change".
    unsplit: changes.series
      .filter((s) => s.skipped)
      .map((s) => ({ branch: s.branch, profile: s.profile, mode: s.mode, metric: s.metric, reason: s.skipped })),
    files,
  };
  return jsonScript('changePoints', JSON.stringify(doc));
}

/** The branch with the most runs not from a pull request: the one whose change points the dashboard shows first. */
function mainBranchOf(runs: readonly IndexEntry[], settledNonPr: Record<string, number> = {}): string {
  const counts = new Map<string, number>(Object.entries(settledNonPr));
  for (const r of runs) if (r.pr === undefined) counts.set(r.branch ?? '', (counts.get(r.branch ?? '') ?? 0) + 1);
  let best = '';
  let most = -1;
  for (const [branch, n] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (n > most) [best, most] = [branch, n];
  }
  return best;
}

/** Where a layout-1 store had a run's report: a redirect to the run page, so old links still open the run. */
export function renderRunRedirect(runFile: string, redirectPath: string, runPage: string): string {
  const href = `${relativeRoot(redirectPath)}${runPageHref(runFile, runPage)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${GENERATOR_META}<meta http-equiv="refresh" content="0; url=${e(href)}"><link rel="icon" href="data:,"><title>mesh-perf run</title>
<script>location.replace(${JSON.stringify(href).replace(/</g, '\\u003c')});</script></head>
<body><p>This run's report moved to <a href="${e(href)}">${e(href)}</a>.</p></body></html>
`;
}

/** The marker's summary of a suite; `settled`: what its settled months hold when `index` holds only the recent runs. */
export function suiteSummaryOf(index: SuiteIndex, settled?: SettledSummary): SuiteSummaryInfo {
  const runs = sortEntries([...index.runs]);
  const profiles = new Set<string>(settled?.profiles);
  const modes = new Set<string>(settled?.modes);
  const branches = new Set<string>(settled?.branches);
  for (const run of runs) {
    for (const [profile, byMode] of Object.entries(run.modes)) {
      profiles.add(profile);
      for (const mode of Object.keys(byMode)) modes.add(mode);
    }
    if (run.branch) branches.add(run.branch);
  }
  const summary: SuiteSummaryInfo = {
    name: index.suite,
    runs: runs.length + (settled?.runs ?? 0),
    profiles: [...profiles].sort(),
    modes: [...modes],
    branches: [...branches].sort(),
    months: [...new Set([...(settled?.months ?? []), ...byMonth(runs).keys()])],
  };
  const first = settled?.first ?? runs[0]?.startedAt;
  const last = runs.length ? runs[runs.length - 1]!.startedAt : settled?.last;
  if (first !== undefined) summary.first = first;
  if (last !== undefined) summary.last = last;
  return summary;
}
