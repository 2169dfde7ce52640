// Issue 28, the parts that need the CLI as a process: a reader that closes the pipe early
// (`mesh-perf plan | head -n 1`) and paths on which Node's own recursive mkdir never returns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CLI, runCli, withTempDir } from '../support/cli.ts';

/** The CLI with its stdout (or stderr) read once and then closed, as `| head -c N` does. */
function withClosedReader(args: string[], cwd: string, stream: 'stdout' | 'stderr') {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; other: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CLI, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let other = '';
    const closing = child[stream];
    const kept = stream === 'stdout' ? child.stderr : child.stdout;
    kept.on('data', (c: Buffer) => (other += c.toString()));
    closing.once('data', () => closing.destroy());
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, other });
    });
  });
}

test('plan piped into a reader that stops after the first chunk: exit 0, no EPIPE trace', { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    // Thousands of rows: the reader is gone long before the table is written.
    const run = await withClosedReader(['plan', '--preset', 'ambient-modes', '--repetitions', '2000'], dir, 'stdout');
    assert.equal(run.signal, null);
    assert.equal(run.code, 0, run.other);
    assert.doesNotMatch(run.other, /EPIPE|node:internal|\n\s+at /);
  });
});

test("an error whose stderr is closed by the reader still exits with the error's code", { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    const run = await withClosedReader(['plan', '--config', 'missing.yaml', '--rate', '5'], dir, 'stderr');
    assert.equal(run.signal, null);
    assert.equal(run.code, 2);
  });
});

for (const args of [
  ['init', '--config', '/proc/mesh-perf-x/y.yaml'],
  ['report', '--results', 'r.json', '--out', '/proc/mesh-perf-x'],
  ['publish', '--store', '/proc/mesh-perf-x', '--results', 'r.json'],
]) {
  test(`${args.join(' ')}: ends at once naming the path (Node's recursive mkdir spins forever there)`, { timeout: 120_000 }, async () => {
    await withTempDir(async (dir) => {
      const { copyFile } = await import('node:fs/promises');
      const { join } = await import('node:path');
      await copyFile(new URL('../github/fixtures/results-local-pass.json', import.meta.url), join(dir, 'r.json'));
      const run = await runCli(args, { cwd: dir, timeoutMs: 60_000 });
      assert.ok(run.code === 2 || run.code === 3, `exit ${run.code}\n${run.stderr}`);
      assert.match(run.stderr, /cannot create the directory \/proc\/mesh-perf-x/);
    });
  });
}
