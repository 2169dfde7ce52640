// The Octokit-backed CommentPoster and PullLookup against the local GitHub REST stand-in: the
// sticky upsert over paginated comments, identity, permission errors, and PR resolution for the
// fork-safe workflow_run job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startGitHubApi, type FakePull } from '../support/github-api.ts';
import { OctokitGitHub } from '../../src/github/octokit-poster.ts';
import { GitHubPermissionError } from '../../src/github/permission-error.ts';
import { upsertStickyComment } from '../../src/github/sticky.ts';
import { resolvePullRequest } from '../../src/github/resolve-pr.ts';
import type { WorkflowRunInfo } from '../../src/github/event.ts';

const REPO = { owner: 'octo', repo: 'mesh' };
const token = () => `ghs_${randomBytes(12).toString('hex')}`;

test('upsert finds our marked comment on a later page, among other authors, and updates it once', async () => {
  const bot = token();
  const pat = token();
  const api = await startGitHubApi({
    tokens: { [bot]: { login: 'github-actions[bot]', type: 'Bot', write: true }, [pat]: { login: 'octocat', type: 'User', write: true } },
    maxPageSize: 2,
  });
  try {
    const marker = '<!-- mesh-perf:sticky-comment suite=s -->';
    const other = { login: 'mallory', type: 'User' as const, write: true };
    for (let i = 0; i < 4; i++) api.seedComment('octo/mesh', 3, `noise ${i}${i === 1 ? marker : ''}`, other);
    const ours = api.seedComment('octo/mesh', 3, `old\n${marker}`, { login: 'github-actions[bot]', type: 'Bot', write: true });
    const poster = new OctokitGitHub(bot, REPO, api.url);
    const outcome = await upsertStickyComment(poster, 3, marker, `new\n${marker}`);
    assert.deepEqual([outcome.action, outcome.id], ['updated', ours.id]);
    assert.equal(ours.body, `new\n${marker}`);
    assert.ok(
      api.requests.some((r) => r.path === '/repos/octo/mesh/issues/3/comments' && r.query.page === '3'),
      'our comment was on page 3',
    );
    const again = await upsertStickyComment(poster, 3, marker, `new\n${marker}`);
    assert.equal(again.action, 'unchanged', 'same body: no write');
    assert.equal(api.requests.filter((r) => r.method === 'PATCH').length, 1);

    // A PAT user is a different identity: it gets its own comment, and never edits the bot's.
    const mine = await upsertStickyComment(new OctokitGitHub(pat, REPO, api.url), 3, marker, `pat\n${marker}`);
    assert.equal(mine.action, 'created');
    assert.equal(ours.body, `new\n${marker}`);
    assert.equal(api.comments.find((c) => c.id === mine.id)!.user.login, 'octocat');
  } finally {
    await api.close();
  }
});

test('a read-only token gets a permission error that says what to change; a bad token says so too', async () => {
  const readonly = token();
  const api = await startGitHubApi({ tokens: { [readonly]: { login: 'github-actions[bot]', type: 'Bot', write: false } } });
  try {
    const poster = new OctokitGitHub(readonly, REPO, api.url);
    await assert.rejects(upsertStickyComment(poster, 9, '<!-- m -->', 'x <!-- m -->'), (error: unknown) => {
      assert.ok(error instanceof GitHubPermissionError);
      assert.match(error.message, /pull-requests: write/);
      assert.match(error.message, /fork-safe/);
      assert.ok(!error.message.includes(readonly));
      return true;
    });
    const wrong = `ghs_${'0'.repeat(24)}`;
    await assert.rejects(new OctokitGitHub(wrong, REPO, api.url).list(9), (error: unknown) => {
      assert.match((error as Error).message, /401 Bad credentials/);
      assert.ok(!(error as Error).message.includes(wrong));
      return true;
    });
  } finally {
    await api.close();
  }
});

