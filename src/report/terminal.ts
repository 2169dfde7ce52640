// The table printed at the end of a run. Pure: returns text.
import type { RunResult } from '../results/types.ts';
import { errorNotes, formatErrors, formatMs, formatPct, formatRps, formatSignedMs, invalidNotes, tableRows } from './table-model.ts';
import { analysisTextLines, analysisView } from '../analysis/report-view.ts';
import { reasonsBesideGates } from '../analysis/text.ts';

const RED = (s: string) => `\x1b[31m${s}\x1b[0m`;

/** color: wrap failed-request cells and lines in ANSI red (a terminal that shows colour). */
export function renderTerminalTable(result: RunResult, options: { color?: boolean } = {}): string {
  const red = options.color ? RED : (s: string) => s;
  const rows = tableRows(result);
  const view = analysisView(result);
  const multiProfile = new Set(rows.map((r) => r.profile)).size > 1;
  const header = [...(multiProfile ? ['profile'] : []), 'mode', 'p50', ...(view ? [`p50 ${view.intervalLabel}`] : []), 'p90', 'p99', 'max', 'rps (achieved/target)', 'errors', 'overhead p50', 'valid reps'];
  const body = rows.map((r) => [
    ...(multiProfile ? [r.profile] : []),
    r.isBaseline ? `${r.mode} (baseline)` : r.mode,
    formatMs(r.p50),
    ...(view ? [view.interval(r.mode, r.profile, 'p50') ?? '—'] : []),
    formatMs(r.p90),
    formatMs(r.p99),
    formatMs(r.max),
    formatRps(r),
    r.failures > 0 ? red(formatErrors(r)) : formatErrors(r),
    r.isBaseline ? '—' : (view?.overhead(r.mode, r.profile, 'p50') ?? `${formatSignedMs(r.overheadMs)} (${formatPct(r.overheadPct, true)})`),
    `${r.validReps}/${r.totalReps}`,
  ]);
  const lines = [alignTable([header, ...body])];
  lines.push('Latency: median over valid repetitions. Overhead: against the baseline mode in the same run.');
  if (view) lines.push(...analysisTextLines(view));
  const errors = errorNotes(rows);
  if (errors.length > 0) lines.push('', 'Failed requests:', ...errors.map((n) => `  - ${red(n)}`));
  const notes = invalidNotes(result);
  if (notes.length > 0) lines.push('', 'Invalid repetitions (reported, never compared):', ...notes.map((n) => `  - ${n}`));
  // Gate lines are printed above in full; the verdict line adds only the reasons that are not.
  const reasons = reasonsBesideGates(result.verdictReasons, result.analysis?.gates ?? []);
  const gates = result.analysis?.gates ?? [];
  const counted = (decision: 'fail' | 'inconclusive', what: string) => {
    const n = gates.filter((g) => g.decision === decision && !g.reportOnly).length;
    return n > 0 ? [`${n} gate${n > 1 ? 's' : ''} ${what}`] : [];
  };
  if (reasons.length < result.verdictReasons.length) reasons.unshift(...counted('fail', 'failed (above)'), ...counted('inconclusive', 'inconclusive (⚠ above)'));
  lines.push('', `Verdict: ${result.verdict === 'inconclusive' ? '⚠ ' : ''}${result.verdict.toUpperCase()}${reasons.length ? ` — ${reasons.join('; ')}` : ''}`);
  return `${lines.join('\n')}\n`;
}

export function alignTable(rows: string[][]): string {
  // Widths count visible characters: a coloured cell's escape codes take no room.
  const visible = (cell: string) => [...cell.replace(/\x1b\[[0-9;]*m/g, '')].length;
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => visible(r[c] ?? ''))));
  const pad = (cell: string, c: number) => ' '.repeat(Math.max(0, widths[c]! - visible(cell)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell + pad(cell, c) : pad(cell, c) + cell)).join('  ').trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  return [line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n');
}
