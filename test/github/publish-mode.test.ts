// Publish mode (input publish-results), as the reusable workflow's publish job runs it: a results
// artifact goes to a real git history branch (a local bare repository) on a scheduled run of the
// default branch, and never from a pull request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { commands, pullRequestPayload, runAction, runnerFiles } from './harness.ts';
import { openStore } from '../../src/history/open-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import type { RunResult } from '../../src/results/types.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'results-local-pass.json');

test('publish-results adds the artifact to the history branch on the default branch, and refuses pull requests', { timeout: 120_000 }, async () => {
  const files = await runnerFiles('publish-mode');
  try {
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    const artifact = join(files.dir, 'artifact', 'run-1');
    await mkdir(artifact, { recursive: true });
    const result = JSON.parse(await readFile(FIXTURE, 'utf8')) as RunResult;
    result.run.suite = `publish-${randomBytes(3).toString('hex')}`;
    await writeFile(join(artifact, 'results.json'), JSON.stringify(result));
    const token = `ghs_${randomBytes(16).toString('hex')}`;
    const inputs = { 'publish-results': join(files.dir, 'artifact'), 'history-store': history, token };
    const env = { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_WORKSPACE: files.dir };
    const store = () => openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource });

    const fromPr = await runAction({ files, eventName: 'pull_request', payload: pullRequestPayload({ number: 3, repo: 'octo/mesh' }), inputs, env: { ...env, GITHUB_REF: 'refs/pull/3/merge' } });
    assert.equal(fromPr.code, 0, fromPr.stdout + fromPr.stderr);
    assert.match(commands(fromPr.stdout, 'warning')[0]?.message ?? '', /did not publish: .*never for pull_request/);
    assert.deepEqual(await store().list({ suite: result.run.suite }), []);

    const offBranch = await runAction({ files, eventName: 'push', payload: { repository: { default_branch: 'main' } }, inputs, env: { ...env, GITHUB_REF: 'refs/heads/feature' } });
    assert.match(commands(offBranch.stdout, 'warning')[0]?.message ?? '', /only done on the default branch \(main\), this run is on refs\/heads\/feature/);

    const daily = await runAction({ files, eventName: 'schedule', payload: { schedule: '0 3 * * *', repository: { default_branch: 'main' } }, inputs, env: { ...env, GITHUB_REF: 'refs/heads/main' } });
    assert.equal(daily.code, 0, daily.stdout + daily.stderr);
    const stored = await store().list({ suite: result.run.suite });
    assert.deepEqual(stored.map((r) => r.run.id), [result.run.id]);
    assert.match(daily.summary, /1 run\(s\) published to .*history\.git/);
    for (const run of [fromPr, offBranch, daily]) {
      assert.ok(!(run.stdout + run.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n').includes(token));
    }
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});
