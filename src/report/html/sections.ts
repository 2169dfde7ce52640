// HTML fragments of the run report that need no JavaScript: tables and facts. Pure.
import type { Repetition, RunResult } from '../../results/types.ts';
import { formatCauses } from '../../results/errors.ts';
import type { MedianInterval } from '../../analysis/median-interval.ts';
import { summarizeOverheads, summarizeRun, profilesOf, type ModeSummary, type OverheadSummary } from '../../analysis/run-summary.ts';
import { analysisView, type AnalysisView } from './analysis-view.ts';
import { escapeHtml as e } from './escape.ts';
import { smallSampleIntervalNote } from '../../analysis/format.ts';
import { formatCount, formatMs, formatPercent, formatRps, formatSigned } from './format.ts';

const TABLE_STATS = ['p50', 'p90', 'p99', 'max'] as const;

export function verdictBadge(verdict: string): string {
  return `<span class="badge ${e(verdict)}">${verdict === 'inconclusive' ? '⚠ ' : ''}${e(verdict.toUpperCase())}</span>`;
}

function withCi(interval: MedianInterval | undefined, format: (v: number) => string = formatMs): string {
  if (!interval) return '–';
  const ci = interval.n > 1 ? `<br><span class="ci">[${format(interval.low)}, ${format(interval.high)}]</span>` : '';
  return `${format(interval.median)}${ci}`;
}

