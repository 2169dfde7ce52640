// Bad input to the kind tier, as a user meets it through scripts/kind/host.ts: a missing component
// (which, and the command that builds it), the kind network's range already in use on the host
// (refused naming the interface: the cluster would not be contained), and a host left by a killed
// run (refused by name; down removes every process, mount and cgroup of it). Nothing is created
// on the host by a refusal.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CGROUP_PARENT, paths } from '../support/kind/layout.ts';
import { hostSnapshot } from '../support/real/host-state.ts';
import { alive } from '../support/real/processes.ts';

const CLI = ['--import', 'tsx', 'scripts/kind/host.ts'];
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });

test('a missing component: up refuses before creating anything, naming each and the command that builds it (exit 2)', () => {
  const empty = mkdtempSync(join(tmpdir(), 'mesh-perf-kind-empty-'));
  try {
    const before = hostSnapshot();
    const run = cli(['up'], { MESH_PERF_CACHE: empty, MESH_PERF_KIND_STATE: join(empty, 'kind') });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the kind tier cannot start, components are missing/);
    // kind itself, the node image's pieces, and the real tier's data planes, each with its command.
    assert.match(run.stderr, /^ {2}kind 0\.31\.0 \(.*\): run `.*bash scripts\/kind\/build\.sh/m);
    assert.match(run.stderr, /^ {2}containerd 2\.2\.0 .*: run `/m);
    assert.match(run.stderr, /^ {2}ztunnel .*: run `.*scripts\/real\/build\.sh/m);
    assert.deepEqual(hostSnapshot(), before);
    assert.equal(existsSync(join(empty, 'kind', 'host.json')), false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test("the kind network's range already in use on the host: refused naming the interface, nothing created (exit 2)", () => {
  // A bridge holding an address of the range, as an earlier setup on the host leaves behind.
  const link = 'mp-kindtaken0';
  assert.equal(spawnSync('ip', ['link', 'add', link, 'type', 'bridge']).status, 0);
  try {
    assert.equal(spawnSync('ip', ['addr', 'add', '198.18.9.1/24', 'dev', link]).status, 0);
    const before = hostSnapshot();
    const run = cli(['up']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the kind network's subnet \S+ \(and the rest of 198\.18\.0\.0\/15\) is already in use on this machine/);
    assert.match(run.stderr, /198\.18\.9\.1\/24 on mp-kindtaken0/);
    assert.match(run.stderr, /ip link del <interface>/);
    assert.deepEqual(hostSnapshot(), before);
    assert.equal(existsSync(paths.state()), false);
  } finally {
    spawnSync('ip', ['link', 'del', link]);
  }
});

test('a kind host left by a killed run: the next up refuses it by name; down removes every process, mount and cgroup of it', async (t) => {
  const before = hostSnapshot();
  // Whatever fails below, the next test file must not meet this host.
  t.after(() => cli(['down']));
  // Kill the harness once dockerd is running in the host's namespaces: they stay behind.
  const child = spawn(process.execPath, [...CLI, 'up'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<number | null>((r) => child.once('close', r));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`up never reached the registry:\n${output}`)), 180_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('▶ registry')) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void closed.then((code) => {
      clearTimeout(timer);
      reject(new Error(`up ended (exit ${code}) before the registry:\n${output}`));
    });
  });
  await closed;
  const status = cli(['status']);
  assert.equal(status.status, 0, `${status.stdout}${status.stderr}`);
  const init = Number(/init pid (\d+)/.exec(status.stdout)?.[1]);
  assert.ok(alive(init), status.stdout);

  const again = cli(['up']);
  assert.equal(again.status, 2, again.stderr);
  assert.match(again.stderr, new RegExp(`a kind host from an earlier run is still up \\(init pid ${init}`));
  assert.match(again.stderr, /node --import tsx scripts\/kind\/host\.ts down/);

  const down = cli(['down']);
  assert.equal(down.status, 0, down.stderr);
  assert.equal(alive(init), false);
  assert.equal(cli(['status']).status, 1);
  assert.equal(existsSync(`/sys/fs/cgroup/cpu/${CGROUP_PARENT}`), false);
  assert.deepEqual(hostSnapshot(), before);
});
