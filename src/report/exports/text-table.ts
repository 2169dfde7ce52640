// A plain-text table of the export matrix, like the source benchmark's conv_results converts its CSV: boxed
// with + - |, numbers right-aligned. Pure.
import type { RunView } from '../view.ts';
import { exportTables, formatG } from './matrix.ts';

export function renderTextTable(view: RunView): string {
  return `${exportTables(view)
    .map((table) => {
      const title = `${view.run.suite} · ${table.profile} · latency ms (median of valid repetitions)`;
      const rows = [
        ['', ...table.modes.map((m) => (table.invalidModes.includes(m) ? `${m} (invalid)` : m))],
        ...table.rows.map((r) => [r.label, ...r.values.map(formatG)]),
      ];
      return `${title}\n${boxTable(rows)}`;
    })
    .join('\n\n')}\n`;
}

/** First row is the header; first column left-aligned, the others right-aligned. */
export function boxTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const line = (row: string[]) =>
    `|${row.map((cell, c) => ` ${c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)} `).join('|')}|`;
  return [rule, line(rows[0]!), rule, ...rows.slice(1).map(line), rule].join('\n');
}
