// History commits are made as the github-actions bot (GitHub credits a users.noreply address to
// the account it names), and the usual git variables override the identity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { bareRepo, git, tempDir } from './support/git-repo.ts';

const VARIABLES = ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'] as const;

async function publishAndReadIdentity(env: Partial<Record<(typeof VARIABLES)[number], string>>): Promise<string> {
  const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
  for (const v of VARIABLES) delete process.env[v];
  Object.assign(process.env, env);
  const dir = await tempDir('identity');
  try {
    const remote = await bareRepo(dir);
    await new GitBranchStore({ url: remote, branch: 'gh-pages', chartJs: loadChartJsSource }).publish(
      buildDailyRuns(1, { suite: 'nightly', branch: 'main' }),
    );
    return (await git(remote, 'log', '-1', '--format=%an <%ae> / %cn <%ce>', 'gh-pages')).trim();
  } finally {
    for (const v of VARIABLES) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    await rm(dir, { recursive: true, force: true });
  }
}

test('history commits are authored and committed by github-actions[bot]', { timeout: 60_000 }, async () => {
  const bot = 'github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>';
  assert.equal(await publishAndReadIdentity({}), `${bot} / ${bot}`);
});

test('GIT_AUTHOR_* and GIT_COMMITTER_* choose another identity', { timeout: 60_000 }, async () => {
  const identity = await publishAndReadIdentity({
    GIT_AUTHOR_NAME: 'Bench Bot',
    GIT_AUTHOR_EMAIL: 'bench@example.org',
    GIT_COMMITTER_NAME: 'Bench Bot',
    GIT_COMMITTER_EMAIL: 'bench@example.org',
  });
  assert.equal(identity, 'Bench Bot <bench@example.org> / Bench Bot <bench@example.org>');
});
