// run.html, the one report page of every run in a history store. It holds no run: its script
// (assets/run-page.js, src/browser/run-page.ts) reads the run named in the URL
// (run.html#run=<suite>/<year>/<stamp>-<id>) from the run's stored files and renders it with the
// renderer of report.html. Pure.
import { pageHead } from '../../report/html/head.ts';
import { escapeHtml as e, jsonForScript } from '../../report/html/escape.ts';

export interface RunPageOptions {
  /** The dashboard, relative to the run page. */
  dashboard: string;
  /** The runs folder ("runs/"): a run's files are <runsPrefix><suite>/<year>/<name>.js and .tl.js. */
  runsPrefix: string;
  chartJsSrc: string;
  cssHref: string;
  /** The report's chart script (client.js). */
  reportJsSrc: string;
  runPageJsSrc: string;
}

/** What the run page's script reads from the page. */
export interface RunPageConfig {
  dashboard: string;
  runs: string;
  chartJs: string;
  css: string;
  reportJs: string;
}

export function renderRunPageHtml(options: RunPageOptions): string {
  const config: RunPageConfig = {
    dashboard: options.dashboard,
    runs: options.runsPrefix,
    chartJs: options.chartJsSrc,
    css: options.cssHref,
    reportJs: options.reportJsSrc,
  };
  return `${pageHead('mesh-perf run', `<link rel="stylesheet" href="${e(options.cssHref)}">`)}
<body>
<header><h1>mesh-perf run</h1></header>
<main><p id="run-status" class="note" role="status">Loading the run…</p>
<noscript><p>This page renders a run's report with JavaScript. The run's data are under <a href="${e(options.runsPrefix)}">${e(options.runsPrefix)}</a>.</p></noscript>
<p><a href="${e(options.dashboard)}">trend dashboard</a></p></main>
<script type="application/json" id="mesh-perf-run-page">${jsonForScript(config)}</script>
<script src="${e(options.runPageJsSrc)}"></script>
</body>
</html>
`;
}
