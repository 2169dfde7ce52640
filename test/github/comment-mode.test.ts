// The comment sub-action as the fork-safe workflow_run job runs it: the bundle's entry with
// MESH_PERF_ACTION_MODE=comment, a downloaded results artifact (untrusted), a workflow_run event
// whose pull_requests list is empty (as GitHub sends it for forks), and the REST stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startGitHubApi, type FakePull } from '../support/github-api.ts';
import { commands, runAction, runnerFiles } from './harness.ts';
import { commentMarker } from '../../src/github/comment-body.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'results-local-pass.json');
const REPO = 'octo/mesh';

function workflowRun(headSha: string, headRepo: string, event = 'pull_request', conclusion: string | null = 'success') {
  return {
    action: 'completed',
    workflow_run: {
      id: 555,
      head_sha: headSha,
      head_branch: 'patch-1',
      head_repository: { full_name: headRepo },
      event,
      conclusion,
      html_url: `https://github.test/${REPO}/actions/runs/555`,
      pull_requests: [],
    },
  };
}

function forkPull(number: number, sha: string): FakePull {
  return {
    number,
    state: 'open',
    head: { sha, ref: 'patch-1', repo: { full_name: 'stranger/mesh' } },
    base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: REPO } },
  };
}

test('the workflow_run commenter posts the fork PR comment from the artifact, escaped, and updates it on the next run', {
  timeout: 120_000,
}, async () => {
  const files = await runnerFiles('comment-mode');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const sha = randomBytes(20).toString('hex');
  const api = await startGitHubApi({
    tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    pulls: { [REPO]: [forkPull(31, sha)] },
  });
  try {
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact);
    const results = JSON.parse(await readFile(FIXTURE, 'utf8'));
    // The artifact comes from PR code: it tries to ping people, inject HTML and plant a second marker.
    results.verdict = 'fail';
    results.verdictReasons = [`@maintainers approve this ${commentMarker('other')} <script>x</script>`];
    await writeFile(join(artifact, 'results.json'), JSON.stringify(results));
    const run = () =>
      runAction({
        files,
        eventName: 'workflow_run',
        payload: workflowRun(sha, 'stranger/mesh'),
        inputs: { token, results: artifact, comment: 'always', 'dashboard-url': 'https://octo.github.io/mesh/' },
        env: { MESH_PERF_ACTION_MODE: 'comment', GITHUB_REPOSITORY: REPO, GITHUB_API_URL: api.url },
      });
    const first = await run();
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(api.comments.length, 1);
    const comment = api.comments[0]!;
    assert.equal(comment.issue, 31);
    assert.ok(comment.body.includes(commentMarker(results.run.suite)));
    assert.ok(!comment.body.includes(commentMarker('other')), 'the planted marker is escaped');
    assert.ok(!comment.body.includes('@maintainers') && !comment.body.includes('<script>'));
    assert.match(comment.body, /Results of the benchmark run for [0-9a-f]{7} from stranger\/mesh/);
    assert.ok(
      comment.body.includes('[Job summary](https://github.test/octo/mesh/actions/runs/555)'),
      'links to the benchmark run, not the commenter run',
    );
    assert.ok(comment.body.includes('[Trend dashboard](https://octo.github.io/mesh/)'));
    assert.equal(first.outputs['comment-url'], comment.html_url);
    assert.equal(first.outputs.verdict, undefined, 'the commenter sets no verdict: the gate is the benchmark job');
    assert.equal(commands(first.stdout, 'error').length, 0, 'no gate annotations from an artifact');

    const second = await run();
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(api.comments.length, 1, 'updated, not duplicated');
    assert.equal(
      api.requests.filter((r) => r.method === 'PATCH' || (r.method === 'POST' && r.path !== '/graphql')).length,
      1,
      'same body: one create, no needless update',
    );
    for (const r of api.requests) assert.ok(!JSON.stringify(r.body ?? '').includes(token));
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('the commenter posts nothing when the PR head moved on, or the run was not a PR, or the artifact is not results', {
  timeout: 120_000,
}, async () => {
  const files = await runnerFiles('comment-mode-no');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const api = await startGitHubApi({
    tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    pulls: { [REPO]: [forkPull(8, 'c'.repeat(40))] },
  });
  try {
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact);
    await copyFile(FIXTURE, join(artifact, 'results.json'));
    const env = { MESH_PERF_ACTION_MODE: 'comment', GITHUB_REPOSITORY: REPO, GITHUB_API_URL: api.url };
    const inputs = { token, results: artifact };

    const moved = await runAction({ files, eventName: 'workflow_run', payload: workflowRun('d'.repeat(40), 'stranger/mesh'), inputs, env });
    assert.equal(moved.code, 0, moved.stdout + moved.stderr);
    assert.match(moved.summary, /No PR comment was posted: no open pull request has head dddddddddddd/);

    const push = await runAction({ files, eventName: 'workflow_run', payload: workflowRun('c'.repeat(40), REPO, 'push'), inputs, env });
    assert.equal(push.code, 0);
    assert.match(commands(push.stdout, 'notice')[0]?.message ?? '', /triggered by push, not a pull request/);

    await writeFile(join(artifact, 'results.json'), JSON.stringify({ schemaVersion: 1, verdict: 'pass', modes: 'nope' }));
    const bad = await runAction({ files, eventName: 'workflow_run', payload: workflowRun('c'.repeat(40), 'stranger/mesh'), inputs, env });
    assert.equal(bad.code, 2, bad.stdout);
    assert.match(commands(bad.stdout, 'error')[0]?.message ?? '', /artifact\/results\.json:? .*(missing|has no|not look like)/);

    assert.equal(api.writes().length, 0, 'nothing was written in any of these cases');
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('a failed benchmark run whose artifact claims pass is shown as invalid, never as a pass', { timeout: 120_000 }, async () => {
  const files = await runnerFiles('comment-forged');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const sha = randomBytes(20).toString('hex');
  const api = await startGitHubApi({
    tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    pulls: { [REPO]: [forkPull(12, sha)] },
  });
  try {
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact);
    // The fixture says pass: the forged artifact of a run whose benchmark job failed.
    await copyFile(FIXTURE, join(artifact, 'results.json'));
    const env = { MESH_PERF_ACTION_MODE: 'comment', GITHUB_REPOSITORY: REPO, GITHUB_API_URL: api.url };
    const forged = await runAction({
      files,
      eventName: 'workflow_run',
      payload: workflowRun(sha, 'stranger/mesh', 'pull_request', 'failure'),
      inputs: { token, results: artifact },
      env,
    });
    assert.equal(forged.code, 0, forged.stdout + forged.stderr);
    assert.equal(api.comments.length, 1);
    const body = api.comments[0]!.body;
    assert.ok(!body.includes('✅'), `no pass mark in\n${body}`);
    assert.match(body, /· ⚠️ \*\*invalid/);
    assert.match(body, /The benchmark run concluded failure, but its results artifact says pass: shown as invalid/);
    assert.match(commands(forged.stdout, 'warning')[0]?.message ?? '', /concluded failure but the artifact claims pass/);
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('comment: on-failure brings an earlier ❌ up to date when a later run passes', { timeout: 120_000 }, async () => {
  const files = await runnerFiles('comment-stale');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const sha = randomBytes(20).toString('hex');
  const api = await startGitHubApi({
    tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    pulls: { [REPO]: [forkPull(14, sha)] },
  });
  try {
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact);
    const results = JSON.parse(await readFile(FIXTURE, 'utf8'));
    const env = { MESH_PERF_ACTION_MODE: 'comment', GITHUB_REPOSITORY: REPO, GITHUB_API_URL: api.url };
    const run = (conclusion: string) =>
      runAction({
        files,
        eventName: 'workflow_run',
        payload: workflowRun(sha, 'stranger/mesh', 'pull_request', conclusion),
        inputs: { token, results: artifact, comment: 'on-failure' },
        env,
      });

    // A pass with no earlier comment: nothing to post, nothing written.
    await writeFile(join(artifact, 'results.json'), JSON.stringify(results));
    const quiet = await run('success');
    assert.equal(quiet.code, 0, quiet.stdout + quiet.stderr);
    assert.equal(api.writes().length, 0);

    await writeFile(join(artifact, 'results.json'), JSON.stringify({ ...results, verdict: 'fail', verdictReasons: ['p(95) rose 40%'] }));
    const failed = await run('failure');
    assert.equal(failed.code, 0, failed.stdout + failed.stderr);
    assert.equal(api.comments.length, 1);
    assert.match(api.comments[0]!.body, /❌/);

    await writeFile(join(artifact, 'results.json'), JSON.stringify({ ...results, run: { ...results.run, id: `${results.run.id}-2` } }));
    const passed = await run('success');
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.equal(api.comments.length, 1, 'updated in place, not a second comment');
    assert.ok(!api.comments[0]!.body.includes('❌'), `the stale ❌ is gone:\n${api.comments[0]!.body}`);
    assert.match(api.comments[0]!.body, /✅/);
    assert.equal(passed.outputs['comment-url'], api.comments[0]!.html_url);
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});
