// The in-cluster k6 runner's pure parts: the exact command run in the client pod, the progress
// lines parsed from k6's non-TTY output, and the file upload commands (executed here with a
// real sh and base64 to prove they reproduce the bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { k6Command, parseProgressLine } from '../../../src/platform/kubernetes/k6-runner.ts';
import { exitCodeFromStatus, uploadCommands } from '../../../src/platform/kubernetes/exec.ts';

test('k6 command: cd into the work dir, background k6 with its pid recorded, args then -e pairs then the entry', () => {
  const command = k6Command('/tmp/mesh-perf-k6/abc', {
    files: { 'mesh-perf.js': '' },
    entry: 'mesh-perf.js',
    args: ['--summary-trend-stats', 'avg,p(99)'],
    env: { MESH_PERF_MODE: 'baseline', MESH_PERF_URL: 'http://echo.ns.svc.cluster.local:8080/' },
    summaryFile: 'summary.json',
    expectedSeconds: 10,
  });
  assert.deepEqual(command, [
    'sh',
    '-c',
    'cd "$0" || exit 127; K6_NO_USAGE_REPORT=true K6_AUTO_EXTENSION_RESOLUTION=false k6 run "$@" & echo $! > .k6.pid; wait $!',
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
