// `mesh-perf report`: rebuilds a history store (in place, converting an older layout in one
// commit, or as a static site in --out): every run read and stored again, the index, change points
// and pages; or renders one run's report.html and exports from its results.json.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { DirectorySink } from '../../history/directory-store.ts';
import { safeRunId } from '../../history/layout.ts';
import { readResults } from '../../history/read-results.ts';
import { storeFromFlags, storeToken } from '../../history/store-options.ts';
import { buildRunView, type RunView } from '../../report/view.ts';
import { loadChartJsSource } from '../../report/html/chartjs-source.ts';
import { renderHtmlReport } from '../../report/html/render.ts';
import { REPORT_FILE } from '../../report/html/write.ts';
import { renderCsv } from '../../report/exports/csv.ts';
import { renderMarkdownTable } from '../../report/exports/markdown-table.ts';
import { renderTextTable } from '../../report/exports/text-table.ts';
import { describeChangePoint, type SuiteChangePoint } from '../../history/change-points.ts';
import { UsageError } from '../../util/errors.ts';
import type { Command, CommandContext } from '../command.ts';
import { makeDirectory } from '../../util/make-directory.ts';

const FORMATS: Record<string, (view: RunView) => string> = {
  csv: (view) => renderCsv(view),
  md: renderMarkdownTable,
  txt: renderTextTable,
};

export const command: Command = {
  name: 'report',
  summary: 'Rebuild the dashboard and index of a history store (converting an older layout), or render one run',
  usage: 'report --store GIT-URL|DIR [--branch gh-pages] [--out DIR] | report --results FILE|DIR [--out DIR] [--format csv|md|txt]',
  options: [
    { name: 'store', value: 'URL|DIR', description: 'history store to rebuild (git URL/repository or folder)' },
    { name: 'branch', value: 'NAME', description: 'branch of a git store (default gh-pages)' },
    { name: 'keep', value: 'RETENTION', description: 'apply retention while rebuilding: "365d" or "1000runs"' },
    {
      name: 'keep-timelines',
      value: 'RETENTION',
      description: 'per-second timelines stay this long: "30d" (default), "100runs", "all" or "none"',
    },
    { name: 'adopt', description: 'rebuild into a branch/folder that already holds other files' },
    { name: 'out', value: 'DIR', description: 'write a static site (store) or the report files (results) here instead' },
    { name: 'results', value: 'PATH', description: 'results.json or run folder(s) to render', repeatable: true },
    { name: 'format', value: 'FORMAT', description: 'print one export to stdout: csv (source benchmark 003 layout), md, txt' },
  ],
  details: [
    'Store mode: without --out the store itself is rewritten (a git store gets one commit, pushed with retry).',
    'Results mode: writes report.html, results.csv, results.md and results.txt next to results.json (or into --out).',
  ].join('\n'),
  async run(context) {
    const results = context.args.lists.results ?? [];
    const store = context.args.options.store;
    if (results.length > 0 === (store !== undefined)) {
      throw new UsageError('pass either --store (rebuild a history store) or --results (render one run), not both and not neither');
    }
    return store !== undefined ? reportStore(context) : reportResults(context, results);
  },
};

