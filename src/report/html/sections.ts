// HTML fragments of the run report that need no JavaScript: tables and facts. Pure.
import type { Repetition } from '../../results/types.ts';
import { formatCauses, formatErrorRate } from '../../results/errors.ts';
import type { Figure, ModeView, RunView } from '../view.ts';
import { escapeHtml as e } from './escape.ts';
import { PATH_HEADING } from '../cells.ts';
import { count, ms, NONE, percent, rps, signedMs, signedPercent } from '../numbers.ts';

const TABLE_STATS = ['p50', 'p90', 'p99', 'max'] as const;

export function verdictBadge(verdict: string): string {
  return `<span class="badge ${e(verdict)}">${verdict === 'inconclusive' ? '⚠ ' : ''}${e(verdict.toUpperCase())}</span>`;
}

function withCi(figure: Figure | undefined, format: (v: number) => string = ms): string {
  if (!figure) return NONE;
  const ci = figure.interval !== 'none' ? `<br><span class="ci">[${format(figure.low)}, ${format(figure.high)}]</span>` : '';
  return `${format(figure.value)}${ci}`;
}

export function summaryTables(view: RunView): string {
  const a = view.analysis;
  const note = a
    ? a.smallSample
      ? `Median over valid repetitions. ${e(a.smallSample)} `
      : `Median over valid repetitions; brackets: ${percent(a.level, 0)} bootstrap confidence interval from the analysis. `
    : coverageNote(view.modes, 0.95);
  return view.profiles
    .map((profile) => {
      const paths = view.paths !== undefined;
      const rows = view.modes.filter((s) => s.profile === profile).map((s) => summaryRow(s, a !== undefined, paths));
      return `<h3>Load profile <code>${e(profile)}</code></h3>
<table class="summary"><thead><tr><th>mode</th><th>valid reps</th>${TABLE_STATS.map((s) => `<th>${s} (ms)</th>`).join('')}<th>achieved rps</th><th>error rate</th><th>p50 overhead</th><th>p99 overhead</th>${a ? '<th class="text">gates</th>' : ''}${paths ? `<th class="text" title="${e(PATH_HEADING)}">path (proxy counters)</th>` : ''}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table>`;
    })
    .join('\n')
    .concat(
      `<p class="note">${note}max: the largest latency of any valid repetition. Overhead: median of differences paired by interleaved block against <code>${e(view.baseline)}</code>.</p>`,
    );
}

function coverageNote(rows: ModeView[], level: number): string {
  const coverages = new Map<number, number>();
  for (const s of rows) if (s.latency.p50 && s.latency.p50.n > 1) coverages.set(s.latency.p50.n, s.latency.p50.coverage);
  const weak = [...coverages].sort(([a], [b]) => a - b);
  const coverageText = weak.map(([n, c]) => `${percent(c, 1)} with ${n} repetitions`).join(', ');
  return (
    `Median over valid repetitions; brackets: order-statistic interval of the median` +
    (coverageText ? ` (coverage ${coverageText}${weak.some(([, c]) => c < level) ? `; ${percent(level, 0)} needs at least 6` : ''})` : '') +
    '. '
  );
}

function summaryRow(s: ModeView, analysed: boolean, paths: boolean): string {
  const cls = s.valid < s.repetitions ? ' class="invalid"' : '';
  const validCell = `${s.valid}/${s.repetitions}${s.fromInvalid ? '<br><span class="reason">no valid repetition: figures not comparable</span>' : ''}`;
  const target = s.targetRps !== null ? ` <span class="ci">of ${rps(s.targetRps)}</span>` : '';
  const gateCell = analysed
    ? `<td class="text">${s.gates.length ? s.gates.map((g) => `${verdictBadge(g.result.decision)} ${e(g.result.gate)}`).join('<br>') : '<span class="note">none</span>'}</td>`
    : '';
  const errors = s.errors.rate === undefined ? NONE : e(formatErrorRate(s.errors.rate));
  return `<tr${cls}><td class="text">${e(s.mode)}</td><td>${validCell}</td>${TABLE_STATS.map((st) => `<td>${st === 'max' ? (s.largestMs === undefined ? NONE : ms(s.largestMs)) : withCi(s.latency[st])}</td>`).join('')}<td>${withCi(s.achievedRps, rps)}${target}</td><td${s.errors.failures > 0 ? ' class="errors"' : ''}>${errors}</td><td>${overheadCell(s, 'p50')}</td><td>${overheadCell(s, 'p99')}</td>${gateCell}${paths ? pathCell(s) : ''}</tr>`;
}

/** What the proxies in the mode's path counted in this profile, by their own counters. */
function pathCell(row: ModeView): string {
  const path = row.path;
  if (!path) return '<td class="text"><span class="note">path not checked</span></td>';
  return `<td class="text path">${path.checked ? e(path.text) : `<span class="note">${e(path.text)}</span>`}</td>`;
}

