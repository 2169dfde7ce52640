// What a newcomer copies from README (issue 54): its workflow examples are the shipped callers of
// workflows/, byte for byte (scripts/docs-reference.mjs writes them, `npm run build`), so they are
// as strong as those: the job that runs the user's config never holds contents: write, every job
// has a timeout, the workflow a concurrency group. README says what `org` and `@v1` are before the
// first example, how big GitHub's runners are, and how to run the CLI by name. actionlint runs over
// them in test/workflows/workflows.test.ts; act runs them in test/workflows/act-examples.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { workflowExamples } from '../workflows/doc-examples.ts';
// @ts-expect-error: a plain .mjs script without types
import { README_EXAMPLES, readmeExampleOf } from '../../scripts/docs-reference.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const readme = read('README.md');
const SHIPPED = ['workflows/daily.yml', 'workflows/pr-gate.yml'];

type Job = {
  uses?: string;
  steps?: { uses?: string; with?: Record<string, unknown> }[];
  permissions?: Record<string, string>;
  'timeout-minutes'?: number;
  with?: Record<string, unknown>;
};

test("README's workflow examples are workflows/daily.yml and workflows/pr-gate.yml as shipped, each once, less their header comment and the jobs a config turns on", () => {
  const examples = workflowExamples(readme).map((e) => e.text);
  assert.deepEqual(
    examples.map((text) => `${text.trimEnd()}\n`),
    SHIPPED.map((path) => `${readmeExampleOf(path, read)}\n`),
    'README.md differs from workflows/: run `npm run build` (scripts/docs-reference.mjs) and commit',
  );
  // What README leaves out is only what does nothing without a setting: the header comment, and
  // jobs that run only when mesh-perf.yaml's confirm section raises a change point to confirm.
  for (const { path, optInJobs } of README_EXAMPLES) {
    const shipped = parse(read(path)) as { jobs: Record<string, Job & { if?: string; needs?: string }> };
    const shown = parse(examples[SHIPPED.indexOf(path)]!) as { jobs: Record<string, Job> };
    assert.deepEqual(
      Object.keys(shown.jobs),
      Object.keys(shipped.jobs).filter((name) => !optInJobs.includes(name)),
      path,
    );
    for (const name of optInJobs) {
      const job = shipped.jobs[name]!;
      assert.match(
        `${job.if} ${job.needs}`,
        /change-point-to-confirm|confirmation|confirm/,
        `${path} jobs.${name} runs without a confirm section`,
      );
    }
  }
  assert.match(readme, /as shipped, less its opt-in jobs that \[confirm a change point\]/);
});

test("README's examples: the job that runs the config only reads, every job has a timeout, each workflow a concurrency group", () => {
  for (const { text, line } of workflowExamples(readme)) {
    const workflow = parse(text) as { permissions?: unknown; concurrency?: unknown; jobs: Record<string, Job> };
    assert.ok(workflow.concurrency, `README.md:${line}: no concurrency group`);
    assert.deepEqual(workflow.permissions, {}, `README.md:${line}: top-level permissions are {} (each job says what it needs)`);
    for (const [id, job] of Object.entries(workflow.jobs)) {
      const where = `README.md:${line} jobs.${id}`;
      const runsConfig =
        /\/mesh-perf\.yml@/.test(job.uses ?? '') ||
        (job.steps ?? []).some((s) => /mesh-perf-action@/.test(s.uses ?? '') && !s.with?.['publish-results']);
      if (runsConfig) assert.notEqual(job.permissions?.contents, 'write', `${where} runs the config and holds contents: write`);
      // A reusable workflow's job takes its timeout as an input (mesh-perf.yml's timeout-minutes).
      const timeout =
        job['timeout-minutes'] ?? job.with?.['timeout-minutes'] ?? (/mesh-perf-publish\.yml@/.test(job.uses ?? '') ? 15 : undefined);
      assert.ok(typeof timeout === 'number' && timeout <= 120, `${where}: no timeout (GitHub's default is 6 hours)`);
    }
  }
  // mesh-perf-publish.yml's own job timeout, which the check above relies on.
  const publish = parse(read('.github/workflows/mesh-perf-publish.yml')) as { jobs: Record<string, Job> };
  assert.ok(Object.values(publish.jobs).every((j) => typeof j['timeout-minutes'] === 'number' && j['timeout-minutes'] <= 15));
});

test('README says what `org` and `@v1` are, and how big the runners are, before the first workflow example', () => {
  const before = readme.slice(0, readme.indexOf('```yaml'));
  assert.match(before, /`org\/mesh-perf-action` stands for the repository this action lives in: replace\s+`org` with its owner/);
  assert.match(
    before,
    /`@v1` is the action's major release tag; it exists once the first release is\s+cut, and until then it resolves to nothing/,
  );
  assert.match(before, /pin a commit\s+instead/);
  assert.match(before, /public\s+repositories get 4-vCPU runners, private ones 2 vCPUs/);
});

test("README's quick start runs the CLI the ways a user can: npx in a clone, npm install -g once published", () => {
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## A daily run'));
  assert.match(quickStart, /^npx mesh-perf demo\b/m);
  assert.match(quickStart, /^npx mesh-perf init && npx mesh-perf plan\b/m);
  assert.match(quickStart, /`npm install -g mesh-perf`/);
  assert.match(quickStart, /until the first release no package exists/);
  // The package the quick start names is the one package.json builds.
  assert.equal(JSON.parse(read('package.json')).name, 'mesh-perf');
  assert.equal(JSON.parse(read('package.json')).bin['mesh-perf'], 'dist/cli.js');
});

test('README explains its table: what "plain k6" is, and what the figures it cites are, without the project\'s own jargon', () => {
  assert.doesNotMatch(readme, /\bThe seeds\b/);
  assert.match(readme, /"plain k6" is the same overhead measured by a minimal k6 script from the same\s+pods/);
  assert.match(readme, /The published benchmarks\s+the \[presets\]\(docs\/presets\.md[^)]*\) reproduce give/);
});
