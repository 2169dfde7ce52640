// The action's PR path (issue 24): on pull_request, the config at the PR's base commit, read with
// real git from a checkout that, like actions/checkout's default, has only the head (depth 1): the
// base commit is fetched by id from origin. A changed mode runs as two arms; a base without the
// file, with an invalid config, or a commit that cannot be fetched falls back to history with a
// note naming the file and the commit.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/load.ts';
import { readGitHubEvent } from '../../src/github/event.ts';
import { baseConfigFor, imageArms } from '../../src/github/pr-base-config.ts';
import { armsFromBaseLines } from '../../src/report/arms-from-base-text.ts';
import { redactText } from '../../src/util/redact.ts';
import { UsageError } from '../../src/util/errors.ts';
import { testTempDir } from '../support/temp-dirs.ts';

// The base config's copy goes under RUNNER_TEMP, as on a runner; the action removes it after the
// run, and this file's tests leave it for the process's exit to remove.
process.env.RUNNER_TEMP = testTempDir('runner-temp');

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) =>
  exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd }).then((r) =>
    r.stdout.trim(),
  );

const config = (delay: string) => `platform: local
modes:
  - name: direct
  - name: proxy
    local: { hops: 1, delay: ${delay} }
load: { rate: 50, duration: 1s, warmup: 0s }
`;

/** origin (bare) with a base commit and a head commit; `work` is a depth-1 clone of the head, as actions/checkout makes. */
async function repository(base: Record<string, string>, head: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'pr-base-'));
  const seed = join(dir, 'seed');
  await mkdir(seed);
  await git(seed, 'init', '--quiet');
  const commit = async (files: Record<string, string>, message: string) => {
    await git(seed, 'rm', '-rq', '--ignore-unmatch', '.');
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(seed, name, '..'), { recursive: true });
      await writeFile(join(seed, name), content);
    }
    await git(seed, 'add', '-A');
    await git(seed, 'commit', '--quiet', '--allow-empty', '-m', message);
    return git(seed, 'rev-parse', 'HEAD');
  };
  const baseSha = await commit(base, 'base');
  const headSha = await commit(head, 'head');
  await git(dir, 'clone', '--quiet', '--bare', seed, 'origin.git');
  await git(dir, 'clone', '--quiet', '--depth', '1', `file://${join(dir, 'origin.git')}`, 'work');
  return { dir, work: join(dir, 'work'), baseSha, headSha };
}

const prEvent = (baseSha: string) =>
  readGitHubEvent(
    { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REPOSITORY: 'octo/app' },
    {
      pull_request: {
        number: 7,
        head: { sha: 'f'.repeat(40), ref: 'change', repo: { full_name: 'octo/app' } },
        base: { sha: baseSha, ref: 'main', repo: { full_name: 'octo/app' } },
      },
    },
  );

test('a PR that changes a mode: the base commit is fetched into a depth-1 checkout and the mode runs as two arms', async () => {
  const repo = await repository({ 'mesh-perf.yaml': config('0ms') }, { 'mesh-perf.yaml': config('1ms') });
  try {
    await assert.rejects(git(repo.work, 'cat-file', '-e', `${repo.baseSha}^{commit}`), 'the checkout starts without the base commit');
    const base = await baseConfigFor({ input: '', event: prEvent(repo.baseSha), configFile: 'mesh-perf.yaml', cwd: repo.work });
    assert.equal(base.kind, 'file');
    if (base.kind !== 'file') return;
    assert.equal(base.label, `the PR base's mesh-perf.yaml (${repo.baseSha.slice(0, 7)})`);
    const loaded = await loadConfig({ file: join(repo.work, 'mesh-perf.yaml'), abBase: { file: base.file, label: base.label } });
    assert.deepEqual(
      loaded.modes.map((m) => m.name),
      ['direct', 'proxy-base', 'proxy-head'],
    );
    assert.deepEqual(loaded.armsFromBase?.armed, [{ mode: 'proxy', differs: ['local.delay'], values: [{ base: '"0ms"', head: '"1ms"' }] }]);
    assert.match(armsFromBaseLines(loaded.armsFromBase!)[0]!, /mode proxy runs as two arms, base and head \(local\.delay "0ms" → "1ms"\)/);
  } finally {
    await rm(repo.dir, { recursive: true, force: true });
  }
});

