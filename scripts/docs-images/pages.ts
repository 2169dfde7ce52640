// The pages the pictures in docs/images/ are screenshots of, written as HTML into a folder: the
// demo's report.html and the job summary (from a real demo run), the PR comment (from a real A/B
// run whose head arm was slower), and the trend dashboard of a store seeded with synthetic daily
// runs, published by the real `mesh-perf publish`. Each page comes from the product's own
// renderers, so a picture shows what a user gets.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderComment } from '../../src/github/comment-body.ts';
import { renderJobSummary, type ReportLinks } from '../../src/github/job-summary.ts';
import { writeHtmlReport } from '../../src/report/html/write.ts';
import { buildRunView } from '../../src/report/view.ts';
import { parseResultsJson } from '../../src/results/migrate.ts';
import { githubMarkdownPage } from './github-markdown.ts';
import { seededRuns } from './seed-runs.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const IMAGES_DIR = join(ROOT, 'docs', 'images');
export const INPUTS = {
  demo: 'docs/images/inputs/demo.results.json',
  prAb: 'docs/images/inputs/pr-ab.results.json',
} as const;

/** What one picture shows: a page, the browser's width, and which part of it. */
export interface Picture {
  file: string;
  /** The page, relative to the folder the pages were written to. */
  page: string;
  width: number;
  /** A CSS selector whose box is the picture, or the top of the page down to this many pixels. */
  capture: { selector: string } | { height: number };
}

export const PICTURES: Picture[] = [
  { file: 'report.png', page: 'report/report.html', width: 1120, capture: { height: 1400 } },
  { file: 'dashboard.png', page: 'store/index.html', width: 1100, capture: { height: 940 } },
  { file: 'pr-comment.png', page: 'pr-comment.html', width: 900, capture: { selector: '.frame' } },
  { file: 'job-summary.png', page: 'job-summary.html', width: 900, capture: { selector: '.frame' } },
];

// Links as a workflow run would have them; the pictures show only their text.
const LINKS: ReportLinks = {
  runUrl: 'https://github.com/acme/shop/actions/runs/1',
  artifactUrl: 'https://github.com/acme/shop/actions/runs/1/artifacts/2',
  dashboardUrl: 'https://acme.github.io/shop/',
};

function load(path: string) {
  return parseResultsJson(readFileSync(join(ROOT, path), 'utf8'), path);
}

/** Writes every page of PICTURES into `dir`. */
export async function writePages(dir: string): Promise<void> {
  const demo = buildRunView(load(INPUTS.demo));
  const prAb = buildRunView(load(INPUTS.prAb));
  mkdirSync(join(dir, 'report'), { recursive: true });
  await writeHtmlReport(demo, join(dir, 'report'));
  writeFileSync(
    join(dir, 'pr-comment.html'),
    githubMarkdownPage(renderComment({ view: prAb, links: LINKS }).body, { kind: 'comment', author: 'github-actions' }, 860),
  );
  writeFileSync(
    join(dir, 'job-summary.html'),
    githubMarkdownPage(renderJobSummary({ view: demo, links: LINKS }), { kind: 'summary', job: 'mesh-perf' }, 860),
  );
  publishSeededStore(dir);
}

/** Publishes the seeded runs into `dir`/store with the CLI from the sources, as a user's `mesh-perf publish` would. */
function publishSeededStore(dir: string): void {
  const runs = join(dir, 'runs');
  for (const run of seededRuns()) {
    mkdirSync(join(runs, run.run.id), { recursive: true });
    writeFileSync(join(runs, run.run.id, 'results.json'), JSON.stringify(run));
  }
  // Every timeline kept: retention by age would depend on today's date, and the picture should not.
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'src/cli.ts'),
    'publish',
    '--results',
    runs,
    '--store',
    join(dir, 'store'),
    '--keep-timelines',
    'all',
  ];
  const published = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (published.status !== 0) throw new Error(`mesh-perf publish exited ${published.status}:\n${published.stdout}${published.stderr}`);
}
