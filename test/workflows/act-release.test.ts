// .github/workflows/release.yml, unchanged, run by a real workflow engine (act) in a copy of the
// package's files: a dry run by hand packs the real package and runs `npm publish --dry-run`
// (publishing nothing), and a tag that is not the package's version, or a real publish from a
// branch, stops at the check before npm is asked to publish. The registry is pointed at a closed
// local port, so nothing can reach npmjs.org. Not provable here: the real publish (it needs the
// NPM_TOKEN secret) and its provenance statement (it needs GitHub's OIDC token, which act has not).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ACT, CALLER_REPO, ROOT, runAct, tail, type World } from './act/harness.ts';

// The files the release job reads: the package (as npm packs it) and the check it runs.
const PACKAGE_FILES = ['package.json', 'README.md', 'LICENSE', 'dist', 'k6', 'schema', 'manifests', 'scripts/check-package.mjs'];
const CLOSED_REGISTRY = 'http://127.0.0.1:9/';
let world: World;
let repo: string;
let version: string;

before(async () => {
  assert.ok(existsSync(ACT), `act is not at ${ACT}: run bash scripts/install-test-tools.sh act`);
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-act-release-'));
  const artifacts = join(dir, 'artifacts');
  await mkdir(artifacts);
  world = {
    dir,
    serverUrl: `file://${join(dir, 'server')}`,
    actionBare: '',
    callerBare: '',
    artifacts,
    close: () => rm(dir, { recursive: true, force: true }),
  };
  repo = join(dir, 'repo');
  for (const path of [...PACKAGE_FILES, '.github/workflows/release.yml']) await cp(join(ROOT, path), join(repo, path), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
  git('init', '--quiet');
  git('add', '-A');
  git('commit', '--quiet', '-m', 'release candidate');
  git('remote', 'add', 'origin', `https://github.com/${CALLER_REPO}.git`);
  version = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version;
});

after(async () => {
  await world?.close();
});

// GitHub's workflow_dispatch payload carries inputs as strings, booleans too.
const release = (event: string, payload: unknown, runId: number) =>
  runAct({
    world,
    caller: repo,
    workflow: 'release.yml',
    event,
    payload,
    token: 'ghs_release0123456789',
    apiUrl: 'http://127.0.0.1:9',
    runId,
    // No retries against the closed port (npm asks it who is logged in), no colours in the log.
    env: { NPM_CONFIG_REGISTRY: CLOSED_REGISTRY, NPM_CONFIG_FETCH_RETRIES: '0', NPM_CONFIG_COLOR: 'false' },
    timeoutMs: 240_000,
  });

test('release.yml by hand (dry-run): the package is checked, packed and put through npm publish --dry-run', {
  timeout: 300_000,
}, async () => {
  const run = await release('workflow_dispatch', { inputs: { 'dry-run': 'true' }, ref: 'refs/heads/main' }, 901);
  assert.equal(run.code, 0, tail(run.output, 120));
  assert.match(run.output, new RegExp(`mesh-perf@${version.replace(/\./g, '\\.')}: package checked`));
  // npm's own listing of the tarball it would publish: the CLI's bundle in, no test file.
  assert.match(run.output, /npm notice [\d.]+k?B dist\/cli\.js/);
  assert.match(run.output, /npm notice [\d.]+k?B k6\/mesh-perf-lib\.js/);
  assert.doesNotMatch(run.output, /npm notice [\d.]+k?B (test|src|bench)\//);
  assert.match(run.output, new RegExp(`\\+ mesh-perf@${version.replace(/\./g, '\\.')}`));
  assert.match(run.output, /\(dry-run\)/);
});

test('release.yml on a tag that is not the package version stops before npm publish', { timeout: 300_000 }, async () => {
  const run = await release('push', { ref: 'refs/tags/v99.0.0', ref_type: 'tag', ref_name: 'v99.0.0' }, 902);
  assert.notEqual(run.code, 0, tail(run.output));
  assert.match(run.output, new RegExp(`the tag v99\\.0\\.0 is not the package's version v${version.replace(/\./g, '\\.')}`));
  assert.doesNotMatch(run.output, /npm notice Publishing/);
});

test('release.yml by hand without dry-run, from a branch, is refused: a real publish needs a release tag', {
  timeout: 300_000,
}, async () => {
  const run = await release('workflow_dispatch', { inputs: { 'dry-run': 'false' }, ref: 'refs/heads/main' }, 903);
  assert.notEqual(run.code, 0, tail(run.output));
  assert.match(run.output, /a real publish runs only on a release tag/);
  assert.doesNotMatch(run.output, /npm notice Publishing/);
});
