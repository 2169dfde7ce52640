// The setup sub-action's logic: pinned tools downloaded from a real HTTP server on 127.0.0.1,
// verified against their SHA-256, extracted with the real tar, cached by version, put on PATH.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSetupMode, parseToolList, DEFAULT_TOOLS } from '../../src/github/setup-mode.ts';
import type { ToolPin } from '../../src/tools/pins.ts';
import { parseFileCommands } from './harness.ts';

const KEY = `${process.platform}-${process.arch}`;

async function withRunnerEnv<T>(dir: string, inputs: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  process.env.GITHUB_PATH = join(dir, 'github-path');
  process.env.GITHUB_OUTPUT = join(dir, 'github-output');
  await writeFile(process.env.GITHUB_PATH, '');
  await writeFile(process.env.GITHUB_OUTPUT, '');
  for (const [k, v] of Object.entries(inputs)) process.env[`INPUT_${k.toUpperCase()}`] = v;
  try {
    return await fn();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

test('setup downloads, verifies, caches and puts pinned tools on PATH; a bad checksum installs nothing', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-setup-'));
  let hits = 0;
  const server = createServer(async (req, res) => {
    hits++;
    res.end(await readFile(join(dir, 'pkg', req.url === '/tool.tar.gz' ? 'tool.tar.gz' : 'missing')).catch(() => ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const version = `1.${Math.floor(Math.random() * 100)}.0`;
    const stage = join(dir, 'pkg', `meshtool-${version}`);
    await mkdir(stage, { recursive: true });
    await writeFile(join(stage, 'meshtool'), `#!/bin/sh\necho meshtool ${version}\n`);
    await chmod(join(stage, 'meshtool'), 0o755);
    execFileSync('tar', ['-czf', join(dir, 'pkg', 'tool.tar.gz'), '-C', join(dir, 'pkg'), `meshtool-${version}`]);
    const sha256 = createHash('sha256')
      .update(await readFile(join(dir, 'pkg', 'tool.tar.gz')))
      .digest('hex');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tool.tar.gz`;
    const pins: Record<string, ToolPin> = {
      meshtool: { name: 'meshtool', version, assets: { [KEY]: { url, sha256, member: `meshtool-${version}/meshtool` } } },
    };
    const cache = join(dir, 'cache');

    await withRunnerEnv(dir, { tools: 'meshtool', 'cache-dir': cache }, async () => {
      const outcome = await runSetupMode(process.env, pins);
      assert.equal(outcome.exitCode, 0);
      const binary = join(cache, 'meshtool', version, 'meshtool');
      assert.equal(execFileSync(binary).toString().trim(), `meshtool ${version}`);
      assert.equal((await readFile(process.env.GITHUB_PATH!, 'utf8')).trim(), join(cache, 'meshtool', version));
      assert.deepEqual(JSON.parse(parseFileCommands(await readFile(process.env.GITHUB_OUTPUT!, 'utf8')).paths!), { meshtool: binary });
      assert.equal(hits, 1);
      await runSetupMode(process.env, pins);
      assert.equal(hits, 1, 'the second setup uses the cache');
    });

    // A pin whose binary is named apart from the tool (k6-pacer's is a k6): installed under that name.
    const renamed: Record<string, ToolPin> = { 'meshtool-x': { ...pins.meshtool!, name: 'meshtool-x', binary: 'meshtool' } };
    await withRunnerEnv(dir, { tools: 'meshtool-x', 'cache-dir': cache }, async () => {
      await runSetupMode(process.env, renamed);
      const binary = join(cache, 'meshtool-x', version, 'meshtool');
      assert.equal(execFileSync(binary).toString().trim(), `meshtool ${version}`);
      assert.deepEqual(JSON.parse(parseFileCommands(await readFile(process.env.GITHUB_OUTPUT!, 'utf8')).paths!), { 'meshtool-x': binary });
    });

    // README's `cache-dir: ~/mesh-perf-tools`: under $HOME, where actions/cache restores it, not a
    // folder named "~" in the workspace.
    await withRunnerEnv(dir, { tools: 'meshtool', 'cache-dir': '~/home-cache' }, async () => {
      process.env.HOME = join(dir, 'home');
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        await runSetupMode(process.env, pins);
      } finally {
        process.chdir(cwd);
      }
      const binary = join(dir, 'home', 'home-cache', 'meshtool', version, 'meshtool');
      assert.deepEqual(JSON.parse(parseFileCommands(await readFile(process.env.GITHUB_OUTPUT!, 'utf8')).paths!), { meshtool: binary });
      assert.ok(!existsSync(join(dir, '~')), 'no folder named ~');
    });

    const tampered: Record<string, ToolPin> = {
      meshtool: {
        ...pins.meshtool!,
        version: `${version}-x`,
        assets: { [KEY]: { url, sha256: '0'.repeat(64), member: `meshtool-${version}/meshtool` } },
      },
    };
    await withRunnerEnv(dir, { tools: 'meshtool', 'cache-dir': cache }, async () => {
      await assert.rejects(runSetupMode(process.env, tampered), /SHA-256 of .* is [0-9a-f]{64}, expected 0{64}; refusing to use it/);
      assert.ok(!existsSync(join(cache, 'meshtool', `${version}-x`, 'meshtool')), 'nothing installed');
      await assert.rejects(runSetupMode(process.env, {}), /input tools: no pinned version of meshtool \(pinned tools: none\)/);
    });
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('tools: gateway-api (the CRDs, no program) is refused by name with the tools setup can install', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-setup-'));
  try {
    await withRunnerEnv(dir, { tools: 'k6 gateway-api', 'cache-dir': join(dir, 'cache') }, async () => {
      await assert.rejects(
        runSetupMode(process.env),
        /input tools: gateway-api is not a command-line tool \(the action installs it into the cluster itself\); the setup action puts .*istioctl, k6, k6-pacer, kind, linkerd on PATH/,
      );
      assert.ok(!existsSync(join(dir, 'cache')), 'nothing downloaded');
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the tools input accepts commas, spaces and newlines, and defaults to the four tools', () => {
  assert.deepEqual(parseToolList('kind, k6\nistioctl  k6'), ['kind', 'k6', 'istioctl']);
  assert.deepEqual(parseToolList(''), DEFAULT_TOOLS);
});
