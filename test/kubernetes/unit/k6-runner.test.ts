// The in-cluster k6 runner's pure parts: the exact command run in the client pod, the progress
// lines parsed from k6's non-TTY output, and the file upload commands (executed here with a
// real sh and base64 to prove they reproduce the bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k6Command, OUTPUT_MARK, parseProgressLine } from '../../../src/platform/kubernetes/k6-runner.ts';
import { exitCodeFromStatus, uploadCommands } from '../../../src/platform/kubernetes/exec.ts';

const invocation = {
  files: { 'mesh-perf.js': '' },
  entry: 'mesh-perf.js',
  args: ['--summary-trend-stats', 'avg,p(99)'],
  env: { MESH_PERF_MODE: 'baseline', MESH_PERF_URL: 'http://echo.ns.svc.cluster.local:8080/' },
  summaryFile: 'summary.json',
  expectedSeconds: 10,
};

test('k6 command: cd into the work dir, k6 in a session of its own with its pid and exit code recorded, args then -e pairs then the entry', () => {
  const command = k6Command('/tmp/mesh-perf-k6/abc', invocation);
  assert.deepEqual(command.slice(0, 2), ['sh', '-c']);
  assert.match(
    command[2]!,
    /\$\(command -v setsid\) sh -c 'K6_NO_USAGE_REPORT=true K6_AUTO_EXTENSION_RESOLUTION=false k6 run "\$@" >>\.k6\.out 2>&1 <\/dev\/null & echo \$! > \.k6\.pid; wait \$!; echo \$\? > \.k6\.exit\.tmp; mv \.k6\.exit\.tmp \.k6\.exit' k6 "\$@" &/,
  );
  assert.deepEqual(command.slice(3), [
    '/tmp/mesh-perf-k6/abc',
    '--no-color',
    '--summary-trend-stats',
    'avg,p(99)',
    '-e',
    'MESH_PERF_MODE=baseline',
    '-e',
    'MESH_PERF_URL=http://echo.ns.svc.cluster.local:8080/',
    'mesh-perf.js',
  ]);
});

/** A stand-in for k6 on PATH (the command's shell runs it as the pod's would): prints a line every 0.2 s, exits with a code. */
function fakeK6(dir: string, lines: number, code: number): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'k6'),
    `#!/bin/sh\nfor i in $(seq 1 ${lines}); do echo "running ($i) args $*"; sleep 0.2; done\necho "k6 is done" >&2\nexit ${code}\n`,
    { mode: 0o755 },
  );
  return bin;
}

test('k6 command run by a real sh: progress lines stream until the mark, then the tail of k6 output; the exit code is k6s', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-k6cmd-'));
  try {
    const bin = fakeK6(dir, 2, 99);
    const [sh, ...args] = k6Command(dir, invocation);
    const run = spawnSync(sh!, args, { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    assert.equal(run.status, 99, run.stderr);
    const [progress, tail] = run.stdout.split(`${OUTPUT_MARK}\n`);
    assert.match(progress!, /running \(1\) args run --no-color --summary-trend-stats avg,p\(99\) -e MESH_PERF_MODE=baseline/);
    assert.match(tail!, /running \(2\)[\s\S]*k6 is done\n$/);
    assert.equal(readFileSync(join(dir, '.k6.exit'), 'utf8'), '99\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('k6 command: the follower killed (the exec stream broke with the API server), k6 runs on and its exit code is still written', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-k6cmd-'));
  try {
    const bin = fakeK6(dir, 5, 0);
    const [sh, ...args] = k6Command(dir, invocation);
    const follower = spawn(sh!, args, { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    follower.kill('SIGKILL');
    for (let i = 0; i < 100 && !existsSync(join(dir, '.k6.exit')); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(readFileSync(join(dir, '.k6.exit'), 'utf8'), '0\n');
    assert.match(readFileSync(join(dir, '.k6.out'), 'utf8'), /running \(5\)[\s\S]*k6 is done/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('progress lines from k6 without a TTY', () => {
  const cases: [string, ReturnType<typeof parseProgressLine>][] = [
    ['running (01.0s), 0/2 VUs, 6 complete and 0 interrupted iterations', { elapsedS: 1, iterations: 6 }],
    ['running (1m02.5s), 10/20 VUs, 12000 complete and 3 interrupted iterations', { elapsedS: 62.5, iterations: 12003 }],
    ['a      [  26% ] 0/2 VUs  1.0s/4s  5.00 iters/s', undefined],
    ['', undefined],
  ];
  for (const [line, expected] of cases) assert.deepEqual(parseProgressLine(line), expected, line);
});

test('exit codes from exec statuses: API NonZeroExitCode, kwok-style internal errors, success', () => {
  assert.equal(exitCodeFromStatus({ status: 'Success' }), 0);
  assert.equal(
    exitCodeFromStatus({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '99' }] } }),
    99,
  );
  assert.equal(
    exitCodeFromStatus({ status: 'Failure', message: 'error executing command in container: cmd wait: sh -c ...: exit status 107' }),
    107,
  );
  assert.equal(exitCodeFromStatus({ status: 'Failure', message: 'container not found' }), undefined);
  assert.equal(exitCodeFromStatus(undefined), undefined);
});

test('upload commands rebuild the exact bytes in chunks (run with the real sh and base64)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-upload-'));
  try {
    for (const content of ['', 'export default function () {}\n', 'é😀'.repeat(600)]) {
      const path = join(dir, 'sub', 'file.js');
      const commands = uploadCommands(path, content, 1000);
      assert.equal(commands.length, Math.max(1, Math.ceil(Buffer.byteLength(content) / 1000)));
      for (const command of commands) execFileSync(command[0]!, command.slice(1));
      assert.equal(readFileSync(path, 'utf8'), content);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
