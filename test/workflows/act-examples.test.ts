// The copyable examples in workflows/ (daily.yml and pr-gate.yml as README shows them: its blocks
// are those files, test/docs/readme-workflows.test.ts) and the setup/ and comment/ sub-actions, copied unchanged
// into a caller repository and run by a real workflow engine (act) with `org/mesh-perf-action@v1`
// fetched by git from a local server where v1 is this build: pr-gate.yml on a PR that changes a
// mode (A/B), daily.yml on schedule, pr-gate.yml on a PR that changes nothing (compared with the
// daily run), the fork-safe pair (pull_request half, then the workflow_run half with
// the first run's artifact and a payload whose conclusion disagrees with it), and setup@v1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commentMarker } from '../../src/github/comment-body.ts';
import { isRunFile } from '../../src/history/layout.ts';
import { startGitHubApi, type GitHubApi } from '../support/github-api.ts';
import {
  ACT,
  artifactFiles,
  CALLER_REPO,
  createCaller,
  createWorld,
  historyFiles,
  K6,
  localConfig,
  prPayload,
  ROOT,
  runAct,
  tail,
  workflowText,
  type World,
} from './act/harness.ts';
import { workflowExamples, workflowExampleTexts } from './doc-examples.ts';
// @ts-expect-error: a plain .mjs script without types
import { readmeExampleOf } from '../../scripts/docs-reference.mjs';

const TOKEN = 'ghs_actexamples0123456789';

/**
 * README's block for a shipped workflow, as a user copies it from the page: the file from its
 * `name:` on, less the jobs a config turns on (scripts/docs-reference.mjs README_EXAMPLES).
 */
async function readmeWorkflow(path: string): Promise<string> {
  const shown = readmeExampleOf(path, (p: string) => readFileSync(join(ROOT, p), 'utf8')).trimEnd();
  const block = workflowExamples(await readFile(join(ROOT, 'README.md'), 'utf8')).find((e) => e.text.trimEnd() === shown);
  assert.ok(block, `README.md shows ${path} as shipped`);
  return block.text;
}
const FORK_HEAD = 'f'.repeat(40);
let world: World;
let api: GitHubApi;

before(async () => {
  assert.ok(existsSync(ACT), `act is not at ${ACT}: run bash scripts/install-test-tools.sh act`);
  world = await createWorld('examples');
  api = await startGitHubApi({
    // A private repository, and a token without contents: read (the fork-safe commenter grants
    // actions: read and pull-requests: write): listing a commit's PRs answers 403 there.
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', write: true, contents: false } },
    repositories: { [CALLER_REPO]: { defaultBranch: 'main', private: true } },
    pulls: {
      [CALLER_REPO]: [
        {
          number: 9,
          state: 'open',
          head: { sha: FORK_HEAD, ref: 'patch-1', repo: { full_name: 'stranger/app' } },
          base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: CALLER_REPO } },
        },
      ],
    },
  });
});

after(async () => {
  await api?.close();
  await world?.close();
});

test("workflows/pr-gate.yml on a PR that slows a mode down: the base commit's config makes two arms, and the comment leads with head vs base", {
  timeout: 600_000,
}, async () => {
  const abConfig = (delay: string) =>
    [
      'platform: local',
      'modes:',
      '  - { name: baseline }',
      `  - { name: one-hop, local: { hops: 1, delay: ${delay} } }`,
      'load: { rate: 20, duration: 1s, warmup: 0s }',
      '',
    ].join('\n');
  const caller = await createCaller(world, 'pr-ab', {
    'mesh-perf.yaml': abConfig('0ms'),
    '.github/workflows/pr-gate.yml': await readmeWorkflow('workflows/pr-gate.yml'),
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: caller, encoding: 'utf8' }).trim();
  const baseSha = git('rev-parse', 'HEAD');
  await writeFile(join(caller, 'mesh-perf.yaml'), abConfig('3ms'));
  git('commit', '--quiet', '-am', 'one-hop: 3 ms slower');
  const run = await runAct({
    world,
    caller,
    workflow: 'pr-gate.yml',
    event: 'pull_request',
    payload: prPayload(6, { headSha: git('rev-parse', 'HEAD'), baseSha }),
    token: TOKEN,
    apiUrl: api.url,
    runId: 403,
  });
  // The head arm is 3 ms slower than the base arm: the A/B gate fails the job.
  assert.equal(run.code, 1, tail(run.output));
  assert.match(
    run.output,
    /A\/B from the PR base's mesh-perf\.yaml \([0-9a-f]{7}\): mode one-hop runs as two arms, base and head \(local\.delay "0ms" → "3ms"\)/,
  );
  const comments = api.comments.filter((c) => c.issue === 6);
  assert.equal(comments.length, 1, tail(run.output));
  const body = comments[0]!.body;
  assert.match(body, /\*\*A\/B\*\*/);
  assert.match(body, /one-hop head vs base: p50 \+[\d.]+%.*→ fail/);
  assert.ok(body.indexOf('**A/B**') < body.indexOf('| mode'), 'the comment leads with the A/B verdict');
  assert.match(body, /<summary>A\/B arms from the base config: 1 mode<\/summary>/);
  assert.match(body, /one-hop-base/);
  assert.match(body, /one-hop-head/);
});

