// The table printed at the end of a run, fitted to the terminal. Pure: returns text.
//
// The essential columns (mode, p50, p99, overhead, rate, validity) come first in one table; when
// the rest does not fit beside them it follows in a second table keyed by the same first column,
// or everything goes in one table with `wide`. Columns are a list, so another one (an error
// column, a marker) is one more entry. Long lines below the table wrap at the width; the
// verdict keeps one line per reason here, its full text is in summary.md and the report.
import { reasonsBesideGates } from './analysis-text.ts';
import { type Column, fitColumns, visibleWidth } from '../util/text-table.ts';
import {
  abLeadLines,
  analysisLines,
  stoppingLine,
  errorNotes,
  formatErrors,
  formatRps,
  intervalCell,
  intervalLabel,
  invalidNotes,
  LATENCY_NOTE,
  latencyCell,
  PATH_HEADING,
  pathNotes,
  NO_MEASUREMENTS,
  overheadInterval,
  overheadText,
} from './cells.ts';
import type { RunView } from './view.ts';

/** Width when stdout is no terminal and COLUMNS is unset: readable in CI logs and pasted issues. */
export const DEFAULT_WIDTH = 100;

export interface TerminalOptions {
  /** Characters per line; default no limit (one table, lines unwrapped). */
  width?: number;
  /** One table with every column, however wide. */
  wide?: boolean;
  /** Wrap failed-request cells and lines in ANSI red (a terminal that shows colour). */
  color?: boolean;
}

const RED = (s: string) => `\x1b[31m${s}\x1b[0m`;

export function renderTerminalTable(view: RunView, options: TerminalOptions = {}): string {
  const width = options.width ?? Infinity;
  const red = options.color ? RED : (s: string) => s;
  const lines: string[] = [];
  const below: string[] = [];
  // A run with arms leads with its A/B verdict: the answer to "did the change make it slower?".
  const lead = abLeadLines(view);
  if (lead.length > 0) {
    lines.push('A/B:', ...lead.flatMap((g) => wrap(`  ${g.mark} ${g.line}`, width)));
    const stopped = stoppingLine(view);
    if (stopped) lines.push(...wrap(`  ${stopped}`, width));
    lines.push('');
  }
  // A run that ended before any repetition finished has no rows: one sentence, not two empty tables.
  if (view.modes.length === 0) below.push(NO_MEASUREMENTS);
  else {
    lines.push(fitColumns(resultColumns(view, red), width, options.wide ?? false));
    below.push(
      `${LATENCY_NOTE} rps: achieved/target. Overhead: p50 against the baseline mode in the same run.`,
      ...analysisTextLines(view),
    );
  }
  const paths = pathNotes(view);
  if (paths.length > 0) below.push('', `${PATH_HEADING}:`, ...paths.map((p) => `  - ${p.mode}: ${p.text}`));
  const errors = errorNotes(view);
  if (errors.length > 0) below.push('', 'Failed requests:', ...errors.map((n) => `  - ${red(n)}`));
  const notes = invalidNotes(view);
  if (notes.length > 0) below.push('', 'Invalid repetitions (reported, never compared):', ...notes.map((n) => `  - ${n}`));
  lines.push(...below.flatMap((line) => wrap(line, width)));
  lines.push('', ...verdictLines(view, width));
  return `${lines.join('\n')}\n`;
}