test("server manifests edited in place: the base arm deploys the base commit's copy, removed after the run; an unchanged file makes no arms", async () => {
  const kindConfig = `platform: kind
modes:
  - name: baseline
  - name: linkerd
load: { rate: 50, duration: 1s, warmup: 0s }
kubernetes:
  manifests: { server: deploy/server.yaml }
`;
  const server = (replicas: number) => `apiVersion: v1\nkind: Service\nmetadata: { name: echo }\n# replicas ${replicas}\n`;
  const repo = await repository(
    { 'mesh-perf.yaml': kindConfig, 'deploy/server.yaml': server(1) },
    { 'mesh-perf.yaml': kindConfig, 'deploy/server.yaml': server(2) },
  );
  try {
    const base = await baseConfigFor({ input: '', event: prEvent(repo.baseSha), configFile: 'mesh-perf.yaml', cwd: repo.work });
    assert.equal(base.kind, 'file', JSON.stringify(base));
    if (base.kind !== 'file') return;
    const copy = base.baseFiles?.files['deploy/server.yaml'];
    assert.ok(copy, 'the edited file has a copy as the base has it');
    assert.equal(await readFile(copy.copy, 'utf8'), server(1));
    assert.equal(copy.label, `deploy/server.yaml at ${repo.baseSha.slice(0, 7)}`);
    const loaded = await loadConfig({
      file: join(repo.work, 'mesh-perf.yaml'),
      abBase: { file: base.file, label: base.label, files: base.baseFiles!.files },
    });
    assert.deepEqual(
      loaded.modes.map((m) => [m.name, m.serverManifests]),
      [
        ['baseline-base', copy.copy],
        ['baseline-head', undefined],
        ['linkerd-base', copy.copy],
        ['linkerd-head', undefined],
      ],
    );
    assert.match(
      armsFromBaseLines(loaded.armsFromBase!)[0]!,
      new RegExp(
        `mode baseline runs as two arms, base and head \\(serverManifests "deploy/server\\.yaml at ${repo.baseSha.slice(0, 7)}" → "deploy/server\\.yaml"\\)`,
      ),
    );
    await base.baseFiles!.remove();
    assert.equal(existsSync(base.baseFiles!.dir), false);
  } finally {
    await rm(repo.dir, { recursive: true, force: true });
  }
  const unchanged = await repository(
    { 'mesh-perf.yaml': kindConfig, 'deploy/server.yaml': server(1) },
    { 'mesh-perf.yaml': kindConfig, 'deploy/server.yaml': server(1), 'README.md': 'x' },
  );
  try {
    const base = await baseConfigFor({ input: '', event: prEvent(unchanged.baseSha), configFile: 'mesh-perf.yaml', cwd: unchanged.work });
    assert.equal(base.kind === 'file' && base.baseFiles, undefined, 'nothing to copy');
  } finally {
    await rm(unchanged.dir, { recursive: true, force: true });
  }
});

test('a config in a subfolder is read at the base from the same path relative to the working directory', async () => {
  const repo = await repository({ 'perf/mesh-perf.yaml': config('0ms') }, { 'perf/mesh-perf.yaml': config('2ms') });
  try {
    const base = await baseConfigFor({
      input: 'pr-base',
      event: prEvent(repo.baseSha),
      configFile: 'mesh-perf.yaml',
      cwd: join(repo.work, 'perf'),
    });
    assert.equal(base.kind, 'file', JSON.stringify(base));
  } finally {
    await rm(repo.dir, { recursive: true, force: true });
  }
});