test("workflows/daily.yml (README's daily example): benchmark then publish to the history branch on a schedule", {
  timeout: 600_000,
}, async () => {
  const caller = await createCaller(world, 'daily', {
    'mesh-perf.yaml': localConfig(),
    '.github/workflows/daily.yml': await readmeWorkflow('workflows/daily.yml'),
  });
  const run = await runAct({
    world,
    caller,
    workflow: 'daily.yml',
    event: 'schedule',
    payload: { schedule: '17 3 * * *' },
    token: TOKEN,
    apiUrl: api.url,
    runId: 402,
  });
  assert.equal(run.code, 0, tail(run.output, 120));
  assert.deepEqual(await artifactFiles(world, 402).then((f) => f.filter((x) => x.endsWith('results.json'))), [
    'mesh-perf-results/results.json',
  ]);
  // The suite pr-gate.yml and the fork-safe pair read: the config's (default `default`).
  const published = historyFiles(world, 'gh-pages').filter((f) => isRunFile(f, 'default'));
  assert.equal(published.length, 1, `one run of suite default on gh-pages:\n${historyFiles(world, 'gh-pages').join('\n')}`);
});

// After daily.yml (above) published a run of suite default: a PR whose config changes nothing is
// compared with that run, not left with "no comparable results".
test("workflows/pr-gate.yml (README's PR gate) on a PR that changes no setting: benchmark, the artifact, one sticky comment, compared with the daily run", {
  timeout: 600_000,
}, async () => {
  const caller = await createCaller(world, 'pr-gate', {
    'mesh-perf.yaml': localConfig(),
    '.github/workflows/pr-gate.yml': await readmeWorkflow('workflows/pr-gate.yml'),
  });
  // The PR changes a file other than the config: the base commit's config is read and equal.
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: caller, encoding: 'utf8' }).trim();
  const baseSha = git('rev-parse', 'HEAD');
  await writeFile(join(caller, 'NOTES.md'), 'not a benchmark setting\n');
  git('add', 'NOTES.md');
  git('commit', '--quiet', '-m', 'notes');
  const run = await runAct({
    world,
    caller,
    workflow: 'pr-gate.yml',
    event: 'pull_request',
    payload: prPayload(5, { headSha: git('rev-parse', 'HEAD'), baseSha }),
    token: TOKEN,
    apiUrl: api.url,
    runId: 401,
  });
  assert.equal(run.code, 0, tail(run.output));
  // The base branch's daily run is the reference (the PR's base commit itself was never measured).
  assert.match(run.output, /A\/B from the PR base's mesh-perf\.yaml \([0-9a-f]{7}\): no mode differs/);
  assert.match(run.output, /base reference: 1 run\(s\) of main from /);
  assert.doesNotMatch(run.output, /no comparable results/);
  assert.deepEqual((await artifactFiles(world, 401)).sort(), [
    'mesh-perf-results/report.html',
    'mesh-perf-results/results.json',
    'mesh-perf-results/summary.md',
  ]);
  const comments = api.comments.filter((c) => c.issue === 5);
  assert.equal(comments.length, 1);
  // The config's suite, the one daily.yml publishes; the marker is keyed by it and by this workflow.
  assert.match(comments[0]!.body, /suite `default`/);
  assert.ok(comments[0]!.body.includes(commentMarker('default', 'mesh-perf PR gate')));
  // It points readers at the artifact, which the example uploads (above). (The link itself needs an
  // https run URL; GITHUB_SERVER_URL is a file:// URL here.)
  assert.match(comments[0]!.body, /Results and HTML report \(artifact\)/);
  assert.match(comments[0]!.body, /- base reference: main \(latest 1\), 1 run\(s\)/);
});

