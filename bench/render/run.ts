// Benchmark (not a test): does rendering a run grow linearly with its repetitions? Each output of
// the report path (terminal table, summary.md, report.html, the csv/md/txt exports, and reading
// the results file back) timed on synthetic runs of two modes with 1k, 10k and 100k repetitions
// each, and the ratio between sizes: ×10 repetitions should cost about ×10 time (a quadratic step
// shows as ×100). The reference is the smallest size, measured in this run.
//   npx tsx bench/render/run.ts [--sizes 1000,10000,100000] [--rounds 3]
// Each figure is the process's CPU time (user + system, so garbage collection counts) for one
// render, the best of --rounds: on a shared machine wall time measures the other tenants (at a load
// average of 20 on 2 cores a render waits 10× its CPU time); on an idle one the two agree.
import { readFileSync } from 'node:fs';
import { renderCsv } from '../../src/report/exports/csv.ts';
import { renderMarkdownTable } from '../../src/report/exports/markdown-table.ts';
import { renderTextTable } from '../../src/report/exports/text-table.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { parseResultsJson } from '../../src/results/migrate.ts';
import type { RunResult } from '../../src/results/types.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { syntheticRun } from '../../test/analysis/synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const sizes = arg('sizes', '1000,10000,100000').split(',').map(Number);
const rounds = Number(arg('rounds', '3'));
/** The bounds: ×10 repetitions within ×12 time, and the largest size under 2 s per output. */
const MAX_GROWTH = 12;
const MAX_SECONDS = 2;

const chartJs = await loadChartJsSource();
const outputs: [string, (run: RunResult, json: string) => string | RunResult][] = [
  ['terminal', (run) => renderTerminalTable(buildRunView(run), { width: 100 })],
  ['summary.md', (run) => renderSummaryMarkdown(buildRunView(run))],
  ['report.html', (run) => renderHtmlReport(buildRunView(run), { chartJs: { inline: chartJs } })],
  ['results.csv', (run) => renderCsv(buildRunView(run))],
  ['results.md', (run) => renderMarkdownTable(buildRunView(run))],
  ['results.txt', (run) => renderTextTable(buildRunView(run))],
  ['read results.json', (_, json) => parseResultsJson(json, 'bench')],
];

function syntheticOf(n: number): RunResult {
  const levels = Array.from({ length: n }, (_, i) => 1 + (i % 7) / 100 + (i % 13) / 1000);
  return syntheticRun({ levels: { baseline: levels, sidecar: levels.map((l) => l * 1.3) } });
}

const seconds = new Map<string, number[]>();
for (const n of sizes) {
  // Rendered from the results file read back, as `mesh-perf report --results` does (objects built
  // by JSON.parse, not by the synthetic generator).
  const json = JSON.stringify(syntheticOf(n));
  const run = parseResultsJson(json, 'bench');
  for (const [name, render] of outputs) {
    let best = Number.POSITIVE_INFINITY;
    for (let r = 0; r < rounds; r++) {
      const started = process.cpuUsage();
      render(run, json);
      const used = process.cpuUsage(started);
      best = Math.min(best, (used.user + used.system) / 1e6);
    }
    seconds.set(name, [...(seconds.get(name) ?? []), best]);
  }
}

const fmt = (s: number) => (s >= 1 ? s.toFixed(2) : s.toFixed(3));
const header = ['output', ...sizes.map((n) => `${n} reps (s)`), ...sizes.slice(1).map((n, i) => `×${n / sizes[i]!} reps: time ×`)];
const rows = [...seconds].map(([name, times]) => [
  name,
  ...times.map(fmt),
  ...times.slice(1).map((t, i) => (t / Math.max(times[i]!, 1e-6)).toFixed(1)),
]);
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(`render CPU time per output, two modes of N repetitions each, best of ${rounds}; load average ${load}\n`);
console.log(alignTable([header, ...rows]));
const last = sizes.length - 1;
const over = [...seconds].filter(([, t]) => t[last]! > MAX_SECONDS || (last > 0 && t[last]! / Math.max(t[last - 1]!, 1e-6) > MAX_GROWTH));
console.log(
  over.length === 0
    ? `\nevery output within ${MAX_SECONDS} s at ${sizes[last]} and within ×${MAX_GROWTH} growth for the last ×10`
    : `\nover the bound (${MAX_SECONDS} s, ×${MAX_GROWTH}): ${over.map(([n]) => n).join(', ')}`,
);
