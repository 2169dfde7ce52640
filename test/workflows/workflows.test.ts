// The repository's workflows (.github/workflows/), the caller examples users copy (workflows/)
// and the composite sub-actions: actionlint clean, and the security rules of the issue: no
// expression inside run:, third-party actions pinned by full SHA, checkout without persisted
// credentials, no pull_request_target, explicit permissions, publishing only from trusted runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { documentationPages, workflowExampleTexts } from './doc-examples.ts';
import { checkWorkflowText, type Finding } from './workflow-rules.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ACTIONLINT = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'mesh-perf',
  'tools',
  'actionlint',
  '1.7.12',
  'actionlint',
);

const yamlIn = (dir: string) =>
  existsSync(join(ROOT, dir))
    ? readdirSync(join(ROOT, dir))
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(dir, f))
    : [];
const WORKFLOWS = [...yamlIn('.github/workflows'), ...yamlIn('workflows')];
const ACTIONS = ['action.yml', 'setup/action.yml', 'comment/action.yml'];

test('the workflows and examples exist', () => {
  for (const file of [
    '.github/workflows/mesh-perf.yml',
    '.github/workflows/mesh-perf-publish.yml',
    '.github/workflows/ci.yml',
    'workflows/daily.yml',
    'workflows/pr-gate.yml',
    'workflows/fork-safe-benchmark.yml',
    'workflows/fork-safe-comment.yml',
    'workflows/mesh-matrix.yml',
  ]) {
    assert.ok(WORKFLOWS.includes(file), `${file} is missing`);
  }
});

test('actionlint is clean over .github/workflows and workflows/', { timeout: 60_000 }, async () => {
  assert.ok(existsSync(ACTIONLINT), `actionlint 1.7.12 is not at ${ACTIONLINT}: run bash scripts/install-test-tools.sh`);
  const result = await new Promise<{ code: number | null; out: string }>((done) => {
    execFile(ACTIONLINT, ['-no-color', ...WORKFLOWS], { cwd: ROOT, timeout: 50_000 }, (error, stdout, stderr) =>
      done({ code: error ? (error.code as number) : 0, out: stdout + stderr }),
    );
  });
  assert.equal(result.code, 0, result.out);
});