function resultColumns(view: RunView, red: (s: string) => string): Column[] {
  const rows = view.modes;
  const label = intervalLabel(view);
  const columns: Column[] = [
    { header: 'mode', cells: rows.map((r) => r.mode), essential: true, left: true },
    ...(view.profiles.length > 1 ? [{ header: 'profile', cells: rows.map((r) => r.profile), essential: true, left: true }] : []),
    { header: 'p50', cells: rows.map((r) => latencyCell(r, 'p50')), essential: true },
    ...(label ? [{ header: `p50 ${label}`, cells: rows.map((r) => intervalCell(r, 'p50') ?? '—'), essential: false }] : []),
    { header: 'p90', cells: rows.map((r) => latencyCell(r, 'p90')), essential: false },
    { header: 'p99', cells: rows.map((r) => latencyCell(r, 'p99')), essential: true },
    { header: 'max', cells: rows.map((r) => latencyCell(r, 'max')), essential: false },
    { header: 'rps', cells: rows.map(formatRps), essential: true },
    { header: 'errors', cells: rows.map((r) => (r.errors.failures > 0 ? red(formatErrors(r)) : formatErrors(r))), essential: true },
    {
      header: 'overhead',
      // The baseline row says so here: the column it is the zero of, and no wider mode names.
      cells: rows.map((r) => (r.isBaseline ? 'baseline' : (overheadText(r, false) ?? '—'))),
      essential: true,
    },
    ...(label
      ? [
          {
            // Below 6 repetitions the interval of a median is the range of its values, labelled so.
            header: `overhead ${label}`,
            cells: rows.map((r) => (r.isBaseline ? '—' : (overheadInterval(r) ?? '—'))),
            essential: false,
          },
        ]
      : []),
    { header: 'valid', cells: rows.map((r) => `${r.valid}/${r.repetitions}`), essential: true },
  ];
  return columns;
}

/** Lines under the terminal table: how the CIs were made, every gate line, MDE, notes. */
function analysisTextLines(view: RunView): string[] {
  const a = analysisLines(view);
  if (!a) return [];
  const lines = [a.intervals];
  if (a.rounds) lines.push(a.rounds);
  if (a.gates.length > 0) lines.push('', 'Gates:', ...a.gates.map((g) => `  ${g.mark} ${g.line}`));
  if (a.detectability) lines.push('', a.detectability);
  if (a.notes.length > 0) lines.push('', 'Notes:', ...a.notes.map((n) => `  - ${n}`));
  return lines;
}

/** Wraps at spaces, continuation lines indented under the text (after a leading "  - " or "  ✓ "). */
export function wrap(line: string, width: number): string[] {
  if (visibleWidth(line) <= width) return [line];
  const indent = ' '.repeat(Math.min(/^\s*(?:[-✓✗⚠–?]\s+)?/.exec(line)![0].length, 8));
  const out: string[] = [];
  let current = '';
  for (const word of line.split(/(?<=\S) (?=\S)/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && visibleWidth(candidate) > width) {
      out.push(current);
      current = `${indent}${word.trimStart()}`;
    } else current = candidate;
  }
  if (current) out.push(current);
  return out;
}

/** "Verdict: FAIL" and one line per reason, cut at the width; the full reasons are in summary.md. */
function verdictLines(view: RunView, width: number): string[] {
  // Gate lines are printed above in full; the verdict adds only the reasons that are not.
  const gates = view.gates.map((g) => g.result);
  const reasons = reasonsBesideGates(view.reasons, gates);
  const counted = (decision: 'fail' | 'inconclusive', what: string) => {
    const n = gates.filter((g) => g.decision === decision && !g.reportOnly).length;
    return n > 0 ? [`${n} gate${n > 1 ? 's' : ''} ${what}`] : [];
  };
  if (reasons.length < view.reasons.length)
    reasons.unshift(...counted('fail', 'failed (above)'), ...counted('inconclusive', 'inconclusive (⚠ above)'));
  const head = `Verdict: ${view.verdict === 'inconclusive' ? '⚠ ' : ''}${view.verdict.toUpperCase()}`;
  if (reasons.length === 0) return [head];
  if (reasons.length === 1 && visibleWidth(`${head} — ${reasons[0]}`) <= width) return [`${head} — ${reasons[0]}`];
  let cut = false;
  const lines = reasons.map((reason) => {
    const line = `  - ${reason}`;
    if (visibleWidth(line) <= width) return line;
    cut = true;
    return `${[...line].slice(0, Math.max(10, width - 1)).join('')}…`;
  });
  return [`${head}:`, ...lines, ...(cut ? ['  (full reasons in summary.md and report.html)'] : [])];
}