test("the fork-safe pair: the workflow_run half comments from the artifact, and a failed run never shows its artifact's pass", {
  timeout: 600_000,
}, async () => {
  const caller = await createCaller(world, 'fork-safe', {
    // Its own suite: daily.yml (above) published suite default to this world's gh-pages, and a
    // comparison with it would make the artifact's verdict inconclusive (1 vs 1 repetitions). This
    // test is about GitHub's conclusion outranking an artifact that says pass.
    'mesh-perf.yaml': localConfig(['suite: fork-safe']),
    '.github/workflows/fork-safe-benchmark.yml': await workflowText('workflows/fork-safe-benchmark.yml'),
    '.github/workflows/fork-safe-comment.yml': await workflowText('workflows/fork-safe-comment.yml'),
  });
  // Part 1, a fork's pull request: its token cannot write, so nothing is written to the PR.
  const readOnly = 'ghs_forkreadonly0123456789';
  const forkApi = await startGitHubApi({ tokens: { [readOnly]: { login: 'github-actions[bot]', type: 'Bot', write: false } } });
  try {
    const bench = await runAct({
      world,
      caller,
      workflow: 'fork-safe-benchmark.yml',
      event: 'pull_request',
      payload: prPayload(9, { headRepo: 'stranger/app', headSha: FORK_HEAD }),
      token: readOnly,
      apiUrl: forkApi.url,
      runId: 501,
    });
    assert.equal(bench.code, 0, tail(bench.output));
    assert.equal(forkApi.writes().length, 0);
  } finally {
    await forkApi.close();
  }
  assert.ok((await artifactFiles(world, 501)).includes('mesh-perf-results/results.json'));

  // Part 2, on the default branch, for that run. GitHub says the run failed; the artifact says pass.
  const workflowRun = (conclusion: string) => ({
    action: 'completed',
    workflow_run: {
      id: 501,
      name: 'mesh-perf fork-safe benchmark',
      head_sha: FORK_HEAD,
      head_branch: 'patch-1',
      head_repository: { full_name: 'stranger/app' },
      event: 'pull_request',
      conclusion,
      html_url: `https://github.test/${CALLER_REPO}/actions/runs/501`,
      pull_requests: [],
    },
    repository: { full_name: CALLER_REPO, default_branch: 'main' },
  });
  const failed = await runAct({
    world,
    caller,
    workflow: 'fork-safe-comment.yml',
    event: 'workflow_run',
    payload: workflowRun('failure'),
    token: TOKEN,
    apiUrl: api.url,
    runId: 502,
  });
  assert.equal(failed.code, 0, tail(failed.output));
  const comment = () => api.comments.filter((c) => c.issue === 9);
  assert.equal(comment().length, 1);
  assert.ok(!comment()[0]!.body.includes('✅'), `a failed run shows no pass:\n${comment()[0]!.body}`);
  assert.match(comment()[0]!.body, /⚠️ \*\*invalid run\*\*/);
  assert.match(comment()[0]!.body, /The benchmark run concluded failure, but its results artifact says pass/);
  // Keyed by the benchmark's workflow, not the commenter's: the comment belongs to that check.
  assert.ok(comment()[0]!.body.includes(commentMarker('fork-safe', 'mesh-perf fork-safe benchmark')));
  // The private repository refused the commit lookup; the open-PR list found #9.
  assert.ok(api.requests.some((r) => r.status === 403 && r.path === `/repos/${CALLER_REPO}/commits/${FORK_HEAD}/pulls`));

  // The same artifact with GitHub saying the run succeeded: now it is a pass, in the same comment.
  const passed = await runAct({
    world,
    caller,
    workflow: 'fork-safe-comment.yml',
    event: 'workflow_run',
    payload: workflowRun('success'),
    token: TOKEN,
    apiUrl: api.url,
    runId: 503,
  });
  assert.equal(passed.code, 0, tail(passed.output));
  assert.equal(comment().length, 1, 'updated in place');
  assert.match(comment()[0]!.body, /✅ \*\*pass\*\*/);
});