test('falls back to history, naming the file and the commit: no file at the base, an invalid one, a commit that cannot be fetched', async () => {
  const absent = await repository({ 'README.md': 'x' }, { 'mesh-perf.yaml': config('1ms') });
  const invalid = await repository(
    { 'mesh-perf.yaml': 'platform: local\nmodes: [{ name: 7 }]\nload: { rate: -1 }\n' },
    { 'mesh-perf.yaml': config('1ms') },
  );
  try {
    const short = absent.baseSha.slice(0, 7);
    const none = await baseConfigFor({ input: '', event: prEvent(absent.baseSha), configFile: 'mesh-perf.yaml', cwd: absent.work });
    assert.equal(none.kind, 'unavailable');
    if (none.kind === 'unavailable')
      assert.deepEqual(armsFromBaseLines(none.summary), [
        `A/B from the PR base's mesh-perf.yaml (${short}): not available (mesh-perf.yaml does not exist at commit ${short} (the PR base, main)); every mode is compared with history`,
      ]);

    const bad = await baseConfigFor({ input: '', event: prEvent(invalid.baseSha), configFile: 'mesh-perf.yaml', cwd: invalid.work });
    assert.equal(bad.kind, 'unavailable');
    if (bad.kind === 'unavailable') {
      assert.match(
        bad.summary.unavailable!,
        new RegExp(`mesh-perf.yaml at commit ${invalid.baseSha.slice(0, 7)} is not a valid config: .*(modes\\[0\\]\\.name|load\\.rate)`),
      );
    }

    const missing = 'a'.repeat(40);
    const gone = await baseConfigFor({ input: '', event: prEvent(missing), configFile: 'mesh-perf.yaml', cwd: absent.work });
    assert.equal(gone.kind, 'unavailable');
    if (gone.kind === 'unavailable')
      assert.match(gone.summary.unavailable!, /commit aaaaaaa \(the PR base, main\) is not in the checkout and could not be fetched: .+/);

    const noFile = await baseConfigFor({ input: '', event: prEvent(absent.baseSha), configFile: undefined, cwd: absent.work });
    assert.equal(noFile.kind, 'unavailable');
  } finally {
    await rm(absent.dir, { recursive: true, force: true });
    await rm(invalid.dir, { recursive: true, force: true });
  }
});

test('not a pull request, or ab-base-config none: no base; a path: that file', async () => {
  const push = readGitHubEvent({ GITHUB_EVENT_NAME: 'push' }, {});
  assert.deepEqual(await baseConfigFor({ input: '', event: push, configFile: 'mesh-perf.yaml', cwd: tmpdir() }), { kind: 'none' });
  assert.deepEqual(await baseConfigFor({ input: 'none', event: prEvent('b'.repeat(40)), configFile: 'mesh-perf.yaml', cwd: tmpdir() }), {
    kind: 'none',
  });
  assert.deepEqual(await baseConfigFor({ input: 'ci/base.yaml', event: push, configFile: 'mesh-perf.yaml', cwd: tmpdir() }), {
    kind: 'file',
    file: 'ci/base.yaml',
    label: 'input ab-base-config (ci/base.yaml)',
  });
});

test("a private repository: the base commit is fetched with the job's token as an http header scoped to the server, never in the url", async () => {
  const calls: string[][] = [];
  let fetched = false;
  const git = async (args: string[]) => {
    calls.push(args);
    if (args.includes('fetch')) fetched = true;
    if (args[0] === 'cat-file' && !fetched) throw new Error('missing');
    if (args[0] === 'show') return config('0ms');
    return '';
  };
  const base = await baseConfigFor({
    input: '',
    event: prEvent('c'.repeat(40)),
    configFile: 'mesh-perf.yaml',
    cwd: tmpdir(),
    token: 'ghs_secret123',
    serverUrl: 'https://github.com',
    git,
  });
  assert.equal(base.kind, 'file');
  const fetch = calls.find((c) => c.includes('fetch'))!;
  const basic = Buffer.from('x-access-token:ghs_secret123').toString('base64');
  assert.deepEqual(fetch, [
    '-c',
    `http.https://github.com/.extraheader=AUTHORIZATION: basic ${basic}`,
    'fetch',
    '--no-tags',
    '--depth=1',
    'origin',
    'c'.repeat(40),
  ]);
  assert.ok(!fetch.some((a) => a.includes('ghs_secret123')), 'the token itself is in no argument');
  assert.equal(redactText(`header ${basic}`), 'header ***', 'the header value is a registered secret');
});

test('inputs ab-head-image (and ab-base-image) make image arms; ab-base-image alone is a usage error naming both inputs', () => {
  assert.equal(imageArms({ abBaseImage: undefined, abHeadImage: undefined }), undefined);
  assert.deepEqual(imageArms({ abBaseImage: undefined, abHeadImage: 'app:2.0.0' }), {
    head: 'app:2.0.0',
    names: { base: 'input ab-base-image', head: 'input ab-head-image' },
  });
  assert.deepEqual(imageArms({ abBaseImage: 'app:1.0.0', abHeadImage: 'app:2.0.0' })?.base, 'app:1.0.0');
  assert.throws(
    () => imageArms({ abBaseImage: 'app:1.0.0', abHeadImage: undefined }),
    (error: unknown) =>
      error instanceof UsageError && /input ab-base-image "app:1\.0\.0": set without ab-head-image; expected both/.test(error.message),
  );
});
