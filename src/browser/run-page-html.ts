// The run page's report for one stored run: its view, rendered by report.html's renderer with the
// store's shared assets and the links a stored run has (the dashboard, the change point it
// follows when its series has one, its results.json). Pure; run-page.ts calls it in the browser,
// tests in Node.
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { renderReportPage } from '../report/html/page.ts';
import type { RunPageConfig } from '../site/run-page/render.ts';

/** The suite's change points as its change-points file carries them (runs/<suite>/change-points.<suite>.js): what the run page reads of it. */
export interface StoredChangePoints {
  mainBranch?: string;
  changePoints: readonly StoredChangePoint[];
}

/** A change point as the run page reads it from the change-points file. */
interface StoredChangePoint {
  branch: string;
  afterStartedAt: string;
  after?: string;
  profile?: string;
  mode?: string;
  metric?: string;
  size?: number;
  confirmation?: { verdict: string; line: string; details?: string[] };
}

const METRIC_NAMES: Record<string, string> = { ratio: 'p50 ratio to baseline', err: 'error rate', cpu: 'CPU per 1000 rps' };

/** The change points the run starts, with their confirmation (or "unconfirmed"), as the report page lists them. */
export function changePointsStarted(run: RunResult['run'], changes: StoredChangePoints | undefined) {
  return (changes?.changePoints ?? [])
    .filter((cp) => cp.after === run.id && cp.branch === (run.git.branch ?? ''))
    .map((cp) => {
      const size = typeof cp.size === 'number' ? ` ${cp.size >= 0 ? '+' : ''}${(cp.size * 100).toFixed(1)}%` : '';
      const series = `${cp.profile} · ${cp.mode} · ${METRIC_NAMES[cp.metric ?? ''] ?? cp.metric}${size}`;
      const c = cp.confirmation;
      return c
        ? { series, verdict: c.verdict, line: c.line.replace(/^[a-z -]+: /, ''), details: c.details ?? [] }
        : { series, verdict: 'unconfirmed', line: 'not confirmed (mesh-perf confirm)', details: [] };
    });
}

/**
 * Whether a change point of the run's branch lies at or before the run: the one the dashboard
 * marks as the run's ("the change point it follows"). Without the suite's change points (an older
 * store, a file that would not load) there is none to link to.
 */
export function followsChangePoint(run: RunResult['run'], changes: StoredChangePoints | undefined): boolean {
  const branch = run.git.branch ?? '';
  return (changes?.changePoints ?? []).some((cp) => cp.branch === branch && cp.afterStartedAt <= run.startedAt);
}

export function runPageHtml(
  result: RunResult,
  config: RunPageConfig,
  resultsLink?: { href: string; download: string },
  changes?: StoredChangePoints,
): string {
  const view = buildRunView(result);
  const suite = encodeURIComponent(view.run.suite);
  const branch = view.run.git.branch ?? '';
  // The dashboard shows its main branch's change points unless told the run's.
  const branchPart = changes && branch !== (changes.mainBranch ?? branch) ? `&branch=${encodeURIComponent(branch)}` : '';
  return renderReportPage(view, {
    chartJs: { src: config.chartJs },
    client: { src: config.reportJs },
    css: config.css,
    dashboardHref: `${config.dashboard}#suite=${suite}`,
    // Only when the run's series has a change point at or before it; the dashboard finds which
    // (when it loads, so the link stays right as later runs add change points).
    ...(followsChangePoint(view.run, changes)
      ? { changePointHref: `${config.dashboard}#suite=${suite}&after=${encodeURIComponent(view.run.id)}${branchPart}` }
      : {}),
    ...(resultsLink ? { results: resultsLink } : {}),
    changePoints: changePointsStarted(view.run, changes),
  });
}
