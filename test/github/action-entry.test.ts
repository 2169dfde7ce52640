// The action entry run as the runner runs it, against the real pipeline (platform local: real
// echo servers, real k6) and the local GitHub REST stand-in. Covers the sticky comment's life on
// one PR, the fork PR, a failed gate, and that no credential leaks anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startGitHubApi, type GitHubApi, type TokenIdentity } from '../support/github-api.ts';
import { commands, pullRequestPayload, runAction, runnerFiles, type ActionRun, type RunnerFiles } from './harness.ts';
import { commentMarker } from '../../src/github/comment-body.ts';
import { CLEANUP_STATE } from '../../src/github/cleanup.ts';
import { execFileSync } from 'node:child_process';
import { openStore } from '../../src/history/open-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import type { RunResult } from '../../src/results/types.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'results-local-pass.json');
const BASE_SHA = 'b'.repeat(40);

/** A real bare git repository as the history store (what gh-pages is on GitHub). */
async function historyRepo(dir: string): Promise<string> {
  const path = join(dir, 'history.git');
  execFileSync('git', ['init', '--quiet', '--bare', path]);
  return path;
}

/** Publishes a run of the base branch at BASE_SHA whose p50s are 80% of the fixture's. */
async function seedBaseRun(store: string, suite: string): Promise<void> {
  const base = JSON.parse(await readFile(FIXTURE, 'utf8')) as RunResult;
  base.run.suite = suite;
  base.run.id = `20250101T000000Z-${randomBytes(3).toString('hex')}`;
  base.run.git = { sha: BASE_SHA, branch: 'main', event: 'push', repository: 'octo/mesh' };
  for (const mode of base.modes) {
    mode.profile = '20rps'; // the workspace config's load profile: only like is compared with like
    for (const rep of mode.repetitions) rep.latencyMs!.p50 *= 0.8;
  }
  await openStore(store, { branch: 'gh-pages', chartJs: loadChartJsSource }).publish([base]);
}

const BOT: Omit<TokenIdentity, 'write'> = { login: 'github-actions[bot]', type: 'Bot' };

function secretKubeconfig(): { text: string; leaves: string[] } {
  const token = `kube-token-${randomBytes(12).toString('hex')}`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${randomBytes(30).toString('base64')}\n${randomBytes(30).toString('base64')}\n-----END PRIVATE KEY-----\n`;
  const keyData = Buffer.from(keyPem).toString('base64');
  const execSecret = `exec-secret-${randomBytes(10).toString('hex')}`;
  const refresh = `refresh-${randomBytes(10).toString('hex')}`;
  const text = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: c',
    '  cluster: { server: "https://127.0.0.1:6443" }',
    'users:',
    '- name: u',
    '  user:',
    `    token: ${token}`,
    `    password: ${password}`,
    `    client-key-data: ${keyData}`,
    '- name: e',
    '  user:',
    '    exec:',
    '      apiVersion: client.authentication.k8s.io/v1',
    '      command: aws',
    '      env:',
    '      - name: AWS_SECRET_ACCESS_KEY',
    `        value: ${execSecret}`,
    '- name: a',
    '  user:',
    '    auth-provider:',
    '      name: oidc',
    '      config:',
    `        refresh-token: ${refresh}`,
    'contexts:',
    '- name: x',
    '  context: { cluster: c, user: u }',
    'current-context: x',
  ].join('\n');
  const pemLines = keyPem.split('\n').filter((l) => l && !l.startsWith('-----'));
  return { text, leaves: [token, password, keyData, execSecret, refresh, ...pemLines] };
}

async function workspace(files: RunnerFiles, suite: string, extra: Record<string, string> = {}): Promise<string> {
  const dir = join(files.dir, 'workspace');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'mesh-perf.yaml'),
    // A gentle load with a generous VU pool: other engineers load this 2-core machine too, and the
    // comment tests need valid runs, not a measurement.
    [
      `suite: ${suite}`,
      'platform: local',
      'modes:',
      '  - name: direct',
      '  - name: one-hop',
      '    local: { hops: 1 }',
      'load:',
      '  rate: 20',
      '  duration: 2s',
      '  warmup: 1s',
      '  expectedLatency: 1s',
      '  repetitions: 2',
      '',
    ].join('\n'),
  );
  for (const [name, content] of Object.entries(extra)) await writeFile(join(dir, name), content);
  return dir;
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(path)));
    else out.push(path);
  }
  return out;
}

/** Every place a credential could end up: logs (minus the mask commands), outputs, summary, results, API traffic. */
async function assertNoSecrets(
  label: string,
  runs: ActionRun[],
  resultDirs: string[],
  api: GitHubApi | undefined,
  secrets: string[],
): Promise<void> {
  const texts: [string, string][] = [];
  for (const [i, run] of runs.entries()) {
    const logLines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => !l.startsWith('::add-mask::'));
    texts.push(
      [`run ${i + 1} log`, logLines.join('\n')],
      [`run ${i + 1} outputs`, JSON.stringify(run.outputs)],
      [`run ${i + 1} summary`, run.summary],
      [`run ${i + 1} state`, JSON.stringify(run.state)],
    );
  }
  for (const dir of resultDirs) for (const file of await allFiles(dir)) texts.push([file, await readFile(file, 'utf8')]);
  for (const request of api?.requests ?? []) texts.push([`${request.method} ${request.path}`, JSON.stringify(request.body ?? '')]);
  for (const comment of api?.comments ?? []) texts.push([`comment ${comment.id}`, comment.body]);
  for (const [where, content] of texts) {
    for (const secret of secrets)
      assert.ok(!content.includes(secret), `${label}: a credential (${secret.slice(0, 6)}…) appears in ${where}`);
  }
}

function assertExitMatchesVerdict(run: ActionRun): void {
  const expected: Record<string, number> = { pass: 0, fail: 1, inconclusive: 0, invalid: 3 };
  assert.equal(
    run.code,
    expected[run.outputs.verdict ?? ''],
    `exit code ${run.code} for verdict ${run.outputs.verdict}\n${run.stdout}\n${run.stderr}`,
  );
}

function resultsDirOf(run: ActionRun): string {
  const path = run.outputs['results-path'];
  assert.ok(path, `results-path output missing; stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
  return join(path, '..');
}