test('the workflow_run commenter resolves the PR by head SHA, also for forks, and refuses stale or ambiguous heads', async () => {
  const t = token();
  const sameSha = 'a'.repeat(40);
  const forkSha = 'f'.repeat(40);
  const twinSha = 'e'.repeat(40);
  const pull = (number: number, sha: string, headRepo: string): FakePull => ({
    number,
    state: 'open',
    head: { sha, ref: `b${number}`, repo: { full_name: headRepo } },
    base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: 'octo/mesh' } },
  });
  const api = await startGitHubApi({
    tokens: { [t]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    pulls: {
      'octo/mesh': [
        pull(1, sameSha, 'octo/mesh'),
        pull(2, forkSha, 'someone/mesh'),
        pull(3, twinSha, 'x/mesh'),
        pull(4, twinSha, 'x/mesh'),
      ],
    },
    maxPageSize: 1,
  });
  try {
    const lookup = new OctokitGitHub(t, REPO, api.url);
    const run = (headSha: string, headRepo: string): WorkflowRunInfo => ({
      id: 1,
      name: 'mesh-perf fork-safe benchmark',
      headSha,
      headRepo,
      headBranch: 'x',
      event: 'pull_request',
      conclusion: 'success',
      htmlUrl: '',
      pullRequests: [],
    });
    assert.equal((await resolvePullRequest(lookup, run(sameSha, 'octo/mesh'))).pull?.number, 1);
    const fork = await resolvePullRequest(lookup, run(forkSha, 'someone/mesh'));
    assert.equal(fork.pull?.number, 2, 'fork PRs are found through the open PR list');
    assert.ok(api.requests.some((r) => r.path === '/repos/octo/mesh/pulls'));
    const stale = await resolvePullRequest(lookup, run('d'.repeat(40), 'someone/mesh'));
    assert.match(stale.pull ? '' : stale.why, /no open pull request has head dddddddddddd/);
    const spoofed = await resolvePullRequest(lookup, run(forkSha, 'attacker/mesh'));
    assert.equal(spoofed.pull, undefined, 'a head from another repository does not match');
    const twins = await resolvePullRequest(lookup, run(twinSha, 'x/mesh'));
    assert.match(twins.pull ? '' : twins.why, /2 open pull requests \(#3, #4\)/);
  } finally {
    await api.close();
  }
});

test('on a private repository without contents: read, the commenter falls back to open PRs, and names what is missing when both are refused', async () => {
  const t = token();
  const sha = 'a'.repeat(40);
  const pulls = {
    'octo/mesh': [
      {
        number: 7,
        state: 'open' as const,
        head: { sha, ref: 'feature', repo: { full_name: 'octo/mesh' } },
        base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: 'octo/mesh' } },
      },
    ],
  };
  // The fork-safe commenter's grant: actions: read, pull-requests: write, no contents.
  const api = await startGitHubApi({
    tokens: { [t]: { login: 'github-actions[bot]', type: 'Bot', write: true, contents: false } },
    repositories: { 'octo/mesh': { defaultBranch: 'main', private: true } },
    pulls,
  });
  const run: WorkflowRunInfo = {
    id: 1,
    name: 'mesh-perf fork-safe benchmark',
    headSha: sha,
    headRepo: 'octo/mesh',
    headBranch: 'feature',
    event: 'pull_request',
    conclusion: 'success',
    htmlUrl: '',
    pullRequests: [],
  };
  try {
    const lookup = new OctokitGitHub(t, REPO, api.url);
    const refused = api.requests.length;
    assert.equal((await resolvePullRequest(lookup, run)).pull?.number, 7);
    const paths = api.requests.slice(refused).map((r) => `${r.status} ${r.path}`);
    assert.deepEqual(paths, [`403 /repos/octo/mesh/commits/${sha}/pulls`, '200 /repos/octo/mesh/pulls']);
    // Asked directly, the 403 names contents: read (what is missing), not pull-requests: write (granted).
    await assert.rejects(lookup.pullsForCommit(sha), (error: unknown) => {
      assert.ok(error instanceof GitHubPermissionError);
      assert.match(error.message, /permissions: contents: read/);
      assert.doesNotMatch(error.message, /pull-requests: write/);
      return true;
    });
  } finally {
    await api.close();
  }
  // Both refused (no contents and no pull-requests permission): one error naming both.
  const none = await startGitHubApi({
    tokens: { [t]: { login: 'github-actions[bot]', type: 'Bot', write: true, contents: false, pullRequests: false } },
    repositories: { 'octo/mesh': { defaultBranch: 'main', private: true } },
    pulls,
  });
  try {
    await assert.rejects(resolvePullRequest(new OctokitGitHub(t, REPO, none.url), run), (error: unknown) => {
      assert.ok(error instanceof GitHubPermissionError);
      assert.match(error.message, /contents: read.*pull-requests: read/);
      return true;
    });
  } finally {
    await none.close();
  }
});
