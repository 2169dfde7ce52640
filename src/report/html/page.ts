// A run's report page: report.html (one file that opens offline, Chart.js and the chart script
// inlined; render.ts) and, in a history store, the run page rendered in the browser from the
// stored run (src/browser/run-page.ts), which references the store's shared Chart.js, stylesheet
// and chart script. One renderer for both, so a stored run reads as its own report.html. Pure and
// free of Node APIs: the browser bundle imports it.
import { buildReportChartData, statLabel } from './chart-data.ts';
import { pageHead } from './head.ts';
import { escapeHtml as e, inlineScriptSource, jsonForScript } from './escape.ts';
import { analysisSection, keyValues, repetitionsTable, summaryTables, verdictBadge } from './sections.ts';
import { BASE_CSS } from './styles.ts';
import { NO_MEASUREMENTS, reasonsBesideAbLead, stoppingLine } from '../cells.ts';
import { noResourcesReason } from '../no-resources.ts';
import type { RunView } from '../view.ts';

export interface ReportPageOptions {
  /** Chart.js UMD source to inline (standalone report), or a URL to load it from (store copies). */
  chartJs: { inline: string } | { src: string };
  /** The chart script (client.js): inlined, or a URL (store copies, with `assets`). */
  client: { inline: string } | { src: string };
  /** Link back to the trend dashboard, when the report lives in a history store. */
  dashboardHref?: string;
  /** The dashboard's change point this run falls after (stored runs). */
  changePointHref?: string;
  /** Change points this run starts (it is their first run after the step), each with its confirmation's verdict and line (stored runs). */
  changePoints?: { series: string; verdict: string; line: string; details: string[] }[];
  /** Shared stylesheet URL (history copies), instead of inlining the styles in every report. */
  css?: string;
  /** A link to the run's results.json (the run page makes one from the stored run). */
  results?: { href: string; download: string };
}

export function renderReportPage(view: RunView, options: ReportPageOptions): string {
  // No repetition finished: one sentence, as in every other output, not empty analysis and tables.
  const measured = view.modes.length > 0;
  const charts = buildReportChartData(view);
  const run = view.run;
  const git = run.git;
  const commitUrl = git.repository && git.sha ? `https://github.com/${git.repository}/commit/${git.sha}` : undefined;
  const title = `mesh-perf · ${run.suite} · ${run.id}`;
  const meta = [
    `started <span class="mono">${e(run.startedAt)}</span>`,
    `platform ${e(run.platform)}`,
    git.sha
      ? `commit ${commitUrl ? `<a href="${e(commitUrl)}">${e(git.sha.slice(0, 12))}</a>` : `<span class="mono">${e(git.sha.slice(0, 12))}</span>`}`
      : '',
    git.branch ? `branch ${e(git.branch)}` : '',
    git.event ? `event ${e(git.event)}` : '',
    git.pullRequest ? `PR #${e(git.pullRequest)}` : '',
    `baseline <code>${e(view.baseline)}</code>`,
    options.dashboardHref ? `<a href="${e(options.dashboardHref)}">trend dashboard</a>` : '',
    options.changePointHref ? `<a href="${e(options.changePointHref)}">change point it follows</a>` : '',
    options.results
      ? `<a id="results-json" href="${e(options.results.href)}" download="${e(options.results.download)}">results.json</a>`
      : '',
  ].filter(Boolean);
  const chartJsTag =
    'inline' in options.chartJs
      ? `<script>${inlineScriptSource(options.chartJs.inline)}</script>`
      : `<script src="${e(options.chartJs.src)}"></script>`;
  const clientTag =
    'inline' in options.client ? `<script>${options.client.inline}</script>` : `<script src="${e(options.client.src)}"></script>`;
  return `${pageHead(title, options.css ? `<link rel="stylesheet" href="${e(options.css)}">` : `<style>${BASE_CSS}</style>`)}
<body>
<header>
<h1>${e(run.suite)} ${verdictBadge(view.verdict)}</h1>
<div class="meta">${meta.map((m) => `<span>${m}</span>`).join('')}</div>
</header>
<main>
${changePointSection(options.changePoints)}${abSection(view)}${verdictSection(view)}
<section id="summary"><h2>Summary</h2>${measured ? summaryTables(view) : `<p class="note">${NO_MEASUREMENTS}</p>`}</section>
${measured ? `<section id="analysis"><h2>Analysis</h2>${analysisSection(view)}</section>` : ''}
${view.profiles
  .map((profile, i) => {
    const p = charts.profiles[i]!;
    return chartsSection(
      profile,
      i,
      p.overhead !== null,
      p.resources !== null,
      p.timeline.some((s) => s.t.length > 0),
      view.run.platform,
    );
  })
  .join('\n')}
${measured ? `<section id="repetitions"><h2>Repetitions</h2><p class="note">In run order. Invalid repetitions are reported, never compared.</p>${repetitionsTable(view)}</section>` : ''}
<section id="environment"><h2>Environment and versions</h2>
<h3>Tools</h3>${keyValues(run.tools)}
<h3>Machine</h3>${keyValues(run.machine as unknown as Record<string, unknown>)}
${run.provenance ? `<h3>What ran</h3>${keyValues(provenanceValues(run.provenance))}` : ''}
<h3>Platform</h3>${keyValues(run.environment)}
<h3>Git</h3>${keyValues(git as Record<string, unknown>)}
<h3>Plan</h3>${keyValues({ seed: view.plan.seed, order: view.plan.order, trials: view.plan.trials.length, run: run.id, finished: run.finishedAt, aborted: run.aborted })}
<details><summary>configuration (credentials removed)</summary><pre>${e(JSON.stringify(view.config, null, 2))}</pre></details>
</section>
</main>
<script type="application/json" id="mesh-perf-data">${jsonForScript(charts)}</script>
${chartJsTag}
${clientTag}
</body>
</html>
`;
}

