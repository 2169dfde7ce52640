// report.html for one run: a single file that opens offline (file://), Chart.js and the chart
// script inlined (page.ts renders it; a history store's run page uses the same renderer in the
// browser). Pure: the Chart.js source is handed in by the caller (see chartjs-source.ts).
import { dashboardUrlOf } from '../view.ts';
import { REPORT_CLIENT_JS } from './client.ts';
import { renderReportPage } from './page.ts';
import type { RunView } from '../view.ts';

export interface HtmlReportOptions {
  /** Chart.js UMD source to inline (standalone report), or a URL to load it from. */
  chartJs: { inline: string } | { src: string };
  /** Shared stylesheet and chart-script URLs, instead of inlining them. */
  assets?: { css: string; js: string };
}

export function renderHtmlReport(view: RunView, options: HtmlReportOptions): string {
  const dashboard = dashboardUrlOf(view);
  return renderReportPage(view, {
    chartJs: options.chartJs,
    ...(dashboard ? { dashboardHref: dashboard } : {}),
    client: options.assets ? { src: options.assets.js } : { inline: REPORT_CLIENT_JS },
    ...(options.assets ? { css: options.assets.css } : {}),
  });
}