test("README's and docs' examples, each as the workflow a user would paste them into, are actionlint clean", {
  timeout: 60_000,
}, async () => {
  const examples = documentationPages(ROOT).flatMap((page) =>
    workflowExampleTexts(readFileSync(join(ROOT, page), 'utf8')).map((example) => ({ ...example, page })),
  );
  assert.ok(examples.length >= 5, `examples found: ${examples.map((e) => `${e.page}:${e.line}`).join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
  try {
    mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
    const files = examples.map((example) => {
      const file = join('.github', 'workflows', `${example.page.replace(/[/.]/g, '-')}-line-${example.line}.yml`);
      writeFileSync(join(dir, file), example.text);
      return file;
    });
    const result = await new Promise<{ code: number | null; out: string }>((done) => {
      execFile(ACTIONLINT, ['-no-color', ...files], { cwd: dir, timeout: 50_000 }, (error, stdout, stderr) =>
        done({ code: error ? (error.code as number) : 0, out: stdout + stderr }),
      );
    });
    assert.equal(result.code, 0, `documentation examples (file name = page and line):\n${result.out}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };
type Job = { if?: string; uses?: string; permissions?: Record<string, string>; steps: Step[] };
const readWorkflow = (file: string) =>
  parse(readFileSync(join(ROOT, file), 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, Job> };

test('the reusable workflows run the action of their own commit, never a moving tag', () => {
  for (const file of ['.github/workflows/mesh-perf.yml', '.github/workflows/mesh-perf-publish.yml']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    assert.ok(
      !/^[ \t-]*uses:\s*org\/mesh-perf-action[@/]/m.test(text),
      `${file} must not call org/mesh-perf-action@<tag>: a caller pinned to a SHA would still run the tag`,
    );
    for (const [id, job] of Object.entries(readWorkflow(file).jobs)) {
      const at = job.steps.findIndex((step) => step.uses === './.mesh-perf-action');
      assert.ok(at > 0, `${file} jobs.${id} runs ./.mesh-perf-action`);
      const checkout = job.steps
        .slice(0, at)
        .find((step) => step.uses?.startsWith('actions/checkout@') && step.with?.path === '.mesh-perf-action');
      assert.deepEqual(
        checkout?.with,
        {
          repository: '${{ job.workflow_repository }}',
          ref: '${{ job.workflow_sha }}',
          path: '.mesh-perf-action',
          'persist-credentials': false,
        },
        `${file} jobs.${id} checks the action out at job.workflow_sha`,
      );
      const guard = job.steps.slice(0, at).find((step) => step.env?.WORKFLOW_SHA === '${{ job.workflow_sha }}');
      assert.match(
        guard?.run ?? '',
        /-z "\$WORKFLOW_SHA"/,
        `${file} jobs.${id} refuses an empty job.workflow_sha (else checkout would take the caller's repository)`,
      );
    }
  }
});

test('a runner that leaves job.workflow_* empty gets one error line saying which runner and what to use instead', () => {
  for (const file of ['.github/workflows/mesh-perf.yml', '.github/workflows/mesh-perf-publish.yml']) {
    for (const job of Object.values(readWorkflow(file).jobs)) {
      const guard = job.steps.find((step) => step.env?.WORKFLOW_SHA === '${{ job.workflow_sha }}')!;
      const run = (vars: Record<string, string>) =>
        spawnSync('bash', ['-e', '-c', guard.run!], { env: { PATH: process.env.PATH ?? '', ...vars }, encoding: 'utf8' });
      const empty = run({
        WORKFLOW_REPOSITORY: '',
        WORKFLOW_SHA: '',
        RUNNER_ENVIRONMENT: 'self-hosted',
        GITHUB_SERVER_URL: 'https://ghes.example',
      });
      assert.equal(empty.status, 1);
      const lines = empty.stdout.trimEnd().split('\n');
      assert.equal(lines.length, 1, `${file}: one line:\n${empty.stdout}`);
      assert.match(
        lines[0]!,
        /^::error::job\.workflow_repository \/ job\.workflow_sha are empty on this self-hosted runner of https:\/\/ghes\.example: .*needs actions\/runner 2\.334\.0 or later .*GitHub Enterprise Server and older self-hosted runners do not.*Call the action directly instead \(uses: org\/mesh-perf-action@<ref>/,
      );
      const filled = run({ WORKFLOW_REPOSITORY: 'org/mesh-perf-action', WORKFLOW_SHA: 'a'.repeat(40) });
      assert.equal(filled.status, 0, filled.stdout + filled.stderr);
      assert.equal(filled.stdout, '');
    }
  }
});

test('the reusable benchmark workflow forwards every action input a benchmark needs, under the same name', () => {
  // Deliberately not inputs of mesh-perf.yml, each for a reason a caller can act on.
  const notForwarded: Record<string, string> = {
    kubeconfig: 'a secret of the workflow, not an input',
    'kubeconfig-file': 'the kubeconfig secret replaces a file on the runner',
    token: "the job's own GITHUB_TOKEN with the permissions the caller grants",
    publish: 'publishing is mesh-perf-publish.yml',
    adopt: 'publishing is mesh-perf-publish.yml (its adopt input)',
    'change-point': 'the change-point gate runs on publish: mesh-perf-publish.yml (its change-point input)',
    'publish-results': 'publishing is mesh-perf-publish.yml',
    'confirm-change-point': 'confirming a change point is mesh-perf-confirm.yml',
    'history-store': "read from the caller's config (history.store); a URL with credentials does not belong in an input",
  };
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
  const bench = readWorkflow('.github/workflows/mesh-perf.yml');
  const inputs = (bench.on.workflow_call as { inputs: Record<string, unknown> }).inputs;
  const withs = bench.jobs.benchmark!.steps.find((s) => s.uses === './.mesh-perf-action')!.with ?? {};
  for (const name of Object.keys(action.inputs)) {
    if (name in notForwarded) continue;
    assert.ok(name in inputs, `mesh-perf.yml has no input "${name}" (an action input)`);
    assert.equal(withs[name], `\${{ inputs.${name} }}`, `mesh-perf.yml does not pass inputs.${name} to the action`);
  }
});

test('publishing is a separate reusable workflow: a PR-only caller grants no contents: write', () => {
  const bench = readWorkflow('.github/workflows/mesh-perf.yml');
  // GitHub checks every job's permissions of a called workflow when the run starts, whatever the
  // job's if: says, so no job of mesh-perf.yml may ask for contents: write.
  for (const [id, job] of Object.entries(bench.jobs)) {
    assert.notEqual(job.permissions?.contents, 'write', `mesh-perf.yml jobs.${id} asks for contents: write`);
    for (const [scope, level] of Object.entries(job.permissions ?? {}))
      assert.ok(level === 'read' || scope === 'pull-requests', `mesh-perf.yml jobs.${id}: ${scope}: ${level}`);
  }
  assert.equal(bench.jobs.benchmark!.steps.find((s) => s.uses === './.mesh-perf-action')?.with?.publish, 'false');
  assert.ok(
    !('publish' in (bench.on.workflow_call as { inputs: Record<string, unknown> }).inputs),
    'no publish input left on the benchmark workflow',
  );

  const pub = readWorkflow('.github/workflows/mesh-perf-publish.yml');
  const job = pub.jobs.publish!;
  assert.equal(job.permissions?.contents, 'write');
  for (const needle of ["github.event_name == 'schedule'", "github.event_name == 'push'", "github.event_name == 'workflow_dispatch'"])
    assert.ok(job.if?.includes(needle), `publish job condition mentions ${needle}`);
  assert.ok(!job.if?.includes('pull_request'), 'no PR event can publish');
  assert.ok(!job.if?.includes('default_branch'), "the default branch is the action's check (schedule payloads lack it)");
  assert.deepEqual(
    job.steps.filter((s) => s.run !== undefined).map((s) => Object.keys(s.env ?? {})),
    [['WORKFLOW_REPOSITORY', 'WORKFLOW_SHA']],
    'the only shell step is the guard',
  );
  const action = job.steps.find((s) => s.uses === './.mesh-perf-action')!;
  assert.equal(action.with?.config, '${{ inputs.config }}', "the publish step reads the caller's config (history.keep, store, branch)");
  assert.ok(action.with?.['publish-results']);
  // A history branch that already holds a docs site is published to only when the caller says so.
  assert.equal(action.with?.adopt, '${{ inputs.adopt }}');
  assert.ok('adopt' in (pub.on.workflow_call as { inputs: Record<string, unknown> }).inputs);

  // Callers: those triggered by pull requests never reference the publish workflow nor grant contents: write.
  for (const file of WORKFLOWS.filter((f) => f.startsWith('workflows/'))) {
    const wf = readWorkflow(file);
    const onPr = 'pull_request' in (wf.on ?? {});
    for (const [id, caller] of Object.entries(wf.jobs)) {
      if (caller.uses?.includes('/.github/workflows/mesh-perf-publish.yml@')) {
        assert.ok(!onPr, `${file} runs on pull requests and must not publish`);
        assert.equal(caller.permissions?.contents, 'write', `${file} jobs.${id} grants the publish workflow contents: write`);
      } else if (onPr)
        assert.notEqual(caller.permissions?.contents, 'write', `${file} jobs.${id}: a PR workflow grants no contents: write`);
    }
    const text = readFileSync(join(ROOT, file), 'utf8');
    if (onPr) assert.ok(!/publish(-results)?:\s*(true|'true')/.test(text), `${file} runs on pull requests and must not publish`);
  }
});

test('the fork-safe commenter never checks out or runs pull request code', () => {
  const wf = parse(readFileSync(join(ROOT, 'workflows/fork-safe-comment.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    jobs: Record<string, { permissions: Record<string, string>; steps: { uses?: string; run?: string; with?: Record<string, unknown> }[] }>;
  };
  assert.ok('workflow_run' in wf.on);
  const job = Object.values(wf.jobs)[0]!;
  assert.deepEqual(job.permissions, { actions: 'read', 'pull-requests': 'write' });
  assert.ok(!job.steps.some((s) => s.uses?.startsWith('actions/checkout') || s.run !== undefined), 'no checkout, no shell step');
  assert.equal(
    job.steps.find((s) => s.uses?.startsWith('actions/download-artifact'))?.with?.['run-id'],
    '${{ github.event.workflow_run.id }}',
  );
  assert.ok(job.steps.some((s) => s.uses === 'org/mesh-perf-action/comment@v1'));
});

test('every documented example and copyable workflow that runs a benchmark uploads the artifact its summary links to', () => {
  const sources = [
    ...documentationPages(ROOT).flatMap((page) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m, i) => ({
        name: `${page} yaml block ${i + 1}`,
        text: m[1]!,
      })),
    ),
    ...WORKFLOWS.filter((f) => f.startsWith('workflows/')).map((f) => ({ name: f, text: readFileSync(join(ROOT, f), 'utf8') })),
  ];
  let checked = 0;
  for (const { name, text } of sources) {
    const doc = parse(text) as { jobs?: Record<string, { steps?: Step[] }> } | null;
    for (const [id, job] of Object.entries(doc?.jobs ?? {})) {
      const steps = job.steps ?? [];
      steps.forEach((step, i) => {
        // The benchmark mode of the action (not its sub-actions, not publish-results).
        if (!/^org\/mesh-perf-action@/.test(step.uses ?? '') || step.with?.['publish-results']) return;
        checked++;
        const stepId = (step as { id?: string }).id;
        assert.ok(stepId, `${name} jobs.${id}: the mesh-perf step needs an id to upload its results-dir`);
        const upload = steps.slice(i + 1).find((s) => s.uses?.startsWith('actions/upload-artifact@'));
        assert.ok(
          upload,
          `${name} jobs.${id}: no actions/upload-artifact step after mesh-perf (the summary and comment link to the artifact)`,
        );
        assert.match(
          String(upload.with?.path),
          new RegExp(`steps\\.${stepId}\\.outputs\\.results-dir`),
          `${name} jobs.${id}: the upload takes the results-dir output`,
        );
        assert.match(String((upload as { if?: string }).if), /always\(\)/, `${name} jobs.${id}: upload also when the gate failed`);
      });
    }
  }
  // README's PR gate, workflows/pr-gate.yml and fork-safe-benchmark.yml at least (README's daily calls the reusable workflow).
  assert.ok(checked >= 3, `checked ${checked} benchmark steps`);
});

test('the confirm workflow is read-only and the daily example runs it only when a publish raised a change point to confirm', () => {
  const confirm = readWorkflow('.github/workflows/mesh-perf-confirm.yml');
  for (const [id, job] of Object.entries(confirm.jobs))
    for (const [scope, level] of Object.entries(job.permissions ?? {}))
      assert.equal(level, 'read', `mesh-perf-confirm.yml jobs.${id}: ${scope}: ${level}`);
  const step = confirm.jobs.confirm!.steps.find((s) => s.uses === './.mesh-perf-action')!;
  assert.equal(step.with?.['confirm-change-point'], '${{ inputs.change-point }}');
  const daily = readWorkflow('workflows/daily.yml');
  assert.match(String(daily.jobs.confirm!.if), /needs\.publish\.outputs\.change-point-to-confirm == 'true'/);
  assert.deepEqual(daily.jobs.confirm!.permissions, { contents: 'read' });
  assert.equal((daily.jobs.record as { with?: Record<string, string> }).with?.['artifact-name'], 'mesh-perf-confirmation');
  const publish = readWorkflow('.github/workflows/mesh-perf-publish.yml');
  assert.equal(
    (publish.on.workflow_call as { outputs: Record<string, { value: string }> }).outputs['change-point-to-confirm']!.value,
    '${{ jobs.publish.outputs.change-point-to-confirm }}',
  );
});
