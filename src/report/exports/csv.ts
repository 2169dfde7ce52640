// CSV in the ambient source benchmark's layout: a few "key: value" header lines, a blank line, then a header
// row with a leading empty cell and a trailing comma, and rows p50/p90/p99/Max. Pure.
import type { RunView } from '../view.ts';
import { exportTables, formatG } from './matrix.ts';

export interface CsvOptions {
  /** The "Run time:" / "Load profile:" preamble (default true, as the source benchmark has it). */
  preamble?: boolean;
}

export function renderCsv(view: RunView, options: CsvOptions = {}): string {
  const blocks = exportTables(view).map((table) => {
    const lines: string[] = [];
    if (options.preamble ?? true) {
      lines.push(`Run time: ${view.run.startedAt}`);
      lines.push(`Suite: ${view.run.suite}`);
      lines.push(`Load profile: ${table.profile}${table.targetRps !== null ? ` (${table.targetRps} rps)` : ''}`);
      if (table.invalidModes.length) lines.push(`Invalid (no valid repetition): ${table.invalidModes.join(' ')}`);
      lines.push('');
    }
    lines.push(`,${table.modes.map(csvCell).join(',')},`);
    for (const row of table.rows) lines.push(`${row.label},${row.values.map(formatG).join(',')},`);
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