/** run.provenance as name → value rows: each image and file on its own row. */
function provenanceValues(p: NonNullable<RunView['run']['provenance']>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [group, value] of Object.entries(p)) {
    if (value && typeof value === 'object' && group !== 'settings') for (const [k, v] of Object.entries(value)) out[`${group}.${k}`] = v;
    else if (group === 'settings')
      for (const [mode, fp] of Object.entries(value as Record<string, string>)) out[`settings fingerprint of ${mode}`] = fp;
    else out[group] = value;
  }
  if (p.migratedFrom !== undefined) out.migratedFrom = `results schema ${p.migratedFrom}: written before provenance was recorded`;
  return out;
}

/** The change points this run starts, each with its confirmation (a run page of a store). */
function changePointSection(changePoints: ReportPageOptions['changePoints']): string {
  if (!changePoints || changePoints.length === 0) return '';
  const items = changePoints.map(
    (cp) =>
      `<li><strong>${e(cp.series)}</strong>: <span class="badge ${e(cp.verdict)}">${e(cp.verdict === 'cannot-rerun' ? 'cannot re-run' : cp.verdict)}</span> ${e(cp.line)}${cp.details.length > 0 ? `<details><summary>how</summary><ul>${cp.details.map((d) => `<li>${e(d)}</li>`).join('')}</ul></details>` : ''}</li>`,
  );
  return `<section id="change-point"><h2>This run starts a change point</h2><ul>${items.join('')}</ul></section>\n`;
}

/** The A/B verdict, first: one line per gate, how measuring stopped, and each gate's per-block chart. */
function abSection(view: RunView): string {
  if (!view.ab) return '';
  const stopped = stoppingLine(view);
  const figures = view.ab.gates
    .map(
      (g, i) =>
        `<figure><figcaption class="chart-title">Per block: head ÷ base − 1, ${e(g.evidence.statistic)} (line: estimate; band: interval; dashed: practical minimum)</figcaption><div class="chart"><canvas id="ab-${i}" role="img" aria-label="${e(`per-block change of ${g.evidence.mode} head against base`)}"></canvas></div></figure>`,
    )
    .join('\n');
  return `<section id="ab"><h2>A/B: head against base ${verdictBadge(view.ab.decision)}</h2>
<ul class="ab">${view.ab.gates.map((g) => `<li>${verdictBadge(g.evidence.decision)} ${e(g.line)}</li>`).join('')}</ul>
${stopped ? `<p class="note">${e(stopped)}</p>` : ''}
<div class="grid">${figures}</div>
</section>
`;
}

function verdictSection(view: RunView): string {
  // An A/B gate's reason is its line in the A/B section above: said once.
  const reasons = reasonsBesideAbLead(view);
  const aborted = view.run.aborted ? `<p class="reason">Run ended early: ${e(view.run.aborted)}</p>` : '';
  const list = reasons.length
    ? `<ul>${reasons.map((r) => `<li>${e(r)}</li>`).join('')}</ul>`
    : reasons.length < view.reasons.length
      ? '<p class="note">The A/B verdict above decides it; every other check passed.</p>'
      : '<p class="note">No reasons recorded: every check passed.</p>';
  return `<section id="verdict"><h2>Verdict ${verdictBadge(view.verdict)}</h2>${aborted}${list}</section>`;
}

function chartsSection(profile: string, i: number, overhead: boolean, resources: boolean, timeline: boolean, platform: string): string {
  const figure = (id: string, caption: string) =>
    `<figure><figcaption class="chart-title">${caption}</figcaption><div class="chart"><canvas id="${id}" role="img" aria-label="${e(caption)}"></canvas></div></figure>`;
  const stats = ['p50', 'p90', 'p99', 'max'];
  return `<section id="charts-${i}"><h2>Charts · <code>${e(profile)}</code></h2>
<div class="grid">
${figure(`spectrum-${i}`, 'Latency by percentile')}
${figure(`bars-${i}`, 'Percentiles with intervals (whiskers)')}
${overhead ? figure(`overhead-${i}`, 'Overhead vs baseline, paired by block') : ''}
${
  timeline
    ? `<figure><figcaption class="chart-title">Latency over time per repetition
<span class="controls"><label for="timeline-stat-${i}">statistic</label><select id="timeline-stat-${i}">${stats.map((s) => `<option value="${s}"${s === 'p99' ? ' selected' : ''}>${statLabel(s)}</option>`).join('')}</select></span></figcaption>
<div class="chart"><canvas id="timeline-${i}" role="img" aria-label="Latency over time per repetition"></canvas></div></figure>`
    : `<figure><figcaption class="chart-title">Latency over time per repetition</figcaption><p class="note">No per-second timeline in this copy: history keeps timelines for recent runs only (<code>history.keepTimelines</code>); the run's own artifacts (results.json, report.html) have it.</p></figure>`
}
${resources ? figure(`cpu-${i}`, 'CPU by container group') + figure(`memory-${i}`, 'Memory by container group') : ''}
</div>
${resources ? '' : `<p class="note">No CPU/memory figures for this profile: ${e(noResourcesReason(platform))}.</p>`}
</section>`;
}
