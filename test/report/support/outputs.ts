// Every output a run is rendered into, by golden file name, and the stored runs the golden and
// cross-output tests render (test/report/outputs-golden.test.ts, outputs-agree.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseResultsJson } from '../../../src/results/migrate.ts';
import type { RunResult } from '../../../src/results/types.ts';
import { renderTerminalTable } from '../../../src/report/terminal.ts';
import { renderSummaryMarkdown } from '../../../src/report/summary-markdown.ts';
import { buildRunView } from '../../../src/report/view.ts';
import { renderJobSummary } from '../../../src/github/job-summary.ts';
import { renderComment } from '../../../src/github/comment-body.ts';
import { renderHtmlReport } from '../../../src/report/html/render.ts';
import { indexEntryFor } from '../../../src/history/suite-index.ts';
import { renderSourceFormats } from '../../../src/report/formats/index.ts';
import { SOURCE_FORMATS, type SourceFormatName } from '../../../src/presets/format-names.ts';
import { renderCsv } from '../../../src/report/exports/csv.ts';
import { renderMarkdownTable } from '../../../src/report/exports/markdown-table.ts';
import { renderTextTable } from '../../../src/report/exports/text-table.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** Stored runs of different shapes (see each fixture folder's README). */
export const STORED_RUNS = {
  // v2, analysed, 3 repetitions of which 2 invalid per mode: verdict invalid.
  'demo-loaded-machine': 'fixtures/results/demo-loaded-machine.results.json',
  // v1 (analysis dropped on migration), two valid repetitions per mode: verdict pass.
  'local-pass': 'github/fixtures/results-local-pass.json',
  // Two load profiles, two modes each, no analysis.
  'kyma-sidecar': 'report-formats/fixtures/kyma-sidecar.local.results.json',
  // Analysed, 6 repetitions, threshold, overhead and error gates, failed requests, one invalid repetition.
  'gated-errors': 'fixtures/results/gated-errors.results.json',
  // v4, real, A/B arms measured until decided: 3 looks, inconclusive when the budget ran out.
  'ab-arms': 'fixtures/results/ab-arms.results.json',
} as const;

export function loadStored(name: keyof typeof STORED_RUNS): RunResult {
  const path = join(ROOT, STORED_RUNS[name]);
  return parseResultsJson(readFileSync(path, 'utf8'), path);
}

const LINKS = { runUrl: 'https://github.test/o/r/actions/runs/1', artifactUrl: 'https://github.test/o/r/actions/runs/1/artifacts/2' };

/** Every rendered output of one run, by golden file name. */
export function renderAll(result: RunResult): Map<string, string> {
  const view = buildRunView(result);
  const out = new Map<string, string>([
    ['terminal.txt', renderTerminalTable(buildRunView(result), { width: 100 })],
    ['summary.md', renderSummaryMarkdown(buildRunView(result))],
    ['job-summary.md', renderJobSummary({ view, links: LINKS })],
    ['comment.md', `${renderComment({ view, links: LINKS }).body}\n`],
    [
      'report.html',
      renderHtmlReport(buildRunView(result), { chartJs: { src: 'chart.umd.min.js' }, assets: { css: 'report.css', js: 'report.js' } }),
    ],
    ['index-entry.json', `${JSON.stringify(indexEntryFor(buildRunView(result), 'runs/x/run.js', 'blob'), null, 2)}\n`],
    ['export.csv', renderCsv(buildRunView(result))],
    ['export.md', renderMarkdownTable(buildRunView(result))],
    ['export.txt', renderTextTable(buildRunView(result))],
  ]);
  const names = Object.keys(SOURCE_FORMATS) as SourceFormatName[];
  for (const format of renderSourceFormats(buildRunView(result), names)) out.set(`format-${format.name}-${format.file}`, format.content);
  return out;
}
