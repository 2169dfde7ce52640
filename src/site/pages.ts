// The static site inside a history store: the dashboard page, the per-suite data scripts and one
// report per run, all linking with relative URLs so the same files work on a Pages site and from
// a local checkout (file://). Pure.
import type { RunView } from '../report/view.ts';
import { renderDashboardHtml, renderSuiteData } from './dashboard/render.ts';
import { renderHtmlReport } from '../report/html/render.ts';
import {
  ADOPTED_DASHBOARD_FILE,
  CHARTJS_ASSET,
  DASHBOARD_FILE,
  DATA_DIR,
  GENERATOR_META,
  relativeRoot,
  REPORT_CSS_ASSET,
  REPORT_JS_ASSET,
} from '../history/layout.ts';
import { REPORT_CLIENT_JS } from '../report/html/client.ts';
import { BASE_CSS } from '../report/html/styles.ts';
import type { StoreTree } from '../history/tree.ts';
import type { StoreMarker, SuiteSummaryInfo } from '../history/marker.ts';
import type { SuiteIndex } from '../history/suite-index.ts';
import { suiteChangePoints, type SuiteChangePoints } from '../history/change-points.ts';

export function renderRunReportForStore(view: RunView, reportPath: string, dashboardFile: string = DASHBOARD_FILE): string {
  const root = relativeRoot(reportPath);
  return renderHtmlReport(view, {
    chartJs: { src: `${root}${CHARTJS_ASSET}` },
    assets: { css: `${root}${REPORT_CSS_ASSET}`, js: `${root}${REPORT_JS_ASSET}` },
    dashboardHref: `${root}${dashboardFile}#suite=${encodeURIComponent(view.run.suite)}`,
    // The dashboard finds the change point this run falls after (computed when it loads, so the
    // link stays right as later runs add change points).
    changePointHref: `${root}${dashboardFile}#suite=${encodeURIComponent(view.run.suite)}&after=${encodeURIComponent(view.run.id)}`,
  });
}

/** index.html, unless an adopted branch has its own: then the dashboard moves aside. */
export async function dashboardFileFor(tree: StoreTree, marker: StoreMarker): Promise<string> {
  if (marker.dashboard) return marker.dashboard;
  const existing = await tree.read(DASHBOARD_FILE);
  return existing !== undefined && !existing.includes(GENERATOR_META) ? ADOPTED_DASHBOARD_FILE : DASHBOARD_FILE;
}

export function renderSiteShell(marker: StoreMarker): string {
  return renderDashboardHtml({ marker, chartJsSrc: CHARTJS_ASSET, dataPrefix: `${DATA_DIR}/` });
}

/** Shared files of the run reports in a store. */
export function reportAssets(): Map<string, string> {
  return new Map([
    [REPORT_CSS_ASSET, BASE_CSS],
    [REPORT_JS_ASSET, REPORT_CLIENT_JS],
  ]);
}

export function renderSuiteDataFile(index: SuiteIndex, changes: SuiteChangePoints = suiteChangePoints(index.runs)): string {
  return renderSuiteData(index, changes);
}

export function suiteSummaryOf(index: SuiteIndex): SuiteSummaryInfo {
  const runs = index.runs;
  const profiles = new Set<string>();
  const modes = new Set<string>();
  const branches = new Set<string>();
  for (const run of runs) {
    for (const [profile, byMode] of Object.entries(run.modes)) {
      profiles.add(profile);
      for (const mode of Object.keys(byMode)) modes.add(mode);
    }
    if (run.branch) branches.add(run.branch);
  }
  const sortedStarts = runs.map((r) => r.startedAt).sort();
  const summary: SuiteSummaryInfo = {
    name: index.suite,
    runs: runs.length,
    profiles: [...profiles].sort(),
    modes: [...modes],
    branches: [...branches].sort(),
  };
  if (sortedStarts.length) {
    summary.first = sortedStarts[0]!;
    summary.last = sortedStarts[sortedStarts.length - 1]!;
  }
  return summary;
}
