// The trend dashboard (index.html at the root of the history store). It reads a suite's index
// shards (as many months as the chosen range needs) and its change points through <script src>
// rather than fetch(), so the page works the same from a Pages site and from a checkout opened
// with file://; assets/store-data.js decodes them (history/suite-index.ts, bundled). Pure.
import type { StoreMarker, SuiteSummaryInfo } from '../../history/marker.ts';
import { escapeHtml as e, jsonForScript } from '../../report/html/escape.ts';
import { PALETTE } from '../../report/html/colors.ts';
import { pageHead } from '../../report/html/head.ts';
import { BASE_CSS } from '../../report/html/styles.ts';
import { DASHBOARD_CLIENT_JS } from './client.ts';

export interface DashboardOptions {
  marker: StoreMarker;
  /** URL of Chart.js relative to index.html. */
  chartJsSrc: string;
  /** URL of the shard reader (assets/store-data.js). */
  storeDataSrc: string;
  /** URL of the runs folder ("runs/"): shards at <suite>/index/<month>.<suite>.js, change points at <suite>/change-points.<suite>.js. */
  runsPrefix: string;
  /** The run page: a run's link is <runPage>#run=<suite>/<year>/<name>. */
  runPage: string;
  title?: string;
}

/** Kept apart from the shared CSS: the change-point list and its marks only. */
const CHANGE_POINTS_CSS = `
.cp-scroll { overflow-x: auto; }
#change-points td { vertical-align: top; }
#change-points .cp-slower { color: #cf222e; font-weight: 600; }
#change-points tr.cp-current { outline: 2px solid #0969da; }
#change-points ul.cp-fields { margin: 4px 0 0; padding-left: 16px; font-size: 12px; max-width: 560px; }
#change-points ul.cp-fields li { overflow-wrap: anywhere; }
#change-points ul.cp-fields li.cp-more { display: none; }
#change-points ul.cp-fields.cp-open li.cp-more { display: list-item; }
#change-points .cp-toggle { font-size: 12px; margin-top: 2px; }
#change-points .cp-verdict { max-width: 420px; font-size: 12px; }
#change-points .cp-verdict details { margin-top: 2px; }
#change-points .cp-verdict ul { margin: 2px 0 0; padding-left: 16px; }
`;

export const DASHBOARD_STATS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max'];

/** The statistic the dashboard opens on: p50, the one the regression gate judges by default. */
export const DEFAULT_STAT = 'p50';

/**
 * The suite the dashboard opens on: the one with the newest run (ties: the one with the most runs),
 * not the alphabetically first, which may be an old experiment.
 */
export function defaultSuite(suites: readonly SuiteSummaryInfo[]): string | undefined {
  return [...suites].sort((a, b) => (b.last ?? '').localeCompare(a.last ?? '') || b.runs - a.runs || a.name.localeCompare(b.name))[0]?.name;
}

export function renderDashboardHtml(options: DashboardOptions): string {
  const title = options.title ?? 'mesh-perf trends';
  const config = {
    suites: options.marker.suites,
    defaultSuite: defaultSuite(options.marker.suites),
    defaultStat: DEFAULT_STAT,
    runsPrefix: options.runsPrefix,
    runPage: options.runPage,
    palette: PALETTE,
  };
  const styles = `<style>${BASE_CSS}
.modes label { margin-right: 10px; color: var(--fg); }
#runs td.text a { margin-right: 8px; }
.legend-note { color: var(--muted); font-size: 12px; }
</style>
<style id="change-points-css">${CHANGE_POINTS_CSS}</style>`;
  return `${pageHead(title, styles)}
<body>
<header>
<h1>${e(title)}</h1>
<div class="meta"><span>Median over repetitions per run; shaded band: its interval. <span class="legend-note">✕ = invalid run or repetitions (reported, never compared).</span> Click a point to open its run report.</span></div>
</header>
<main>
<section id="filters" class="controls">
<label for="f-suite">suite</label><select id="f-suite"></select>
<label for="f-profile">load profile</label><select id="f-profile"></select>
<label for="f-stat">percentile</label><select id="f-stat">${DASHBOARD_STATS.map((s) => `<option value="${s}"${s === DEFAULT_STAT ? ' selected' : ''}>${s === 'p999' ? 'p99.9' : s}</option>`).join('')}</select>
<label for="f-branch">branch</label><select id="f-branch"></select>
<label for="f-range">range</label><select id="f-range"><option value="90">90 days</option><option value="365" selected>1 year</option><option value="0">all</option></select>
<label for="f-axis">x axis</label><select id="f-axis"><option value="time" selected>time</option><option value="commit">commits</option></select>
<span class="modes" id="f-modes"></span>
</section>
<p id="status" class="note" role="status"></p>
<section id="charts" class="grid"></section>
<section id="change-points-section"><h2>Change points</h2><p id="cp-note" class="note"></p><div class="cp-scroll"><table id="change-points"><thead><tr><th class="text">from</th><th class="text">series</th><th class="num">change [95% interval]</th><th class="num">segment medians [intervals]</th><th class="text">runs</th><th class="text">what changed</th><th class="text">confirmation</th></tr></thead><tbody></tbody></table></div></section>
<section id="latest"><h2>Latest runs</h2><table id="runs"><thead><tr><th class="text">started</th><th class="text">verdict</th><th class="text">branch</th><th class="text">commit</th><th class="text">links</th></tr></thead><tbody></tbody></table></section>
</main>
<script type="application/json" id="mesh-perf-config">${jsonForScript(config)}</script>
<script src="${e(options.chartJsSrc)}"></script>
<script src="${e(options.storeDataSrc)}"></script>
<script>${DASHBOARD_CLIENT_JS}</script>
</body>
</html>
`;
}
