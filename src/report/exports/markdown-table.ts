// A markdown table of the export matrix, with each mode's change against the baseline in
// parentheses (the comparison the source benchmark's readers make by eye). Pure.
import type { RunView } from '../view.ts';
import { text as escapeCell } from '../markdown-kit.ts';
import { exportTables, formatG } from './matrix.ts';

export function renderMarkdownTable(view: RunView): string {
  return `${exportTables(view)
    .map((table) => {
      const header = `| ${table.targetRps !== null ? `${table.profile} (${table.targetRps} rps)` : table.profile} | ${table.modes.map((m) => escapeCell(table.invalidModes.includes(m) ? `${m} ⚠ invalid` : m)).join(' | ')} |`;
      const align = `|---|${table.modes.map(() => '---:').join('|')}|`;
      const rows = table.rows.map((row) => {
        // The overhead every other output shows: paired by interleaved block, not a ratio of the medians.
        const cells = row.values.map((v, i) => {
          if (v === null) return '–';
          const overhead = row.overheads[i];
          const delta =
            overhead === null || overhead === undefined ? '' : ` (${overhead >= 0 ? '+' : '−'}${Math.abs(overhead * 100).toFixed(1)}%)`;
          return `${formatG(v)}${delta}`;
        });
        return `| ${row.label} | ${cells.join(' | ')} |`;
      });
      return [header, align, ...rows].join('\n');
    })
    .join(
      '\n\n',
    )}\n\nLatency in ms, median over valid repetitions (Max: the largest of any); in parentheses: overhead vs \`${view.baseline}\`, paired by interleaved block.\n`;
}