export function summaryTables(result: RunResult, level: number): string {
  const view = analysisView(result.analysis);
  const summaries = summarizeRun(result, level).map((s) => (view ? withAnalysis(s, view) : s));
  const overheads = summarizeOverheads(result, level);
  const fewest = Math.min(...summaries.map((s) => s.validRepetitions).filter((n) => n >= 2));
  const small = view ? smallSampleIntervalNote(fewest, view.level) : undefined;
  const note = view
    ? small
      ? `Median over valid repetitions. ${e(small)} `
      : `Median over valid repetitions; brackets: ${formatPercent(view.level, 0)} bootstrap confidence interval from the analysis. `
    : coverageNote(summaries, level);
  return profilesOf(result)
    .map((profile) => {
      const rows = summaries
        .filter((s) => s.profile === profile)
        .map((s) =>
          summaryRow(
            s,
            overheads.find((o) => o.mode === s.mode && o.profile === profile),
            view,
          ),
        );
      return `<h3>Load profile <code>${e(profile)}</code></h3>
<table class="summary"><thead><tr><th>mode</th><th>valid reps</th>${TABLE_STATS.map((s) => `<th>${s} (ms)</th>`).join('')}<th>achieved rps</th><th>error rate</th><th>p50 overhead</th><th>p99 overhead</th>${view ? '<th class="text">gates</th>' : ''}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
    })
    .join('\n')
    .concat(
      `<p class="note">${note}Overhead: median of differences paired by interleaved block against <code>${e(result.baseline)}</code>.</p>`,
    );
}

function coverageNote(summaries: ModeSummary[], level: number): string {
  const coverages = new Map<number, number>();
  for (const s of summaries) if (s.latency.p50 && s.latency.p50.n > 1) coverages.set(s.latency.p50.n, s.latency.p50.coverage);
  const weak = [...coverages].sort(([a], [b]) => a - b);
  const coverageText = weak.map(([n, c]) => `${formatPercent(c, 1)} with ${n} repetitions`).join(', ');
  return (
    `Median over valid repetitions; brackets: order-statistic interval of the median` +
    (coverageText
      ? ` (coverage ${coverageText}${weak.some(([, c]) => c < level) ? `; ${formatPercent(level, 0)} needs at least 6` : ''})`
      : '') +
    '. '
  );
}

/** The analysis' bootstrap intervals, where it has them, in place of the order statistics. */
function withAnalysis(s: ModeSummary, view: AnalysisView): ModeSummary {
  const latency = { ...s.latency };
  for (const stat of Object.keys(latency) as (keyof typeof latency)[])
    latency[stat] = view.interval(s.mode, s.profile, stat) ?? latency[stat];
  const achievedRps = view.interval(s.mode, s.profile, 'achievedRps') ?? s.achievedRps;
  const errorRate = view.interval(s.mode, s.profile, 'errorRate') ?? s.errorRate;
  return { ...s, latency, ...(achievedRps ? { achievedRps } : {}), ...(errorRate ? { errorRate } : {}) };
}

function summaryRow(s: ModeSummary, overhead: OverheadSummary | undefined, view: AnalysisView | undefined): string {
  const cls = s.validRepetitions < s.repetitions ? ' class="invalid"' : '';
  const validCell = `${s.validRepetitions}/${s.repetitions}${s.fromInvalid ? '<br><span class="reason">no valid repetition: figures not comparable</span>' : ''}`;
  const target = s.targetRps !== null ? ` <span class="ci">of ${formatRps(s.targetRps)}</span>` : '';
  const gates = view ? view.gates.filter((g) => g.mode === s.mode && g.profile === s.profile) : [];
  const gateCell = view
    ? `<td class="text">${gates.length ? gates.map((g) => `${verdictBadge(g.decision)} ${e(g.gate)}`).join('<br>') : '<span class="note">none</span>'}</td>`
    : '';
  return `<tr${cls}><td class="text">${e(s.mode)}</td><td>${validCell}</td>${TABLE_STATS.map((st) => `<td>${withCi(s.latency[st])}</td>`).join('')}<td>${withCi(s.achievedRps, formatRps)}${target}</td><td${s.errorRate && s.errorRate.high > 0 ? ' class="errors"' : ''}>${withCi(s.errorRate, (v) => formatPercent(v, 2))}</td><td>${overheadCell(overhead, 'p50')}</td><td>${overheadCell(overhead, 'p99')}</td>${gateCell}</tr>`;
}

function overheadCell(overhead: OverheadSummary | undefined, stat: 'p50' | 'p99'): string {
  if (!overhead) return '<span class="note">baseline</span>';
  const diff = overhead.diffMs[stat];
  const ratio = overhead.ratio[stat];
  if (!diff) return '<span class="note">no valid pairs</span>';
  const ci = diff.n > 1 ? `<br><span class="ci">[${formatSigned(diff.low)}, ${formatSigned(diff.high)}] ms</span>` : '';
  const pct = ratio ? ` (${formatSigned(ratio.median - 1, (v) => formatPercent(v))})` : '';
  return `${formatSigned(diff.median)} ms${pct}${ci}`;
}

export function repetitionsTable(result: RunResult): string {
  const rows = result.modes
    .flatMap((m) => m.repetitions.map((r) => ({ m, r })))
    .sort((a, b) => a.r.trial - b.r.trial)
    .map(({ m, r }) => {
      const status = r.valid
        ? 'valid'
        : `<span class="reason">invalid: ${r.invalidReasons.map(e).join('; ') || 'no reason recorded'}</span>`;
      return `<tr${r.valid ? '' : ' class="invalid"'}><td>${r.trial}</td><td class="text">${e(m.name)}</td><td class="text">${e(m.profile)}</td><td>${r.block}</td><td>${r.round}</td><td class="text mono">${e(r.startedAt)}</td><td>${formatRps(r.achievedRps)}${r.targetRps !== null ? ` / ${formatRps(r.targetRps)}` : ''}</td><td>${formatCount(r.droppedIterations)}</td><td>${formatCount(r.requests)}</td>${failuresCell(r)}<td>${noLatency(r.latencyMs?.p50)}</td><td>${noLatency(r.latencyMs?.p99)}</td><td>${noLatency(r.latencyMs?.max)}</td><td class="text">${status}</td></tr>`;
    });
  return `<table class="repetitions"><thead><tr><th>trial</th><th class="text">mode</th><th class="text">profile</th><th>block</th><th>round</th><th class="text">started</th><th>rps (achieved / target)</th><th>dropped</th><th>requests</th><th>failures</th><th>p50</th><th>p99</th><th>max</th><th class="text">status</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
}

export function keyValues(record: Record<string, unknown> | undefined): string {
  const entries = Object.entries(record ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (entries.length === 0) return '<p class="note">none recorded</p>';
  return `<dl class="kv">${entries.map(([k, v]) => `<dt>${e(k)}</dt><dd>${valueHtml(v)}</dd>`).join('')}</dl>`;
}

function valueHtml(value: unknown): string {
  if (typeof value === 'object' && value !== null) return `<code>${e(JSON.stringify(value))}</code>`;
  return e(value);
}

/**
 * The analysis block belongs to the analysis stage and its shape may grow; render what it holds
 * without assuming a schema: lists of flat records become tables, records become key/values.
 */
export function analysisSection(analysis: unknown): string {
  if (analysis === undefined || analysis === null) {
    return `<p class="note">This results file has no analysis block (written by an older mesh-perf, or analysis was skipped). The tables above are descriptive: medians over repetitions with order-statistic intervals; no gate decisions.</p>`;
  }
  const view = analysisView(analysis);
  const json = `<details><summary>analysis as JSON</summary><pre>${e(JSON.stringify(analysis, null, 2))}</pre></details>`;
  if (!view) return `${genericHtml(analysis, 0)}${json}`;
  const gates = view.gates.length
    ? `<table class="gates"><thead><tr><th class="text">decision</th><th class="text">kind</th><th class="text">mode</th><th class="text">profile</th><th class="text">verdict line</th></tr></thead><tbody>${view.gates
        .map(
          (g) =>
            `<tr${g.decision === 'fail' ? ' class="invalid"' : ''}><td class="text">${verdictBadge(g.decision)}${g.marginal ? ' <span class="note">marginal</span>' : ''}</td><td class="text">${e(g.kind)}</td><td class="text">${e(g.mode)}</td><td class="text">${e(g.profile)}</td><td class="text">${e(g.line)}${g.note ? `<br><span class="note">${e(g.note)}</span>` : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="note">No gates configured.</p>';
  const list = (title: string, items: string[]) =>
    items.length ? `<h3>${title}</h3><ul>${items.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : '';
  const reference = view.referenceRunIds.length
    ? `<p>Reference runs: ${view.referenceRunIds.map((id) => `<code>${e(id)}</code>`).join(', ')}</p>`
    : '';
  return `<h3>Gates</h3>${gates}${reference}${list('Detectability', view.detectability)}${list('Notes', view.notes)}${json}`;
}

function genericHtml(value: unknown, depth: number): string {
  if (depth > 3) return `<code>${e(JSON.stringify(value))}</code>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '<span class="note">none</span>';
    const flat = value.every((x) => typeof x === 'object' && x !== null && !Array.isArray(x));
    if (!flat) return e(value.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(', '));
    const keys = [...new Set(value.flatMap((x) => Object.keys(x as object)))].slice(0, 12);
    const rows = value.map(
      (x) => `<tr>${keys.map((k) => `<td class="text">${cellHtml((x as Record<string, unknown>)[k])}</td>`).join('')}</tr>`,
    );
    return `<table><thead><tr>${keys.map((k) => `<th class="text">${e(k)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>);
    return `<dl class="kv">${entries.map(([k, v]) => `<dt>${e(k)}</dt><dd>${genericHtml(v, depth + 1)}</dd>`).join('')}</dl>`;
  }
  return cellHtml(value);
}

function cellHtml(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return e(Number.isInteger(value) ? String(value) : value.toPrecision(4));
  if (value === 'pass' || value === 'fail' || value === 'inconclusive' || value === 'invalid') return verdictBadge(value);
  if (typeof value === 'object') return `<code>${e(JSON.stringify(value))}</code>`;
  return e(value);
}

/** Failed requests in red with their causes; latency is over successful requests only. */
function failuresCell(r: Repetition): string {
  if (r.failures === 0) return `<td>${formatCount(r.failures)}</td>`;
  return `<td class="errors">${formatCount(r.failures)}<br><span class="ci">${e(formatCauses(r.errorCauses))}</span></td>`;
}

/** "—" for a repetition with no successful request: its latency is unknown, not 0. */
function noLatency(value: number | undefined): string {
  return value === undefined ? '—' : formatMs(value);
}