test('the sticky comment on one PR is created, then updated in place, then brought up to date (never left stale) with on-failure on a pass; no credential leaks', {
  timeout: 300_000,
}, async () => {
  const files = await runnerFiles('action-sticky');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const api = await startGitHubApi({
    tokens: { [token]: { ...BOT, write: true }, mallory: { login: 'mallory', type: 'User', write: true } },
    maxPageSize: 2,
  });
  try {
    const suite = `sticky-${randomBytes(3).toString('hex')}`;
    const ws = await workspace(files, suite);
    const repo = 'octo/mesh';
    const kube = secretKubeconfig();
    // Someone pastes our marker into their own comment: it must never be mistaken for ours.
    const spoof = api.seedComment(repo, 42, `fake results\n${commentMarker(suite)}`, { login: 'mallory', type: 'User', write: true });
    api.seedComment(repo, 42, 'LGTM', { login: 'mallory', type: 'User', write: true });
    const history = await historyRepo(files.dir);
    await seedBaseRun(history, suite);
    const common = {
      files,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 42, repo, baseSha: BASE_SHA }),
      env: { GITHUB_REPOSITORY: repo, GITHUB_API_URL: api.url, GITHUB_WORKSPACE: ws },
    };
    const inputs = { token, kubeconfig: kube.text, comment: 'always', 'history-store': history };

    const first = await runAction({ ...common, inputs });
    assertExitMatchesVerdict(first);
    const ours = () => api.comments.filter((c) => c.user.login === BOT.login);
    assert.equal(ours().length, 1, 'first run creates exactly one comment');
    const created = ours()[0]!;
    assert.ok(created.body.includes(commentMarker(suite)));
    assert.match(created.body, /\| mode \| p50 ms \| p99 ms \|/);
    assert.match(created.body, /p50 vs base \(main at bbbbbbb\)/, 'compared with the PR base from the history branch');
    assert.equal(first.outputs['comment-url'], created.html_url);
    // The outputs the README documents.
    assert.ok(['pass', 'invalid'].includes(first.outputs.verdict!));
    assert.equal(first.outputs['results-dir'], join(first.outputs['results-path']!, '..'));
    assert.equal(JSON.parse(await readFile(first.outputs['results-path']!, 'utf8')).verdict, first.outputs.verdict);
    assert.ok(
      first.outputs['report-path'] === '' || (await readFile(first.outputs['report-path']!, 'utf8')).includes('<html'),
      'report-path is empty or an HTML report',
    );
    assert.match(first.outputs.summary!, /^### mesh-perf · suite `sticky-[0-9a-f]+`/);
    assert.match(first.outputs.summary!, /\| mode \| p50 ms \| p99 ms \|/);
    assert.ok(!first.outputs.summary!.includes('<!-- mesh-perf:sticky'), 'the summary output carries no marker');
    assert.ok(first.summary.includes('### Results'), 'job summary written');
    assert.equal(spoof.body, `fake results\n${commentMarker(suite)}`);

    const firstBody = created.body;
    const second = await runAction({ ...common, inputs });
    assertExitMatchesVerdict(second);
    assert.equal(ours().length, 1, 'second run does not add a comment');
    assert.equal(ours()[0]!.id, created.id);
    assert.notEqual(ours()[0]!.body, firstBody, 'the comment now shows the second run');
    const patches = api.requests.filter((r) => r.method === 'PATCH');
    assert.deepEqual(
      patches.map((r) => r.path),
      [`/repos/${repo}/issues/comments/${created.id}`],
    );
    assert.equal(spoof.body, `fake results\n${commentMarker(suite)}`, "another author's comment carrying the marker is never touched");

    // on-failure: a passing run leaves the comment alone; a non-passing one (this machine is shared
    // and a repetition can turn invalid) must update it. Retry until a pass shows the first case.
    const later: ActionRun[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const writesBefore = api.writes().length;
      const bodyBefore = ours()[0]!.body;
      const run = await runAction({ ...common, inputs: { ...inputs, comment: 'on-failure' } });
      later.push(run);
      assertExitMatchesVerdict(run);
      if (run.outputs.verdict === 'pass') {
        // No new comment, but the earlier one is brought up to date: a stale ❌ must not stay.
        assert.equal(api.writes().length, writesBefore + 1, 'on-failure with a passing verdict updates our earlier comment');
        assert.notEqual(ours()[0]!.body, bodyBefore);
        assert.ok(!ours()[0]!.body.includes('❌'));
        assert.equal(run.outputs['comment-url'], ours()[0]!.html_url);
        break;
      }
      assert.equal(api.writes().length, writesBefore + 1, `on-failure with verdict ${run.outputs.verdict} updates the comment`);
      assert.equal(ours().length, 1);
    }
    assert.equal(later.at(-1)!.outputs.verdict, 'pass', 'no passing run in 3 attempts: the machine is too loaded for this test');

    const runs = [first, second, ...later];
    for (const run of runs) {
      const masked = commands(run.stdout, 'add-mask').map((c) => c.message);
      for (const secret of [token, ...kube.leaves]) assert.ok(masked.includes(secret), `setSecret was called for ${secret.slice(0, 6)}…`);
      assert.deepEqual(JSON.parse(run.state[CLEANUP_STATE] ?? '[]'), [], 'nothing left for the post step after a normal run');
    }
    assert.deepEqual(
      (await readdir(files.dir)).filter((n) => n.startsWith('mesh-perf-secret-') || n.startsWith('mesh-perf-tmp-')),
      [],
      "the 0600 kubeconfig file and the run's temporary files are gone",
    );
    await assertNoSecrets('sticky', runs, runs.map(resultsDirOf), api, [token, ...kube.leaves]);
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('a fork PR gets no write attempt, a job summary, and a notice saying why', { timeout: 180_000 }, async () => {
  const files = await runnerFiles('action-fork');
  const token = `ghs_${randomBytes(16).toString('hex')}`;
  const api = await startGitHubApi({ tokens: { [token]: { ...BOT, write: false } } });
  try {
    const ws = await workspace(files, 'fork-pr');
    const repo = 'octo/mesh';
    const run = await runAction({
      files,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 7, repo, headRepo: 'stranger/mesh' }),
      inputs: { token, comment: 'always', 'history-store': join(files.dir, 'no-history') },
      env: { GITHUB_REPOSITORY: repo, GITHUB_API_URL: api.url, GITHUB_WORKSPACE: ws },
    });
    assertExitMatchesVerdict(run);
    assert.equal(api.requests.length, 0, `no request at all reaches GitHub: ${JSON.stringify(api.requests)}`);
    assert.match(run.summary, /No PR comment was posted: this pull request comes from stranger\/mesh/);
    assert.match(run.summary, /read-only token/);
    assert.match(run.summary, /workflows\/fork-safe-comment\.yml/);
    assert.ok(run.summary.includes('### Results'));
    assert.equal(commands(run.stdout, 'notice').length, 1, 'one notice in the log');
    await assertNoSecrets('fork', [run], [resultsDirOf(run)], api, [token]);
  } finally {
    await api.close();
    await rm(files.dir, { recursive: true, force: true });
  }
});

