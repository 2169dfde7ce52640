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
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { evaluateChangePointGate } from '../../src/history/change-point-gate.ts';
import { STEP_AT, steppedRuns } from '../history/support/stepped-runs.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'results-local-pass.json');

test('publish-results adds the artifact to the history branch on the default branch, and refuses pull requests', {
  timeout: 120_000,
}, async () => {
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

    const fromPr = await runAction({
      files,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 3, repo: 'octo/mesh' }),
      inputs,
      env: { ...env, GITHUB_REF: 'refs/pull/3/merge' },
    });
    assert.equal(fromPr.code, 0, fromPr.stdout + fromPr.stderr);
    assert.match(commands(fromPr.stdout, 'warning')[0]?.message ?? '', /did not publish: .*never for pull_request/);
    assert.deepEqual(await store().list({ suite: result.run.suite }), []);

    const offBranch = await runAction({
      files,
      eventName: 'push',
      payload: { repository: { default_branch: 'main' } },
      inputs,
      env: { ...env, GITHUB_REF: 'refs/heads/feature' },
    });
    assert.match(
      commands(offBranch.stdout, 'warning')[0]?.message ?? '',
      /only done on the default branch \(main\), this run is on refs\/heads\/feature/,
    );

    const daily = await runAction({
      files,
      eventName: 'schedule',
      payload: { schedule: '0 3 * * *', repository: { default_branch: 'main' } },
      inputs,
      env: { ...env, GITHUB_REF: 'refs/heads/main' },
    });
    assert.equal(daily.code, 0, daily.stdout + daily.stderr);
    const stored = await store().list({ suite: result.run.suite });
    assert.deepEqual(
      stored.map((r) => r.run.id),
      [result.run.id],
    );
    assert.match(daily.summary, /1 run\(s\) published to .*history\.git/);
    for (const run of [fromPr, offBranch, daily]) {
      assert.ok(
        !(run.stdout + run.stderr)
          .split('\n')
          .filter((l) => !l.startsWith('::add-mask::'))
          .join('\n')
          .includes(token),
      );
    }
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('publish-results honours the config file: history.store, branch and keep apply unless an input is set', {
  timeout: 120_000,
}, async () => {
  const files = await runnerFiles('publish-config');
  try {
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    const base = JSON.parse(await readFile(FIXTURE, 'utf8')) as RunResult;
    const suite = `cfg-${randomBytes(3).toString('hex')}`;
    const artifact = async (name: string, id: string, startedAt: string) => {
      const dir = join(files.dir, name);
      await mkdir(dir, { recursive: true });
      const result = structuredClone(base);
      result.run.suite = suite;
      result.run.id = id;
      result.run.startedAt = startedAt;
      await writeFile(join(dir, 'results.json'), JSON.stringify(result));
      return dir;
    };
    await writeFile(
      join(files.dir, 'mesh-perf.yaml'),
      [
        'modes: [{ name: baseline }]',
        'load: { rate: 10 }',
        'history:',
        `  store: ${history}`,
        '  branch: perf-history',
        '  keep: 1runs',
        '  keepTimelines: none',
        '',
      ].join('\n'),
    );
    const env = { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_WORKSPACE: files.dir, GITHUB_REF: 'refs/heads/main' };
    const payload = { schedule: '0 3 * * *', repository: { default_branch: 'main' } };
    const token = 'ghs_x';
    // The reusable workflow passes empty inputs when the caller sets none: the config decides.
    const first = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: {
        'publish-results': await artifact('a1', 'run-2026-01-01', '2026-01-01T03:00:00Z'),
        'history-branch': '',
        'history-store': '',
        token,
      },
      env,
    });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const second = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: { 'publish-results': await artifact('a2', 'run-2026-01-02', '2026-01-02T03:00:00Z'), token },
      env,
    });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /branch perf-history, keep 1runs, keepTimelines none/);
    const branches = execFileSync('git', ['--git-dir', history, 'branch', '--list'], { encoding: 'utf8' });
    assert.match(branches, /perf-history/);
    assert.doesNotMatch(branches, /gh-pages/);
    const kept = await openStore(history, { branch: 'perf-history', chartJs: loadChartJsSource }).list({ suite });
    assert.deepEqual(
      kept.map((r) => r.run.id),
      ['run-2026-01-02'],
      'history.keep: 1runs pruned the older run',
    );

    // An input that is set still wins over the config.
    const third = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: { 'publish-results': await artifact('a3', 'run-2026-01-03', '2026-01-03T03:00:00Z'), 'history-branch': 'other', token },
      env,
    });
    assert.equal(third.code, 0, third.stdout + third.stderr);
    assert.match(execFileSync('git', ['--git-dir', history, 'branch', '--list'], { encoding: 'utf8' }), /other/);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('a schedule payload without repository.default_branch asks the API, and fails the step when it cannot', {
  timeout: 120_000,
}, async () => {
  const files = await runnerFiles('publish-nobranch');
  const { startGitHubApi } = await import('../support/github-api.ts');
  const api = await startGitHubApi({
    tokens: { ghs_ok: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    repositories: { 'octo/mesh': { defaultBranch: 'trunk' } },
  });
  try {
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact, { recursive: true });
    const result = JSON.parse(await readFile(FIXTURE, 'utf8')) as RunResult;
    result.run.suite = `nb-${randomBytes(3).toString('hex')}`;
    await writeFile(join(artifact, 'results.json'), JSON.stringify(result));
    // GitHub's schedule payload carries no repository object.
    const payload = { schedule: '17 3 * * *' };
    const env = { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_WORKSPACE: files.dir, GITHUB_REF: 'refs/heads/trunk', GITHUB_API_URL: api.url };
    const ok = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: { 'publish-results': artifact, 'history-store': history, token: 'ghs_ok' },
      env,
    });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /default branch trunk \(from the API/);
    assert.deepEqual(
      (await openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource }).list({ suite: result.run.suite })).map((r) => r.run.id),
      [result.run.id],
    );
    assert.ok(api.requests.some((r) => r.method === 'GET' && r.path === '/repos/octo/mesh'));

    const unknown = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: { 'publish-results': artifact, 'history-store': history, token: 'ghs_bad' },
      env,
    });
    assert.equal(unknown.code, 3, unknown.stdout + unknown.stderr);
    assert.match(
      commands(unknown.stdout, 'error')[0]?.message ?? '',
      /did not publish: the schedule payload has no repository.default_branch and the API did not say either .*401/,
    );
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('a gh-pages that already holds a docs site: refused with exit 2 naming the adopt input, nothing written, in both publishing modes; adopt publishes beside it', {
  timeout: 180_000,
}, async () => {
  const files = await runnerFiles('publish-adopt');
  try {
    // The user's docs site on gh-pages, in a local bare repository.
    const history = join(files.dir, 'history.git');
    const site = join(files.dir, 'site');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    await mkdir(site);
    const git = (...args: string[]) => execFileSync('git', ['-C', site, ...args], { encoding: 'utf8' }).trim();
    git('init', '--quiet', '-b', 'gh-pages');
    await writeFile(join(site, 'index.html'), '<h1>our docs</h1>\n');
    git('add', 'index.html');
    git('-c', 'user.name=docs', '-c', 'user.email=docs@example.test', 'commit', '--quiet', '-m', 'docs');
    git('push', '--quiet', history, 'gh-pages');
    const tip = () => execFileSync('git', ['--git-dir', history, 'rev-parse', 'gh-pages'], { encoding: 'utf8' }).trim();
    const docsTip = tip();

    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact);
    const result = JSON.parse(await readFile(FIXTURE, 'utf8')) as RunResult;
    result.run.suite = `adopt-${randomBytes(3).toString('hex')}`;
    await writeFile(join(artifact, 'results.json'), JSON.stringify(result));
    const env = {
      GITHUB_REPOSITORY: 'octo/mesh',
      GITHUB_WORKSPACE: files.dir,
      GITHUB_REF: 'refs/heads/main',
      GITHUB_API_URL: 'http://127.0.0.1:9',
    };
    const schedule = { schedule: '0 3 * * *', repository: { default_branch: 'main' } };
    const failure = (run: { stdout: string }) =>
      commands(run.stdout, 'error')
        .map((c) => c.message)
        .join('\n');

    // The reusable publish workflow's step, without adopt.
    const refused = await runAction({
      files,
      eventName: 'schedule',
      payload: schedule,
      inputs: { 'publish-results': artifact, 'history-store': history, adopt: '', token: 'x' },
      env,
    });
    assert.equal(refused.code, 2, refused.stdout + refused.stderr);
    assert.match(
      failure(refused),
      /already holds files that are not a mesh-perf history \(e\.g\. index\.html\).*Nothing was written.*input adopt: true/s,
    );
    assert.equal(tip(), docsTip, 'nothing written');

    // The action's own run with publish: true (a daily job): not a warning on a green job.
    const daily = await runAction({
      files,
      eventName: 'workflow_dispatch',
      payload: { repository: { full_name: 'octo/mesh', default_branch: 'main' } },
      inputs: { platform: 'local', rate: '20', duration: '1s', repetitions: '1', 'history-store': history, publish: 'true', token: 'x' },
      env,
    });
    assert.equal(daily.code, 2, daily.stdout + daily.stderr);
    assert.match(failure(daily), /mesh-perf did not publish: .*input adopt: true/s);
    assert.match(daily.summary, /Not published to history: .*index\.html/);
    assert.equal(tip(), docsTip, 'nothing written');

    // Adopted: the history goes beside the docs, which stay.
    const adopted = await runAction({
      files,
      eventName: 'schedule',
      payload: schedule,
      inputs: { 'publish-results': artifact, 'history-store': history, adopt: 'true', token: 'x' },
      env,
    });
    assert.equal(adopted.code, 0, adopted.stdout + adopted.stderr);
    assert.notEqual(tip(), docsTip);
    assert.equal(execFileSync('git', ['--git-dir', history, 'show', 'gh-pages:index.html'], { encoding: 'utf8' }), '<h1>our docs</h1>\n');
    const stored = await openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource }).list({ suite: result.run.suite });
    assert.deepEqual(
      stored.map((r) => r.run.id),
      [result.run.id],
    );

    const bad = await runAction({
      files,
      eventName: 'schedule',
      payload: schedule,
      inputs: { 'publish-results': artifact, 'history-store': history, adopt: 'yes', token: 'x' },
      env,
    });
    assert.equal(bad.code, 2);
    assert.match(failure(bad), /input adopt: expected true or false, got "yes"/);
    const badGate = await runAction({
      files,
      eventName: 'schedule',
      payload: schedule,
      inputs: { 'publish-results': artifact, 'history-store': history, 'change-point': 'loud', token: 'x' },
      env,
    });
    assert.equal(badGate.code, 2);
    assert.match(failure(badGate), /input change-point "loud": expected warn, fail or off/);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('publish-results: a new slowdown step raises the change-point gate as a warning annotation and a job-summary line', {
  timeout: 240_000,
}, async () => {
  const files = await runnerFiles('publish-change-point');
  try {
    const runs = steppedRuns(STEP_AT + 8);
    // Find the run whose publish makes the step appear, on a scratch folder store.
    const scratch = new DirectoryStore({ root: join(files.dir, 'scratch'), chartJs: loadChartJsSource });
    await scratch.publish(runs.slice(0, STEP_AT));
    let raising = -1;
    for (let i = STEP_AT; i < runs.length && raising < 0; i++) {
      const outcome = await scratch.publish([runs[i]!]);
      if (evaluateChangePointGate(outcome.changePoints ?? [], 'warn', 5).decision === 'warn') raising = i;
    }
    assert.ok(raising > 0, 'the step is raised within 8 runs');
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    await openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource }).publish(runs.slice(0, raising));
    const artifact = join(files.dir, 'artifact', 'run-1');
    await mkdir(artifact, { recursive: true });
    await writeFile(join(artifact, 'results.json'), JSON.stringify(runs[raising]));
    const daily = await runAction({
      files,
      eventName: 'schedule',
      payload: { schedule: '0 3 * * *', repository: { default_branch: 'main' } },
      inputs: { 'publish-results': join(files.dir, 'artifact'), 'history-store': history, token: 'ghs_x' },
      env: { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_WORKSPACE: files.dir, GITHUB_REF: 'refs/heads/main' },
    });
    assert.equal(daily.code, 0, daily.stdout + daily.stderr);
    const warnings = commands(daily.stdout, 'warning').map((w) => w.message);
    assert.ok(
      warnings.some((m) => /new change point \(slower\): 1000rps · istio-sidecar · .*istio 1\.29\.2 → 1\.30\.0/.test(m)),
      warnings.join('\n'),
    );
    assert.match(daily.summary, /⚠️ new change point \(slower\): 1000rps · istio-sidecar/);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('publish mode with confirm.changePoints required: the raising publish waits and says so; a confirmation artifact is recorded and its verdict decides the gate', {
  timeout: 180_000,
}, async () => {
  const files = await runnerFiles('publish-confirm');
  try {
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    const runs = steppedRuns(STEP_AT + 3);
    const store = () => openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource });
    await store().publish(runs.slice(0, STEP_AT + 2));
    await writeFile(
      join(files.dir, 'mesh-perf.yaml'),
      'suite: nightly\nmodes: [{ name: a }]\nload: { rate: 100 }\ngates: { changePoint: fail }\nconfirm: { changePoints: required }\n',
    );
    const env = { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_WORKSPACE: files.dir, GITHUB_REF: 'refs/heads/main' };
    const payload = { schedule: '0 3 * * *', repository: { default_branch: 'main' } };
    const artifact = join(files.dir, 'artifact');
    await mkdir(artifact, { recursive: true });
    await writeFile(join(artifact, 'results.json'), JSON.stringify(runs[STEP_AT + 2]));
    const inputs = { config: 'mesh-perf.yaml', 'history-store': history, token: 'ghs_x' };
    const raising = await runAction({ files, eventName: 'schedule', payload, inputs: { ...inputs, 'publish-results': artifact }, env });
    assert.equal(raising.code, 0, raising.stdout + raising.stderr);
    assert.equal(raising.outputs['change-point-to-confirm'], 'true');
    assert.match(
      commands(raising.stdout, 'warning')
        .map((w) => w.message)
        .join('\n'),
      /new change point \(slower\), awaiting its confirmation: 1000rps · istio-sidecar/,
    );

    // The confirm job's artifact: a confirmation.json (and its runs, which are never published).
    const cp = (await store().changePoints!('nightly', 'main')).changePoints.find((c) => c.mode === 'istio-sidecar')!;
    const confirmation = join(files.dir, 'confirmation');
    await mkdir(confirmation, { recursive: true });
    const { wordConfirmation } = await import('../../src/report/confirm-words.ts');
    const { newDraft } = await import('../../src/confirm/run.ts');
    const draft = newDraft(cp, 'nightly', { runner: 'ubuntu-latest', tool: 'test' }, '2026-11-21T04:00:00.000Z');
    await writeFile(
      join(confirmation, 'confirmation.json'),
      JSON.stringify(
        wordConfirmation({
          ...draft,
          verdict: 'confirmed',
          reason: 'ab-fail',
          settings: [{ path: 'istio', before: '1.29.2', after: '1.30.0' }],
        }),
      ),
    );
    const recorded = await runAction({
      files,
      eventName: 'schedule',
      payload,
      inputs: { ...inputs, 'publish-results': confirmation },
      env,
    });
    assert.equal(recorded.code, 1, recorded.stdout + recorded.stderr);
    assert.match(
      commands(recorded.stdout, 'error')[0]?.message ?? '',
      /change-point gate failed on its confirmation: confirmed: istio 1\.29\.2 → 1\.30\.0 moved/,
    );
    assert.equal((await store().confirmations!('nightly'))[0]?.verdict, 'confirmed');
    assert.equal((await store().list({ suite: 'nightly' })).length, STEP_AT + 3, 'the confirmation added no run');
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});
