// The run page's report for one stored run: its view, rendered by report.html's renderer with the
// store's shared assets and the links a stored run has (the dashboard, the change point it
// follows, its results.json). Pure; run-page.ts calls it in the browser, tests in Node.
import type { RunResult } from '../results/types.ts';
import { buildRunView } from '../report/view.ts';
import { renderReportPage } from '../report/html/page.ts';
import type { RunPageConfig } from '../site/run-page/render.ts';

export function runPageHtml(result: RunResult, config: RunPageConfig, resultsLink?: { href: string; download: string }): string {
  const view = buildRunView(result);
  const suite = encodeURIComponent(view.run.suite);
  return renderReportPage(view, {
    chartJs: { src: config.chartJs },
    client: { src: config.reportJs },
    css: config.css,
    dashboardHref: `${config.dashboard}#suite=${suite}`,
    // The dashboard finds the change point this run falls after (when it loads, so the link stays
    // right as later runs add change points).
    changePointHref: `${config.dashboard}#suite=${suite}&after=${encodeURIComponent(view.run.id)}`,
    ...(resultsLink ? { results: resultsLink } : {}),
  });
}
