// Writes report.html next to results.json. The pipeline calls this once per run; it is the only
// I/O around the pure renderer.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunView } from '../view.ts';
import { loadChartJsSource } from './chartjs-source.ts';
import { renderHtmlReport } from './render.ts';

export const REPORT_FILE = 'report.html';

/** Renders the standalone report (Chart.js inlined) into `dir`/report.html; returns the path. */
export async function writeHtmlReport(view: RunView, dir: string): Promise<string> {
  const html = renderHtmlReport(view, { chartJs: { inline: await loadChartJsSource() } });
  const path = join(dir, REPORT_FILE);
  await writeFile(path, html, 'utf8');
  return path;
}
