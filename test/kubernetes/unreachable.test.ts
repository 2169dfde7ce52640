// A kubeconfig pointing nowhere: the real CLI exits 3 (environment) promptly, naming the
// server, whether the port refuses connections or accepts them and never answers. Also the
// kubeconfig/context usage errors (exit 2). No credentials appear in the output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/util/net.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
// Run from the repository (tsx resolves from the working directory); the config path is absolute.
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'sekret-token-that-must-not-be-printed';

function kubeconfig(server: string): string {
  return `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${server}", insecure-skip-tls-verify: true } }]
users: [{ name: u, user: { token: ${TOKEN} } }]
contexts: [{ name: nowhere, context: { cluster: c, user: u } }]
current-context: nowhere
`;
}

function runCli(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: REPO,
      env: { ...process.env, KUBECONFIG: '', COLUMNS: '1000' },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    // A hang is a failure: the probe has a 5 s deadline, so a minute is far beyond it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

function setup(server: string, extra = ''): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-nowhere-'));
  writeFileSync(join(dir, 'kubeconfig'), kubeconfig(server));
  writeFileSync(
    join(dir, 'mesh-perf.yaml'),
    `platform: kubeconfig\nmodes: [{ name: baseline }]\nload: { rate: 10 }\nkubernetes:\n  kubeconfig: ${join(dir, 'kubeconfig')}\n${extra}`,
  );
  return { dir, config: join(dir, 'mesh-perf.yaml') };
}

test('connection refused: exit 3 naming the server, no token in the output', async () => {
  const port = await freePort();
  const server = `https://127.0.0.1:${port}`;
  const { dir, config } = setup(server);
  try {
    const result = await runCli(['up', '--config', config]);
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`cannot reach the Kubernetes API server ${server.replace(/\./g, '\\.')} \\(context "nowhere"\\): connect ECONNREFUSED`),
    );
    assert.ok(!result.stderr.includes('left what was created'), 'nothing was created, nothing to inspect');
    assert.ok(!(result.stderr + result.stdout).includes(TOKEN));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server that accepts and never answers: exit 3 after the probe deadline, naming the server', async () => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const server = `https://127.0.0.1:${(silent.address() as { port: number }).port}`;
  const { dir, config } = setup(server);
  try {
    const result = await runCli(['up', '--config', config]);
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, new RegExp(`cannot reach the Kubernetes API server ${server.replace(/\./g, '\\.')}.*no answer within 5s`));
    assert.ok(sockets.length > 0, 'the CLI did connect');
  } finally {
    for (const s of sockets) s.destroy();
    silent.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing kubeconfig file or unknown context is a usage error (exit 2) with a suggestion', async () => {
  const port = await freePort();
  const missing = setup(`https://127.0.0.1:${port}`);
  const wrongContext = setup(`https://127.0.0.1:${port}`, '  context: nowher\n');
  try {
    rmSync(join(missing.dir, 'kubeconfig'));
    const a = await runCli(['up', '--config', missing.config]);
    assert.equal(a.code, 2, a.stderr);
    assert.match(a.stderr, /kubernetes\.kubeconfig: .*kubeconfig does not exist/);
    const b = await runCli(['up', '--config', wrongContext.config]);
    assert.equal(b.code, 2, b.stderr);
    assert.match(b.stderr, /context "nowher" is not in the kubeconfig; did you mean "nowhere"\?/);
  } finally {
    rmSync(missing.dir, { recursive: true, force: true });
    rmSync(wrongContext.dir, { recursive: true, force: true });
  }
});