test('a failed gate exits 1 with one error annotation per failed gate', { timeout: 180_000 }, async () => {
  const files = await runnerFiles('action-gate');
  try {
    // A user's own k6 script whose threshold no real server can meet: each mode fails it.
    const script = [
      "import http from 'k6/http';",
      'export const options = {',
      "  scenarios: { s: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '2s', preAllocatedVUs: 40 } },",
      "  thresholds: { http_req_duration: ['p(50)<0.0001'] },",
      '};',
      'export default function () { http.get(__ENV.MESH_PERF_URL); }',
      '',
    ].join('\n');
    const config = [
      'suite: gate',
      'platform: local',
      'modes:',
      '  - name: direct',
      '  - name: one-hop',
      '    local: { hops: 1 }',
      'load:',
      '  script: ./impossible.js',
      '  warmup: 0s',
      '',
    ].join('\n');
    const ws = await workspace(files, 'gate', { 'impossible.js': script, 'gate.yaml': config });
    const token = `ghs_${randomBytes(16).toString('hex')}`;
    const history = await historyRepo(files.dir);
    // GitHub's schedule payload has no repository object: the default branch comes from the API.
    const api = await startGitHubApi({
      tokens: { [token]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
      repositories: { 'octo/mesh': { defaultBranch: 'main' } },
    });
    const run = await runAction({
      files,
      eventName: 'schedule',
      payload: { schedule: '0 3 * * *' },
      // The gates input is set too: once the analysis stage evaluates thresholds, it fails as well.
      inputs: { token, config: 'gate.yaml', gates: 'p(50) < 0.0001ms', repetitions: '1', 'history-store': history, publish: 'true' },
      env: { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_REF: 'refs/heads/main', GITHUB_WORKSPACE: ws, GITHUB_API_URL: api.url },
    }).finally(() => api.close());
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(run.outputs.verdict, 'fail');
    const results = JSON.parse(await readFile(run.outputs['results-path']!, 'utf8')) as {
      verdictReasons: string[];
      analysis?: { gates?: { decision: string }[] };
    };
    // Failed gates: the analysis stage's threshold gates, plus the k6 script's own thresholds.
    const scriptGates = results.verdictReasons.filter((r) => r.startsWith('script threshold failed: ')).length;
    const analysisGates = results.analysis?.gates?.filter((g) => g.decision === 'fail').length ?? 0;
    const failedGates = scriptGates + analysisGates;
    assert.equal(scriptGates, 2, `both modes fail the script's impossible threshold: ${results.verdictReasons.join('; ')}`);
    const errors = commands(run.stdout, 'error');
    const gateErrors = errors.filter((e) => e.props.includes('title=mesh-perf gate failed'));
    assert.equal(gateErrors.length, failedGates, `one error annotation per failed gate:\n${errors.map((e) => e.message).join('\n')}`);
    // ...plus exactly one setFailed line, which carries no title.
    assert.equal(errors.length - gateErrors.length, 1);
    assert.match(run.summary, /❌ \*\*fail\*\*/);
    // A scheduled run on the default branch is published: a failing measurement is still history.
    const stored = await openStore(history, { branch: 'gh-pages', chartJs: loadChartJsSource }).list({ suite: 'gate' });
    assert.deepEqual(
      stored.map((r) => r.run.id),
      [JSON.parse(await readFile(run.outputs['results-path']!, 'utf8')).run.id],
    );
    assert.match(run.summary, /Published to history: .*history\.git/);
    await assertNoSecrets('gate', [run], [resultsDirOf(run)], undefined, [token]);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});
