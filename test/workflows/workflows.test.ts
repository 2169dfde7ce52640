// The repository's workflows (.github/workflows/), the caller examples users copy (workflows/)
// and the composite sub-actions: actionlint clean, and the security rules of the issue: no
// expression inside run:, third-party actions pinned by full SHA, checkout without persisted
// credentials, no pull_request_target, explicit permissions, publishing only from trusted runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { checkWorkflowText, type Finding } from './workflow-rules.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ACTIONLINT = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mesh-perf', 'tools', 'actionlint', '1.7.12', 'actionlint');

const yamlIn = (dir: string) => (existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir)).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(dir, f)) : []);
const WORKFLOWS = [...yamlIn('.github/workflows'), ...yamlIn('workflows')];
const ACTIONS = ['action.yml', 'setup/action.yml', 'comment/action.yml'];

test('the workflows and examples exist', () => {
  for (const file of ['.github/workflows/mesh-perf.yml', '.github/workflows/ci.yml', 'workflows/daily.yml', 'workflows/pr-gate.yml', 'workflows/fork-safe-benchmark.yml', 'workflows/fork-safe-comment.yml', 'workflows/mesh-matrix.yml']) {
    assert.ok(WORKFLOWS.includes(file), `${file} is missing`);
  }
});

test('actionlint is clean over .github/workflows and workflows/', { timeout: 60_000 }, async () => {
  assert.ok(existsSync(ACTIONLINT), `actionlint 1.7.12 is not at ${ACTIONLINT}: run bash scripts/install-test-tools.sh`);
  const result = await new Promise<{ code: number | null; out: string }>((done) => {
    execFile(ACTIONLINT, ['-no-color', ...WORKFLOWS], { cwd: ROOT, timeout: 50_000 }, (error, stdout, stderr) => done({ code: error ? (error.code as number) : 0, out: stdout + stderr }));
  });
  assert.equal(result.code, 0, result.out);
});

test('every workflow and composite action follows the security rules', () => {
  const findings: Finding[] = [
    ...WORKFLOWS.flatMap((f) => checkWorkflowText(f, readFileSync(join(ROOT, f), 'utf8'), 'workflow')),
    ...ACTIONS.flatMap((f) => checkWorkflowText(f, readFileSync(join(ROOT, f), 'utf8'), 'action')),
  ];
  assert.deepEqual(findings, []);
});

test('the rules catch injection, unpinned actions, persisted credentials and pull_request_target', () => {
  const bad = `
on:
  pull_request_target:
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020
      - run: echo "\${{ github.event.pull_request.title }}"
      - name: looks harmless
        run: |
          echo start
          echo \${{ inputs.modes }}
      - uses: docker://alpine:3
`;
  const rules = checkWorkflowText('bad.yml', bad, 'workflow').map((f) => `${f.rule} ${f.where}`);
  assert.deepEqual(rules.sort(), [
    'expression-in-run jobs.x.steps[2]',
    'expression-in-run jobs.x.steps[3] (looks harmless)',
    'no-permissions top level',
    'persisted-credentials jobs.x.steps[0]',
    'pull-request-target on',
    'unpinned-action jobs.x.steps[0]',
    'unpinned-action jobs.x.steps[4]',
  ]);
  const action = 'runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: node x.js ${{ inputs.results }}\n';
  assert.equal(checkWorkflowText('a.yml', action, 'action')[0]?.rule, 'expression-in-run');
});

test('publishing to history happens only in a job that runs no repository code, on trusted events of the default branch', () => {
  const reusable = parse(readFileSync(join(ROOT, '.github/workflows/mesh-perf.yml'), 'utf8')) as { jobs: Record<string, { if?: string; permissions?: Record<string, string>; steps: { uses?: string; with?: Record<string, unknown> }[] }> };
  const bench = reusable.jobs.benchmark!;
  assert.equal(bench.permissions?.contents, 'read', 'the job that runs repository code cannot write contents');
  assert.equal(bench.steps.find((s) => s.uses?.startsWith('org/mesh-perf-action@'))?.with?.publish, 'false');
  const pub = reusable.jobs.publish!;
  assert.equal(pub.permissions?.contents, 'write');
  assert.ok(!pub.steps.some((s) => s.uses?.startsWith('actions/checkout')), 'the publish job checks out nothing');
  for (const needle of ["github.event_name == 'schedule'", "github.event_name == 'push'", 'default_branch', 'inputs.publish']) assert.ok(pub.if?.includes(needle), `publish job condition mentions ${needle}`);
  assert.ok(!pub.if?.includes('pull_request'), 'no PR event can publish');
  // The examples triggered by pull requests never ask to publish.
  for (const file of WORKFLOWS) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (/^\s+pull_request:/m.test(text) || /^on:\s*pull_request/m.test(text)) assert.ok(!/publish(-results)?:\s*(true|'true')/.test(text), `${file} runs on pull requests and must not publish`);
  }
});

test('the fork-safe commenter never checks out or runs pull request code', () => {
  const wf = parse(readFileSync(join(ROOT, 'workflows/fork-safe-comment.yml'), 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, { permissions: Record<string, string>; steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }> };
  assert.ok('workflow_run' in wf.on);
  const job = Object.values(wf.jobs)[0]!;
  assert.deepEqual(job.permissions, { actions: 'read', 'pull-requests': 'write' });
  assert.ok(!job.steps.some((s) => s.uses?.startsWith('actions/checkout') || s.run !== undefined), 'no checkout, no shell step');
  assert.equal(job.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))?.with?.['run-id'], '${{ github.event.workflow_run.id }}');
  assert.ok(job.steps.some((s) => s.uses === 'org/mesh-perf-action/comment@v1'));
});
