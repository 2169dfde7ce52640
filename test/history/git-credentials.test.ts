// HTTPS stores need a token: against git's own smart-HTTP backend requiring Basic auth, publish
// without a token (or with a wrong one) fails clearly with exit 3 and writes nothing; with the
// token from MESH_PERF_STORE_TOKEN it succeeds. The token never appears in output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildRunResult } from '../support/results-fixture.ts';
import { bareRepo, branchHead, git, tempDir } from './support/git-repo.ts';
import { startGitHttpServer } from './support/git-http-server.ts';
import { envWithout, runCli } from './support/mesh-perf-cli.ts';

test('HTTPS store: missing or wrong credentials are a clear exit 3 with nothing written; the token works and is never printed', {
  timeout: 240_000,
}, async () => {
  const dir = await tempDir('git-http');
  const token = `tok_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const server = await startGitHttpServer(join(dir, 'srv'), token);
  try {
    await mkdir(join(dir, 'srv'));
    const remote = await bareRepo(join(dir, 'srv'), 'history.git');
    await git(remote, 'config', 'http.receivepack', 'true');
    const results = join(dir, 'run');
    await mkdir(results);
    await writeFile(join(results, 'results.json'), JSON.stringify(buildRunResult({ suite: 'nightly' })));
    const url = `${server.url}history.git`;
    const base = envWithout('MESH_PERF_STORE_TOKEN', 'GITHUB_TOKEN');

    const none = await runCli(['publish', '--results', results, '--store', url], { env: base });
    assert.equal(none.code, 3, none.stderr);
    assert.match(none.stderr, /refused access/);
    assert.match(none.stderr, /MESH_PERF_STORE_TOKEN/);
    assert.match(none.stderr, /Nothing was written/);
    assert.equal(await branchHead(remote, 'gh-pages'), undefined);

    const wrong = `${token}x`;
    const bad = await runCli(['publish', '--results', results, '--store', url], { env: { ...base, MESH_PERF_STORE_TOKEN: wrong } });
    assert.equal(bad.code, 3, bad.stderr);
    assert.ok(!bad.stderr.includes(wrong) && !bad.stdout.includes(wrong), 'the token is not printed');
    assert.ok(!bad.stderr.includes(Buffer.from(`x-access-token:${wrong}`).toString('base64')), 'nor its encoded header');
    assert.equal(await branchHead(remote, 'gh-pages'), undefined);

    const good = await runCli(['publish', '--results', results, '--store', url], { env: { ...base, MESH_PERF_STORE_TOKEN: token } });
    assert.equal(good.code, 0, good.stderr);
    assert.ok(!good.stderr.includes(token) && !good.stdout.includes(token), 'the token is not printed');
    assert.ok(await branchHead(remote, 'gh-pages'), 'published with the token');
    assert.ok(
      server.requests.some((r) => r.authorized && r.path.endsWith('/git-receive-pack')),
      'the push went through the authenticated backend',
    );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