function overheadCell(row: ModeView, stat: 'p50' | 'p99'): string {
  if (row.isBaseline) return '<span class="note">baseline</span>';
  const overhead = row.overhead[stat];
  if (!overhead) return '<span class="note">no valid pairs</span>';
  const diff = overhead.difference;
  const ci = diff.interval !== 'none' ? `<br><span class="ci">[${signedMs(diff.low)}, ${signedMs(diff.high)}] ms</span>` : '';
  const pct = overhead.ratio ? ` (${signedPercent(overhead.ratio.value - 1)})` : '';
  return `${signedMs(diff.value)} ms${pct}${ci}`;
}

/**
 * The table lists at most this many repetitions (the first and last half by trial); a run with
 * more (100,000 repetitions made an 83 MB page no browser scrolls) says how many it leaves out and
 * where they all are. Every repetition still counts in every figure above the table.
 */
export const REPETITION_ROWS_SHOWN = 2_000;

export function repetitionsTable(view: RunView): string {
  // Mode and profile escaped once per mode, not once per row.
  const all = view.modes
    .flatMap((mode) => {
      const m = { name: e(mode.mode), profile: e(mode.profile) };
      return mode.records.map((r) => ({ m, r }));
    })
    .sort((a, b) => a.r.trial - b.r.trial);
  const half = REPETITION_ROWS_SHOWN / 2;
  const left = all.length > REPETITION_ROWS_SHOWN ? all.slice(half, all.length - half) : [];
  const row = ({ m, r }: (typeof all)[number]) => {
    const status = r.valid ? 'valid' : `<span class="reason">invalid: ${r.invalidReasons.map(e).join('; ') || 'no reason recorded'}</span>`;
    return `<tr${r.valid ? '' : ' class="invalid"'}><td>${r.trial}</td><td class="text">${m.name}</td><td class="text">${m.profile}</td><td>${r.block}</td><td>${r.round}</td><td class="text mono">${e(r.startedAt)}</td><td>${rps(r.achievedRps)}${r.targetRps !== null ? ` / ${rps(r.targetRps)}` : ''}</td><td>${count(r.droppedIterations)}</td><td>${count(r.requests)}</td>${failuresCell(r)}<td>${noLatency(r.latencyMs?.p50)}</td><td>${noLatency(r.latencyMs?.p99)}</td><td>${noLatency(r.latencyMs?.max)}</td><td class="text">${status}</td></tr>`;
  };
  let rows: string[];
  if (left.length === 0) rows = all.map(row);
  else {
    const leftInvalid = left.filter(({ r }) => !r.valid).length;
    const gap = `<tr class="omitted"><td colspan="14" class="text note"><span>… ${count(left.length)} more repetitions (trials ${left[0]!.r.trial}–${left[left.length - 1]!.r.trial}${leftInvalid > 0 ? `, ${count(leftInvalid)} of them invalid` : ''}) not listed here; every one is in results.json and results.csv and counts in the figures above</span></td></tr>`;
    rows = [...all.slice(0, half).map(row), gap, ...all.slice(all.length - half).map(row)];
  }
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

/** The gate decisions, reference runs, detectability and notes; the whole block as JSON below. */
export function analysisSection(view: RunView): string {
  const a = view.analysis;
  if (!a) {
    return `<p class="note">This results file has no analysis block (written by an older mesh-perf, or analysis was skipped). The tables above are descriptive: medians over repetitions with order-statistic intervals; no gate decisions.</p>`;
  }
  const json = `<details><summary>analysis as JSON</summary><pre>${e(JSON.stringify(a.record, null, 2))}</pre></details>`;
  const gates = view.gates.length
    ? `<table class="gates"><thead><tr><th class="text">decision</th><th class="text">kind</th><th class="text">mode</th><th class="text">profile</th><th class="text">verdict line</th></tr></thead><tbody>${view.gates
        .map(
          ({ result: g }) =>
            `<tr${g.decision === 'fail' ? ' class="invalid"' : ''}><td class="text">${verdictBadge(g.decision)}${g.marginal ? ' <span class="note">marginal</span>' : ''}</td><td class="text">${e(g.kind)}</td><td class="text">${e(g.mode)}</td><td class="text">${e(g.profile)}</td><td class="text">${e(g.line)}${g.note ? `<br><span class="note">${e(g.note)}</span>` : ''}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="note">No gates configured.</p>';
  const list = (title: string, items: string[]) =>
    items.length ? `<h3>${title}</h3><ul>${items.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : '';
  const reference = a.referenceRunIds.length
    ? `<p>Reference runs: ${a.referenceRunIds.map((id) => `<code>${e(id)}</code>`).join(', ')}</p>`
    : '';
  return `<h3>Gates</h3>${gates}${reference}${list('Detectability', a.detectability)}${list('Notes', a.notes)}${json}`;
}

/** Failed requests in red with their causes; latency is over successful requests only. */
function failuresCell(r: Repetition): string {
  if (r.failures === 0) return `<td>${count(r.failures)}</td>`;
  return `<td class="errors">${count(r.failures)}<br><span class="ci">${e(formatCauses(r.errorCauses))}</span></td>`;
}

/** "—" for a repetition with no successful request: its latency is unknown, not 0. */
function noLatency(value: number | undefined): string {
  return value === undefined ? NONE : ms(value);
}
