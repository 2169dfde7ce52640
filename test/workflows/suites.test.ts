// A PR gate finds its reference in history only under its own suite: every shipped workflow (and
// README's pair) that benchmarks pull requests must read a suite the publishing workflow writes,
// or it stays green forever saying "no comparable results". And the two workflows that can comment
// on one PR (pr-gate.yml, the fork-safe pair) never share one sticky comment or both run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { commentMarker } from '../../src/github/comment-body.ts';
import { findPreset } from '../../src/presets/index.ts';
import { workflowExamples } from './doc-examples.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** The suite a use reads when it names none: the config file's `suite:` (default `default`). */
const CONFIG_SUITE = "the config file's suite";

type Uses = { uses?: string; with?: Record<string, unknown>; strategy?: { matrix?: Record<string, unknown> } };
type Workflow = { name?: string; on: unknown; jobs: Record<string, Uses & { if?: string; steps?: Uses[] }> };

interface SuiteUse {
  suite: string;
  publishes: boolean;
}

/** Every benchmark or publish this workflow does, with the suite it reads or writes. */
function suiteUses(workflow: Workflow): SuiteUse[] {
  const found: SuiteUse[] = [];
  for (const job of Object.values(workflow.jobs)) {
    const matrix = job.strategy?.matrix ?? {};
    const candidates: Uses[] = job.uses ? [job] : (job.steps ?? []);
    for (const use of candidates) {
      const target = use.uses ?? '';
      const reusable = /^org\/mesh-perf-action\/\.github\/workflows\/(mesh-perf(-publish)?)\.yml@/.exec(target);
      const action = /^org\/mesh-perf-action@/.test(target);
      if (!reusable && !action) continue;
      const publishes = reusable ? reusable[1] === 'mesh-perf-publish' : String(use.with?.publish) === 'true';
      for (const suite of suitesOf(use.with ?? {}, matrix)) found.push({ suite, publishes });
    }
  }
  return found;
}

function suitesOf(inputs: Record<string, unknown>, matrix: Record<string, unknown>): string[] {
  const suite = inputs.suite;
  if (typeof suite === 'string' && suite !== '') {
    const fromMatrix = /^\$\{\{\s*matrix\.(\w+)\s*\}\}$/.exec(suite);
    if (!fromMatrix) return [suite];
    const values = matrix[fromMatrix[1]!];
    const include = (matrix.include as Record<string, unknown>[] | undefined) ?? [];
    return Array.isArray(values) ? values.map(String) : include.map((row) => String(row[fromMatrix[1]!]));
  }
  if (typeof inputs.preset === 'string' && inputs.preset !== '') {
    const preset = findPreset(inputs.preset);
    assert.ok(preset, `unknown preset ${inputs.preset}`);
    return [String(preset.config.suite ?? 'default')];
  }
  return [CONFIG_SUITE];
}

const onPullRequest = (workflow: Workflow) =>
  typeof workflow.on === 'string' ? workflow.on === 'pull_request' : Object.keys(workflow.on as object).includes('pull_request');

function checkAgreement(label: string, workflows: { file: string; workflow: Workflow }[]): void {
  const published = new Set(
    workflows.flatMap(({ workflow }) =>
      suiteUses(workflow)
        .filter((u) => u.publishes)
        .map((u) => u.suite),
    ),
  );
  assert.ok(published.size > 0, `${label}: some workflow publishes`);
  let gates = 0;
  for (const { file, workflow } of workflows.filter(({ workflow }) => onPullRequest(workflow))) {
    for (const use of suiteUses(workflow)) {
      gates++;
      assert.ok(
        published.has(use.suite),
        `${label}: ${file} reads suite ${JSON.stringify(use.suite)}, but only ${[...published].map((s) => JSON.stringify(s)).join(', ')} is published: its comparison with history would never find a run`,
      );
    }
  }
  assert.ok(gates > 0, `${label}: some workflow benchmarks pull requests`);
}

const shipped = ['daily.yml', 'pr-gate.yml', 'fork-safe-benchmark.yml', 'fork-safe-comment.yml', 'mesh-matrix.yml'].map((f) => ({
  file: `workflows/${f}`,
  workflow: parse(readFileSync(join(ROOT, 'workflows', f), 'utf8')) as Workflow,
}));

test("every shipped PR workflow reads a suite that daily.yml (or mesh-matrix.yml) publishes: the config's", () => {
  checkAgreement('workflows/', shipped);
  for (const { file, workflow } of shipped.filter(({ workflow }) => onPullRequest(workflow)))
    assert.deepEqual(
      suiteUses(workflow).map((u) => u.suite),
      [CONFIG_SUITE],
      `${file}: the one documented default is the config's suite`,
    );
});

test("README's daily trend and PR gate read and write the same suite", () => {
  const readme = workflowExamples(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((example) => ({
    file: `README.md:${example.line}`,
    workflow: parse(example.text) as Workflow,
  }));
  checkAgreement('README.md', readme);
});

test('pr-gate.yml and the fork-safe pair: one benchmark and one comment per PR, each keyed by its own workflow', () => {
  const byFile = Object.fromEntries(shipped.map(({ file, workflow }) => [file, workflow]));
  const gate = byFile['workflows/pr-gate.yml']!;
  const forkBench = byFile['workflows/fork-safe-benchmark.yml']!;
  const forkComment = byFile['workflows/fork-safe-comment.yml']!;
  // A same-repository PR is pr-gate.yml's: the fork-safe benchmark skips it, and the commenter skips a skipped run.
  assert.equal(forkBench.jobs.benchmark?.if, 'github.event.pull_request.head.repo.full_name != github.repository');
  assert.match(String(forkComment.jobs.comment?.if), /workflow_run\.conclusion != 'skipped'/);
  // The commenter's workflow_run names the benchmark workflow, whose marker differs from the gate's.
  assert.deepEqual((forkComment.on as { workflow_run: { workflows: string[] } }).workflow_run.workflows, [forkBench.name]);
  const gateMarker = commentMarker('default', gate.name);
  const forkMarker = commentMarker('default', forkBench.name);
  assert.notEqual(gateMarker, forkMarker);
  assert.equal(gateMarker, '<!-- mesh-perf:sticky-comment suite=default workflow=mesh-perf-pr-gate -->');
  // Without a workflow (the CLI, an old comment) the marker is the suite's alone.
  assert.equal(commentMarker('default'), '<!-- mesh-perf:sticky-comment suite=default -->');
});