test('setup@v1 puts the pinned tools on PATH from cache-dir and reports their paths', { timeout: 300_000 }, async () => {
  const cacheDir = join(world.dir, 'tool-cache');
  await mkdir(join(cacheDir, 'k6', '1.4.2'), { recursive: true });
  // Already in cache-dir (as actions/cache would restore it): used as is, no download.
  await symlink(K6, join(cacheDir, 'k6', '1.4.2', 'k6'));
  const workflow = `name: tools
on: push
permissions: {}
jobs:
  tools:
    runs-on: ubuntu-latest
    steps:
      - id: tools
        uses: org/mesh-perf-action/setup@v1
        with:
          tools: k6
          cache-dir: ${cacheDir}
      - run: k6 version
      - env:
          PATHS: \${{ steps.tools.outputs.paths }}
          VERSIONS: \${{ steps.tools.outputs.versions }}
        run: echo "paths=$PATHS versions=$VERSIONS"
`;
  const caller = await createCaller(world, 'setup', { '.github/workflows/tools.yml': workflow });
  const run = await runAct({
    world,
    caller,
    workflow: 'tools.yml',
    event: 'push',
    payload: { ref: 'refs/heads/main', repository: { full_name: CALLER_REPO, default_branch: 'main' } },
    token: TOKEN,
    apiUrl: api.url,
    runId: 601,
  });
  assert.equal(run.code, 0, tail(run.output));
  assert.match(run.output, /k6 v1\.4\.2/);
  assert.ok(run.output.includes(`paths={"k6":"${join(cacheDir, 'k6', '1.4.2', 'k6')}"} versions={"k6":"1.4.2"}`), tail(run.output));
});

// docs/action.md's reusable-workflow example as a user pastes it (read from the page, so it cannot
// drift), run by act with a local mesh-perf.yaml. README's examples are daily.yml and pr-gate.yml,
// run above. Left out, each for a reason the engine cannot get past: the setup example creates a
// kind cluster (Docker), and the comment example needs a results artifact from another run (the
// fork-safe pair above runs that sub-action).
test("docs/action.md's reusable-workflow example runs as pasted", { timeout: 900_000 }, async () => {
  const examples = workflowExampleTexts(await readFile(join(ROOT, 'docs/action.md'), 'utf8')).map((e) => ({
    ...e,
    line: `docs/action.md:${e.line}`,
  }));
  const found = examples.filter((e) => /mesh-perf-publish\.yml@v1/.test(e.text));
  assert.equal(found.length, 1, `one documented example calls mesh-perf-publish.yml: ${found.map((e) => e.line).join(', ')}`);
  const example = found[0]!;
  const readmeRuns = () => historyFiles(world, 'gh-pages').filter((f) => isRunFile(f, 'readme')).length;
  const before = readmeRuns();
  const caller = await createCaller(world, `docs-${example.line.replace(/[^a-z0-9]+/gi, '-')}`, {
    'mesh-perf.yaml': localConfig(['suite: readme']),
    '.github/workflows/example.yml': example.text,
  });
  const payload = { ref: 'refs/heads/main', repository: { full_name: CALLER_REPO, default_branch: 'main' } };
  const run = await runAct({
    world,
    caller,
    workflow: 'example.yml',
    event: 'workflow_dispatch',
    payload,
    token: TOKEN,
    apiUrl: api.url,
    runId: 701,
  });
  assert.equal(run.code, 0, `${example.line}:\n${tail(run.output)}`);
  assert.equal(readmeRuns(), before + 1, 'one more run of suite readme on gh-pages');
});