async function reportStore(context: CommandContext): Promise<number> {
  const { options, switches } = context.args;
  if (options.format) throw new UsageError('--format applies to --results, not to --store');
  // Rebuilding a folder that is not there would create an empty store and report success.
  const spec = options.store!;
  if (!/^[a-z][a-z0-9+.-]*:\/\/|^git@|^[^/]+@[^/]+:/i.test(spec) && !existsSync(resolve(context.cwd, spec))) {
    throw new UsageError(
      `--store ${spec}: no such folder (${resolve(context.cwd, spec)}); pass the folder or git URL of an existing history store`,
    );
  }
  const store = storeFromFlags(
    {
      store: options.store!,
      ...(options.branch ? { branch: options.branch } : {}),
      ...(options.keep ? { keep: options.keep } : {}),
      ...(options['keep-timelines'] ? { keepTimelines: options['keep-timelines'] } : {}),
      adopt: switches.has('adopt'),
    },
    {},
    storeToken(process.env),
    context.log,
    context.cwd,
  );
  const started = performance.now();
  if (options.out) {
    const out = resolve(context.cwd, options.out);
    await makeDirectory(out, `--out ${options.out}`);
    context.log.phase(`Exporting ${store.describe()} as a static site to ${out}`);
    const summary = await store.exportSite(new DirectorySink(out));
    for (const warning of summary.warnings) context.log.warn(warning);
    context.stdout(
      `${out}: ${summary.runs} runs in ${summary.suites.length} suite(s), dashboard ${join(out, 'index.html')}, each run's report at ${join(out, 'run.html')}#run=… (${seconds(started)})\n`,
    );
    context.stdout(changePointLines(summary.changePoints));
    return 0;
  }
  context.log.phase(`Rebuilding ${store.describe()}`);
  const outcome = await store.rebuild();
  const summary = 'summary' in outcome ? outcome.summary : outcome;
  for (const warning of summary.warnings) context.log.warn(warning);
  const commit = 'commit' in outcome && outcome.commit ? `, commit ${outcome.commit.slice(0, 12)}` : '';
  const converted = summary.converted ? `, converted from history layout 1 (old run report addresses now redirect to run.html#run=…)` : '';
  context.stdout(
    `${store.describe()}: ${summary.runs} runs in ${summary.suites.length} suite(s), ${summary.written} file(s) rewritten${converted}${commit} (${seconds(started)})\n`,
  );
  context.stdout(changePointLines(summary.changePoints));
  return 0;
}

const CHANGE_POINTS_SHOWN = 20;

/** The newest change points of the store, one per line, as the dashboard lists them. */
function changePointLines(changePoints: (SuiteChangePoint & { suite: string })[]): string {
  if (changePoints.length === 0) return 'change points: none found\n';
  const shown = [...changePoints].sort((a, b) => (a.afterStartedAt < b.afterStartedAt ? 1 : -1)).slice(0, CHANGE_POINTS_SHOWN);
  const more = changePoints.length - shown.length;
  return `change points (newest first${more > 0 ? `, ${shown.length} of ${changePoints.length}` : ''}):\n${shown
    .map((cp) => `  ${cp.afterStartedAt.slice(0, 10)} ${cp.suite} · ${describeChangePoint(cp)}\n`)
    .join('')}`;
}

async function reportResults(context: CommandContext, paths: string[]): Promise<number> {
  const { options } = context.args;
  const loaded = await readResults(paths, context.cwd);
  if (options.format) {
    const render = FORMATS[options.format];
    if (!render) throw new UsageError(`--format ${JSON.stringify(options.format)} is not one of ${Object.keys(FORMATS).join(', ')}`);
    for (const { result } of loaded) context.stdout(render(buildRunView(result)));
    return 0;
  }
  const chartJs = await loadChartJsSource();
  for (const { file, result } of loaded) {
    const dir = options.out
      ? loaded.length > 1
        ? join(resolve(context.cwd, options.out), safeRunId(result.run.id))
        : resolve(context.cwd, options.out)
      : dirname(file);
    await makeDirectory(dir, options.out ? `--out ${options.out}` : dir);
    const view = buildRunView(result);
    await writeFile(join(dir, REPORT_FILE), renderHtmlReport(view, { chartJs: { inline: chartJs } }), 'utf8');
    await writeFile(join(dir, 'results.csv'), renderCsv(view), 'utf8');
    await writeFile(join(dir, 'results.md'), renderMarkdownTable(view), 'utf8');
    await writeFile(join(dir, 'results.txt'), renderTextTable(view), 'utf8');
    context.stdout(`${join(dir, REPORT_FILE)}\n`);
  }
  return 0;
}

function seconds(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}
