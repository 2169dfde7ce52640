// The reusable workflows (.github/workflows/mesh-perf.yml and mesh-perf-publish.yml), unchanged,
// run by a real workflow engine (act) for a caller repository: on pull_request (benchmark →
// artifact → sticky comment) and on schedule (benchmark → publish with the config's history
// settings), with the caller pinned to a commit of the action repository while the v1 tag points
// elsewhere. See act/harness.ts for what is real and what is a stand-in.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import { join } from 'node:path';
import { isRunFile } from '../../src/history/layout.ts';
import { startGitHubApi, type GitHubApi } from '../support/github-api.ts';
import {
  ACT,
  actionCommit,
  artifactFiles,
  CALLER_REPO,
  commitToAction,
  createCaller,
  createSelfCaller,
  createWorld,
  ROOT,
  historyFiles,
  K6,
  localConfig,
  moveTag,
  prPayload,
  runAct,
  tail,
  type World,
} from './act/harness.ts';

const TOKEN = 'ghs_acttoken0123456789abcdef';
let world: World;
let api: GitHubApi;
let commitA: string;
let commitB: string;

before(async () => {
  assert.ok(existsSync(ACT), `act is not at ${ACT}: run bash scripts/install-test-tools.sh act`);
  assert.ok(existsSync(K6), `k6 is not at ${K6}: run bash scripts/install-test-tools.sh k6`);
  world = await createWorld('reusable');
  commitA = actionCommit(world, 'v1');
  // A later commit whose action only says which commit it is and fails; v1 now points to it.
  commitB = await commitToAction(
    world,
    async (dir) => {
      await writeFile(join(dir, 'dist', 'action.js'), "console.log('::error::this is the action of commit B');\nprocess.exit(1);\n");
    },
    'commit B',
  );
  moveTag(world, 'v1', commitB);
  api = await startGitHubApi({
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    repositories: { [CALLER_REPO]: { defaultBranch: 'main' } },
  });
});

after(async () => {
  await api?.close();
  await world?.close();
});

const prCaller = (ref: string) => `name: perf
on: pull_request
permissions: {}
jobs:
  mesh-perf:
    uses: org/mesh-perf-action/.github/workflows/mesh-perf.yml@${ref}
    # A PR-only caller: no contents: write anywhere.
    permissions: { contents: read, pull-requests: write }
    with: { config: mesh-perf.yaml, suite: pr, comment: always }
`;

test('a pull_request caller pinned to a commit runs the action of that commit (not v1): benchmark, artifact, sticky comment', {
  timeout: 600_000,
}, async () => {
  const caller = await createCaller(world, 'pr-caller', {
    'mesh-perf.yaml': localConfig(),
    '.github/workflows/perf.yml': prCaller(commitA),
  });
  const pinned = await runAct({
    world,
    caller,
    workflow: 'perf.yml',
    event: 'pull_request',
    payload: prPayload(7),
    token: TOKEN,
    apiUrl: api.url,
    runId: 101,
  });
  assert.equal(pinned.code, 0, tail(pinned.output));
  assert.ok(
    pinned.output.includes(`checkout stand-in: org/mesh-perf-action at ${commitA} is ${commitA}`),
    `the action was checked out at the pinned commit:\n${tail(pinned.output)}`,
  );
  assert.ok(!pinned.output.includes('this is the action of commit B'), 'v1 (commit B) never ran');
  assert.deepEqual((await artifactFiles(world, 101)).sort(), [
    'mesh-perf-results/report.html',
    'mesh-perf-results/results.json',
    'mesh-perf-results/summary.md',
  ]);
  const ours = api.comments.filter((c) => c.issue === 7);
  assert.equal(ours.length, 1, 'one sticky comment');
  // Keyed by the suite and the workflow the job runs in (GitHub names the caller's in a called
  // workflow; act may name the called one): one marker, with both keys.
  assert.match(ours[0]!.body, /<!-- mesh-perf:sticky-comment suite=pr workflow=[a-z0-9-]+ -->/);
  assert.match(ours[0]!.body, /✅ \*\*pass\*\*/);

  // The same caller pinned to v1 runs what v1 points to now: the pin, not a tag inside the
  // reusable workflow, decides which action code runs.
  const floating = await createCaller(world, 'pr-caller-v1', {
    'mesh-perf.yaml': localConfig(),
    '.github/workflows/perf.yml': prCaller('v1'),
  });
  const moved = await runAct({
    world,
    caller: floating,
    workflow: 'perf.yml',
    event: 'pull_request',
    payload: prPayload(8),
    token: TOKEN,
    apiUrl: api.url,
    runId: 102,
  });
  assert.notEqual(moved.code, 0);
  assert.ok(moved.output.includes(`checkout stand-in: org/mesh-perf-action at ${commitB} is ${commitB}`), tail(moved.output));
  assert.ok(moved.output.includes('this is the action of commit B'), tail(moved.output));
});

