// The k6 wrapper of k6-operator runner pods, run as the runtime would run it: first on PATH
// under the name `k6`, by /bin/sh (dash here; BusyBox ash in the k6 image, both POSIX), with the
// real k6 behind it. It must record k6's exit code and stay up until released, pass other k6
// commands straight through, and stop k6 when the pod is deleted (SIGTERM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { localK6Dir } from '../support/k8s/tools.ts';
import { EXIT_FILE, RELEASE_FILE, STDERR_FILE, workDirOf, WRAPPER_SCRIPT } from '../../src/platform/kubernetes/k6-operator/wrapper.ts';

const SCRIPT = `
export const options = { scenarios: { measure: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '__DURATION__', preAllocatedVUs: 2 } } };
export default function () {}
export function handleSummary() { return { 'summary.json': '{"done":true}' }; }
`;

function setUp(duration: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-wrapper-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'k6'), WRAPPER_SCRIPT);
  chmodSync(join(bin, 'k6'), 0o755);
  writeFileSync(join(dir, 'test.js'), SCRIPT.replace('__DURATION__', duration));
  const pod = `wrapper-test-${randomBytes(4).toString('hex')}`;
  const env = { PATH: `${bin}:${localK6Dir()}:/usr/bin:/bin`, MESH_PERF_POD: pod, K6_NO_USAGE_REPORT: 'true', HOME: process.env.HOME };
  return {
    dir,
    pod,
    env,
    work: workDirOf(pod),
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(workDirOf(pod), { recursive: true, force: true });
    },
  };
}

/** As k6-operator starts it: `k6 run ... <script>` resolved through PATH, i.e. the wrapper. */
function startRun(t: ReturnType<typeof setUp>) {
  const child = spawn('k6', ['run', '--quiet', join(t.dir, 'test.js')], { env: t.env, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited };
}

async function waitFor(path: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!existsSync(path)) {
    assert.ok(Date.now() < deadline, `${path} did not appear within ${ms} ms`);
    await sleep(100);
  }
}

test('run: k6 works in its own directory, the exit code is recorded, the wrapper waits for release and exits with it', async () => {
  const t = setUp('1s');
  try {
    const { exited } = startRun(t);
    await waitFor(join(t.work, EXIT_FILE), 15_000);
    assert.equal(readFileSync(join(t.work, EXIT_FILE), 'utf8').trim(), '0');
    assert.equal(readFileSync(join(t.work, 'summary.json'), 'utf8'), '{"done":true}');
    assert.ok(existsSync(join(t.work, STDERR_FILE)));
    assert.equal(await Promise.race([exited, sleep(1500, 'waiting')]), 'waiting', 'the wrapper stays up until released');
    writeFileSync(join(t.work, RELEASE_FILE), '');
    assert.equal(await exited, 0);
    assert.ok(!existsSync(t.work), 'released: the work directory is removed');
  } finally {
    t.cleanup();
  }
});

test("k6's own failure code is recorded and returned (a script error: 107)", async () => {
  const t = setUp('1s');
  try {
    writeFileSync(join(t.dir, 'test.js'), 'throw new Error("boom");\nexport default function () {}\n');
    const { exited } = startRun(t);
    await waitFor(join(t.work, EXIT_FILE), 15_000);
    assert.equal(readFileSync(join(t.work, EXIT_FILE), 'utf8').trim(), '107');
    assert.match(readFileSync(join(t.work, STDERR_FILE), 'utf8'), /boom/);
    writeFileSync(join(t.work, RELEASE_FILE), '');
    assert.equal(await exited, 107);
  } finally {
    t.cleanup();
  }
});

test('other k6 commands pass straight through (the initializer runs k6 archive and inspect)', () => {
  const t = setUp('1s');
  try {
    const out = execFileSync('k6', ['version'], { env: t.env, encoding: 'utf8' });
    assert.match(out, /k6 v1\.4\.2/);
    assert.ok(!existsSync(t.work), 'no work directory for a pass-through command');
  } finally {
    t.cleanup();
  }
});

test('SIGTERM (the pod is deleted) stops k6 and the wrapper at once', async () => {
  const t = setUp('60s');
  try {
    const { child, exited } = startRun(t);
    await waitFor(join(t.work, STDERR_FILE), 15_000);
    await sleep(1000);
    const sent = Date.now();
    child.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(8000, 'still running')]);
    assert.notEqual(code, 'still running');
    assert.ok(Date.now() - sent < 8000);
    // k6 stopped by a signal exits 105 (ExternalAbort); the wrapper returns that code and, as
    // nobody will read its files, removes its directory (kwok runs pods on this host, where an
    // emptyDir does not go with the pod).
    assert.equal(code, 105);
    assert.ok(!existsSync(t.work), 'deleted while k6 ran: the work directory is removed');
  } finally {
    t.cleanup();
  }
});

test("SIGTERM while waiting for release (the run was cancelled after k6 ended): k6's code, the directory removed", async () => {
  const t = setUp('1s');
  try {
    const { child, exited } = startRun(t);
    await waitFor(join(t.work, EXIT_FILE), 15_000);
    child.kill('SIGTERM');
    assert.equal(await Promise.race([exited, sleep(5000, 'still running')]), 0);
    assert.ok(!existsSync(t.work), 'the work directory is removed');
  } finally {
    t.cleanup();
  }
});
