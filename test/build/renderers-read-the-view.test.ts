// Every output is rendered from one view of the run (src/report/view.ts), built once per front end:
// a renderer that reads RunResult computes a figure a second way and two outputs drift apart.
// Renderers: everything under src/report/ and src/site/, and the GitHub job summary, PR comment
// and annotations. Front ends (which read results.json, build the view and hand it on) are listed
// with where they build it; a new caller of buildRunView has to be one.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') ? [relative(src, path)] : [];
  });
}

/** The view's builder reads RunResult (the run, and the base runs its reference compares with); nothing that renders does. */
const BUILDERS = new Set(['report/view.ts', 'report/reference.ts']);
const GITHUB_RENDERERS = ['github/comment-body.ts', 'github/job-summary.ts', 'github/tables.ts', 'github/annotations.ts'];

/** Where the view is built, one per front end (the history store builds it per stored run it renders). */
const FRONT_ENDS = new Set([
  'pipeline.ts', // results.json's siblings: summary.md, report.html, the source formats
  'cli/run-and-report.ts', // the terminal table
  'cli/commands/report.ts', // `mesh-perf report --results`
  'github/report.ts', // job summary, PR comment, annotations, outputs
  'history/publish-plan.ts', // a published run's dashboard entry
  'history/rebuild-plan.ts', // `mesh-perf report --store`
  'history/suite-state.ts', // dashboard entries re-read from the store
  'browser/run-page-html.ts', // a stored run's page, rendered in the browser from its files
]);

const renderers = () => [
  ...filesUnder(join(src, 'report')).filter((f) => !BUILDERS.has(f)),
  ...filesUnder(join(src, 'site')),
  ...GITHUB_RENDERERS,
];

test('no renderer reads RunResult: the view is their only input', () => {
  const offenders = renderers().filter((file) => /\bRunResult\b/.test(readFileSync(join(src, file), 'utf8')));
  assert.deepEqual(offenders, [], 'render from RunView (src/report/view.ts); add what the output needs to the view');
});

test('the view is built by front ends only, never inside a renderer', () => {
  const callers = filesUnder(src).filter((file) => !BUILDERS.has(file) && /\bbuildRunView\(/.test(readFileSync(join(src, file), 'utf8')));
  assert.deepEqual(
    callers.filter((file) => !FRONT_ENDS.has(file)),
    [],
    'build the view where results.json is read (a front end) and hand it to the renderers',
  );
  // The list stays true: each front end named still builds the view.
  assert.deepEqual(
    [...FRONT_ENDS].filter((file) => !callers.includes(file)),
    [],
  );
});

test('the check can fail: a file that reads RunResult is found', () => {
  // The pattern the first test applies, on the builder that legitimately reads it.
  for (const builder of BUILDERS) assert.match(readFileSync(join(src, builder), 'utf8'), /\bRunResult\b/);
});