test("a scheduled caller benchmarks, then publishes with the config's history branch and retention; the schedule payload has no default branch", {
  timeout: 600_000,
}, async () => {
  const workflow = `name: nightly
on:
  schedule:
    - cron: '17 3 * * *'
permissions: {}
jobs:
  benchmark:
    uses: org/mesh-perf-action/.github/workflows/mesh-perf.yml@${commitA}
    permissions: { contents: read, pull-requests: write }
    with: { config: mesh-perf.yaml, suite: nightly }
  publish:
    needs: benchmark
    if: \${{ !cancelled() && needs.benchmark.result != 'skipped' }}
    uses: org/mesh-perf-action/.github/workflows/mesh-perf-publish.yml@${commitA}
    permissions: { contents: write }
    with: { config: mesh-perf.yaml, suite: nightly }
`;
  const config = localConfig(['suite: nightly', 'history:', '  branch: perf-history', '  keep: 1runs', '  keepTimelines: none']);
  const caller = await createCaller(world, 'nightly-caller', { 'mesh-perf.yaml': config, '.github/workflows/nightly.yml': workflow });
  // GitHub's schedule payload: no repository object, so no default_branch in it.
  const payload = { schedule: '17 3 * * *' };
  const runs: string[][] = [];
  for (const runId of [201, 202]) {
    const run = await runAct({ world, caller, workflow: 'nightly.yml', event: 'schedule', payload, token: TOKEN, apiUrl: api.url, runId });
    assert.equal(run.code, 0, tail(run.output, 120));
    assert.ok(run.output.includes(`checkout stand-in: org/mesh-perf-action at ${commitA} is ${commitA}`));
    assert.match(run.output, /default branch main \(from the API: the schedule payload does not carry it\)/);
    assert.match(run.output, /history: store \(this repository\), branch perf-history, keep 1runs, keepTimelines none/);
    assert.match(run.output, /1 run\(s\) published to /);
    const files = historyFiles(world, 'perf-history');
    runs.push(files.filter((f) => isRunFile(f, 'nightly')));
    assert.ok(runs.at(-1)!.length > 0, `run files on perf-history:\n${files.join('\n')}`);
  }
  assert.equal(runs[0]!.length, 1, `first run published: ${runs[0]}`);
  assert.equal(runs[1]!.length, 1, `history.keep: 1runs kept only the newest run: ${runs[1]}`);
  assert.notDeepEqual(runs[1], runs[0]);
  assert.deepEqual(historyFiles(world, 'gh-pages'), [], 'nothing went to the default gh-pages branch');
  assert.ok(
    api.requests.some((r) => r.method === 'GET' && r.path === `/repos/${CALLER_REPO}`),
    'the default branch was asked of the API',
  );
});

test("this project's CI job calls the reusable workflow locally and runs the action of the commit under review", {
  timeout: 600_000,
}, async () => {
  // ci.yml's reusable-workflow job as written, without its `needs:` (act would run check-dist too).
  const ci = parse(await readFile(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { jobs: Record<string, Record<string, unknown>> };
  const { needs: _needs, ...job } = ci.jobs['reusable-workflow']!;
  assert.equal(job.uses, './.github/workflows/mesh-perf.yml');
  const workflow = stringify({
    name: 'ci',
    on: { pull_request: null },
    permissions: { contents: 'read' },
    jobs: { 'reusable-workflow': job },
  });
  // The commit under review: commit A plus this workflow (main and v1 are commit B, which fails).
  const self = await createSelfCaller(world, 'under-review', commitA, { '.github/workflows/ci-reusable.yml': workflow });
  const payload = { ...prPayload(11), repository: { full_name: 'org/mesh-perf-action', default_branch: 'main' } };
  const run = await runAct({
    world,
    caller: self.dir,
    workflow: 'ci-reusable.yml',
    event: 'pull_request',
    payload,
    token: TOKEN,
    apiUrl: api.url,
    runId: 301,
  });
  assert.equal(run.code, 0, tail(run.output, 120));
  assert.ok(run.output.includes(`checkout stand-in: org/mesh-perf-action at ${self.sha} is ${self.sha}`), tail(run.output));
  assert.ok(!run.output.includes('this is the action of commit B'));
  assert.ok((await artifactFiles(world, 301)).includes('ci-reusable-results/results.json'));
});
