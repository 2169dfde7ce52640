// A markdown table of the export matrix, with each mode's change against the baseline in
// parentheses (the comparison the source benchmark's readers make by eye). Pure.
import type { RunResult } from '../../results/types.ts';
import { exportTables, formatG } from './matrix.ts';

export function renderMarkdownTable(result: RunResult): string {
  return `${exportTables(result)
    .map((table) => {
      const baseIndex = table.modes.indexOf(result.baseline);
      const header = `| ${table.targetRps !== null ? `${table.profile} (${table.targetRps} rps)` : table.profile} | ${table.modes.map((m) => escapeCell(table.invalidModes.includes(m) ? `${m} ⚠ invalid` : m)).join(' | ')} |`;
      const align = `|---|${table.modes.map(() => '---:').join('|')}|`;
      const rows = table.rows.map((row) => {
        const base = baseIndex >= 0 ? row.values[baseIndex] : null;
        const cells = row.values.map((v, i) => {
          if (v === null) return '–';
          const delta = base && i !== baseIndex ? ` (${v >= base ? '+' : '−'}${Math.abs((v / base - 1) * 100).toFixed(1)}%)` : '';
          return `${formatG(v)}${delta}`;
        });
        return `| ${row.label} | ${cells.join(' | ')} |`;
      });
      return [header, align, ...rows].join('\n');
    })
    .join('\n\n')}\n\nLatency in ms, median over valid repetitions; in parentheses: change vs \`${result.baseline}\`.\n`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
