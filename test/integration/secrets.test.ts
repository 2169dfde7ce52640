// Secrets planted in every input that can carry one (config file, flags, environment, headers,
// mode env, mode URLs, store URLs) never reach any output: the real CLI runs two short benchmarks
// (local and endpoints platforms), publishes them to a local bare git repository as the store,
// renders their reports and the store's site, and compares them; then every file written, every
// byte printed and every blob and commit message of the store is searched for each secret.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer } from '../../src/platform/processes.ts';
import { closedPort } from '../support/listening.ts';
import { runCli, withTempDir, type CliResult } from '../support/cli.ts';
import { readableText } from '../history/support/store-files.ts';

const exec = promisify(execFile);

/** Distinct fake secrets, one per input path, so a leak names its path. */
const S = {
  storeInConfig: 'fakeStoreCfgPw7x1',
  storeFlag: 'fakeStoreFlagPw8y2',
  baselineFlag: 'fakeBaselinePw9z3',
  dashboardUrl: 'fakeDashPw4q5',
  headerPrivate: 'fakeHeaderPrivate6w',
  headerAuth: 'fakeBearerAuth3e',
  headerCookie: 'fakeCookieValue2r',
  queryToken: 'fakeQueryToken1t',
  modeEnvPat: 'fakeModeEnvPat5u',
  modeEnvUrlPw: 'fakeModeDbPw0i',
  modeUrlPw: 'fakeModeUrlPw4o',
  modeUrlQuery: 'fakeModeUrlSig3p',
  envStoreToken: 'fakeEnvStoreToken2a',
  envGithubToken: 'fakeEnvGithubToken1s',
  envGhPat: 'fakeEnvGhPat9d',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Every blob of every commit on every ref of the store, and every commit message. */
async function storeContents(repo: string): Promise<{ name: string; text: string }[]> {
  const out: { name: string; text: string }[] = [];
  const log = await exec('git', ['log', '--all', '--format=%H%n%B'], { cwd: repo, maxBuffer: 64 << 20 });
  out.push({ name: 'store commit messages', text: log.stdout });
  const objects = await exec('git', ['rev-list', '--all', '--objects'], { cwd: repo, maxBuffer: 64 << 20 });
  for (const line of objects.stdout.split('\n').filter(Boolean)) {
    const [sha, ...path] = line.split(' ');
    const type = (await exec('git', ['cat-file', '-t', sha!], { cwd: repo })).stdout.trim();
    if (type !== 'blob') continue;
    const blob = await exec('git', ['cat-file', 'blob', sha!], { cwd: repo, maxBuffer: 64 << 20 });
    // Run files are compressed: searched as the run page and the CLI read them.
    out.push({ name: `store:${path.join(' ')}`, text: readableText(path.join(' '), blob.stdout) });
  }
  return out;
}

test('no planted secret reaches results, reports, exports, the terminal or the published store', { timeout: 300_000 }, async () => {
  const echo = await startServer('echo', ['--port', '0'], 'echo server');
  try {
    await withTempDir(async (dir) => {
      const down = await closedPort();
      const env = {
        MESH_PERF_STORE_TOKEN: S.envStoreToken,
        GITHUB_TOKEN: S.envGithubToken,
        GH_PAT: S.envGhPat,
        COLUMNS: '80',
      };
      const load = 'load: { rate: 20, duration: 1s, warmup: 0s, repetitions: 1, headers: HEADERS }';
      const headers = `{ X-Private: ${S.headerPrivate}, Authorization: "Bearer ${S.headerAuth}", Cookie: "sid=${S.headerCookie}", X-Callback: "http://127.0.0.1/cb?access_token=${S.queryToken}&x=1" }`;
      await writeFile(
        join(dir, 'local.yaml'),
        [
          'suite: secrets',
          'platform: local',
          'modes:',
          '  - name: a',
          '    local: { hops: 0 }',
          // By name (GH_PAT), by value (UPSTREAM carries the environment's GH_PAT), inside a URL.
          `    env: { GH_PAT: ${S.modeEnvPat}, UPSTREAM: ${S.envGhPat}, DB_URL: "postgres://app:${S.modeEnvUrlPw}@db.internal/x" }`,
          load.replace('HEADERS', headers),
          `history: { store: "http://x-access-token:${S.storeInConfig}@127.0.0.1:${down}/repo.git" }`,
          `github: { dashboardUrl: "https://viewer:${S.dashboardUrl}@dash.example/d" }`,
          '',
        ].join('\n'),
      );
      await writeFile(
        join(dir, 'endpoints.yaml'),
        [
          'suite: secrets',
          'platform: endpoints',
          'modes:',
          `  - name: a`,
          `    url: "http://probe:${S.modeUrlPw}@127.0.0.1:${echo.port}/?sig=${S.modeUrlQuery}"`,
          load.replace('HEADERS', '{}'),
          '',
        ].join('\n'),
      );
      const outputs: { name: string; text: string }[] = [];
      const printed = (name: string, run: CliResult) => outputs.push({ name: `${name} (terminal)`, text: run.stdout + run.stderr });

      const local = await runCli(['run', '--config', 'local.yaml', '--platform', 'local', '--out', 'out-local'], { cwd: dir, env });
      printed('run local', local);
      assert.ok([0, 3].includes(local.code ?? -1), `run local: exit ${local.code}\n${local.stderr}`);
      const endpoints = await runCli(
        [
          'run',
          '--config',
          'endpoints.yaml',
          '--out',
          'out-endpoints',
          '--history-store',
          `https://x-access-token:${S.storeFlag}@127.0.0.1:${down}/flag.git`,
          '--baseline',
          `https://u:${S.baselineFlag}@127.0.0.1:${down}/baseline.git`,
        ],
        { cwd: dir, env },
      );
      printed('run endpoints', endpoints);
      assert.ok([0, 3].includes(endpoints.code ?? -1), `run endpoints: exit ${endpoints.code}\n${endpoints.stderr}`);

      await exec('git', ['init', '--quiet', '--bare', join(dir, 'store.git')]);
      const publish = await runCli(['publish', '--results', 'out-local', '--results', 'out-endpoints', '--store', 'store.git'], {
        cwd: dir,
        env,
      });
      printed('publish', publish);
      assert.equal(publish.code, 0, publish.stderr);
      assert.match(publish.stdout, /2 runs published/);
      const report = await runCli(['report', '--results', 'out-local', '--out', 'report-local'], { cwd: dir, env });
      printed('report', report);
      assert.equal(report.code, 0, report.stderr);
      for (const format of ['csv', 'md', 'txt']) {
        printed(`report --format ${format}`, await runCli(['report', '--results', 'out-endpoints', '--format', format], { cwd: dir, env }));
      }
      const site = await runCli(['report', '--store', 'store.git', '--out', 'site'], { cwd: dir, env });
      printed('report --store', site);
      assert.equal(site.code, 0, site.stderr);
      printed('compare', await runCli(['compare', 'out-local', 'out-local'], { cwd: dir, env }));
      printed('plan', await runCli(['plan', '--config', 'local.yaml'], { cwd: dir, env }));

      for (const file of await filesUnder(dir)) {
        if (file.includes('store.git') || file.endsWith('.yaml')) continue; // the store is read through git below; the inputs hold the secrets
        outputs.push({ name: file.slice(dir.length + 1), text: readableText(file, await readFile(file, 'utf8')) });
      }
      outputs.push(...(await storeContents(join(dir, 'store.git'))));
      assert.ok(outputs.some((o) => o.name.endsWith('results.json')) && outputs.some((o) => o.name.startsWith('store:runs/')));

      const leaks = outputs.flatMap(({ name, text }) =>
        Object.entries(S)
          .filter(([, secret]) => text.includes(secret))
          .map(([path]) => `${path} in ${name} (${text.split(S[path as keyof typeof S]).length - 1}×)`),
      );
      assert.deepEqual(leaks, [], `${leaks.length} leaks`);
      // Redacted, not dropped: the outputs still say where the store was, and nothing else is masked.
      assert.match(local.stdout, /Results: out-local\/results\.json/);
      const results = await readFile(join(dir, 'out-local', 'results.json'), 'utf8');
      assert.match(results, new RegExp(`http://\\*\\*\\*@127\\.0\\.0\\.1:${down}/repo\\.git`));
    });
  } finally {
    await echo.stop();
  }
});
