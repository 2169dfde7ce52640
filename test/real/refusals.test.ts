// Bad input to the real-node tier: a missing component (which, and the command that builds it), the
// node's range already in use on the host, a node left by a killed run (refused by name, removed by
// down), and modes this node cannot run (refused with why, exit 2), each as a user meets it through
// scripts/real/node.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { hostSnapshot, nodeProcesses } from '../support/real/host-state.ts';
import { CGROUP_ROOT, paths } from '../support/real/layout.ts';
import { readRecord } from '../support/real/node.ts';
import { runningInits } from '../support/real/actions/namespaces.ts';
import { alive } from '../support/real/processes.ts';
import { nodeSettings } from '../support/real/product.ts';

const CLI = ['--import', 'tsx', 'scripts/real/node.ts'];
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 300_000 });

test('a missing component: up refuses before creating anything, naming each and the command that builds it (exit 2)', () => {
  const empty = mkdtempSync(join(tmpdir(), 'mesh-perf-real-empty-'));
  try {
    const before = hostSnapshot();
    const run = cli(['up'], { MESH_PERF_CACHE: empty });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /components are missing/);
    assert.match(run.stderr, /kubelet 1\.\d+\.\d+ \(.*\): run `bash scripts\/real\/build\.sh kubelet`/);
    assert.match(
      run.stderr,
      /ztunnel [0-9a-f]{12} .*MESH_PERF_REAL_BIN=<a directory with ztunnel\.xz built from github\.com\/istio\/ztunnel/,
    );
    assert.match(run.stderr, /istioctl .*bash scripts\/k8s\/build\.sh istioctl/);
    assert.deepEqual(hostSnapshot(), before);
    assert.equal(existsSync(join(empty, 'real', 'node.json')), false);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test("the node's range already in use on the host: refused naming the interface, nothing created", () => {
  // A bridge holding an address of the range: what an earlier setup on the host (the trial
  // recipe's cni0) leaves behind.
  const link = 'mp-taken0';
  assert.equal(spawnSync('ip', ['link', 'add', link, 'type', 'bridge']).status, 0);
  try {
    assert.equal(spawnSync('ip', ['addr', 'add', '198.18.7.1/24', 'dev', link]).status, 0);
    const before = hostSnapshot();
    const run = cli(['up']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /198\.18\.0\.0\/15 is already in use on this machine \(address 198\.18\.7\.1\/24 on mp-taken0[;)]/);
    assert.match(run.stderr, /ip link del <interface>/);
    assert.deepEqual(hostSnapshot(), before);
    assert.equal(readRecord(), undefined);
  } finally {
    spawnSync('ip', ['link', 'del', link]);
  }
});

test('a node left by a killed run: the next up refuses it by name; down removes every process, mount and cgroup of it', async () => {
  const before = hostSnapshot();
  // Kill the harness once the node's control plane is starting: its namespaces and etcd stay behind.
  const child = spawn(process.execPath, [...CLI, 'up'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`up never reached kube-apiserver:\n${output}`)), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('▶ kube-apiserver')) {
        clearTimeout(timer);
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  await new Promise((r) => child.once('close', r));
  const record = readRecord()!;
  assert.ok(record.init && alive(record.init), JSON.stringify(record));
  assert.ok(nodeProcesses(record.namespaces!).length >= 2, 'init and etcd are left');
  assert.ok(existsSync(`/sys/fs/cgroup/cpu/${CGROUP_ROOT}`));

  const again = cli(['up']);
  assert.equal(again.status, 2, again.stderr);
  assert.match(
    again.stderr,
    new RegExp(`a real node from an earlier run is still up \\(init pid ${record.init}, started ${record.startedAt}`),
  );
  assert.match(again.stderr, /node --import tsx scripts\/real\/node\.ts down/);

  const down = cli(['down']);
  assert.equal(down.status, 0, down.stderr);
  assert.deepEqual(nodeProcesses(record.namespaces!), []);
  assert.equal(readRecord(), undefined);
  assert.deepEqual(hostSnapshot(), before);
});

test('a record whose node is gone (the machine restarted) and its empty cgroups: cleaned by name before anything starts (check: the preflight alone), said in one line each', () => {
  // Never over a live node's record (that would lose it).
  assert.deepEqual(runningInits(), [], 'a node is up');
  const dead = spawnSync('true').pid!;
  mkdirSync(paths.logs(), { recursive: true });
  writeFileSync(
    paths.state(),
    JSON.stringify({ init: dead, startedAt: 'then', processes: [{ name: 'etcd', pid: dead, expect: 'etcd' }], done: ['namespaces'] }),
  );
  mkdirSync(`/sys/fs/cgroup/pids/${CGROUP_ROOT}/kubepods`, { recursive: true });
  const run = cli(['check']);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /a killed run left a record \(.*node\.json\) whose node is gone: removed/);
  assert.match(run.stdout, new RegExp(`a killed run left empty cgroups \\(.*${CGROUP_ROOT}.*\\): removed`));
  assert.equal(readRecord(), undefined);
  assert.equal(existsSync(`/sys/fs/cgroup/pids/${CGROUP_ROOT}`), false);
});

test('modes the node cannot run (sidecar, waypoint, the ingress gateway): refused with why before anything starts, exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-real-modes-'));
  try {
    const config = join(dir, 'real.yaml');
    writeFileSync(
      config,
      stringify({
        ...nodeSettings(),
        modes: [{ name: 'baseline' }, { name: 'istio-sidecar' }, { name: 'istio-waypoint' }],
        load: { rate: 100 },
        kubernetes: { ...(nodeSettings().kubernetes as object), ingress: { replicas: 1 } },
      }),
    );
    const run = cli(['mesh-perf', '--', 'run', '--config', config]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /the real node cannot run this/);
    assert.match(
      run.stderr,
      /modes\[1\] istio-sidecar \(istio-sidecar\): its sidecar proxy is Envoy \(Istio's proxyv2 image\), which cannot be built on this machine/,
    );
    assert.match(run.stderr, /modes\[2\] istio-waypoint \(istio-waypoint\): its waypoint proxy is Envoy/);
    assert.match(run.stderr, /kubernetes\.ingress: Istio's ingress gateway is Envoy/);
    assert.match(run.stderr, /Modes that run on it: baseline, istio-ambient/);
    assert.equal(readFileSync(config, 'utf8').includes('istio-sidecar'), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
