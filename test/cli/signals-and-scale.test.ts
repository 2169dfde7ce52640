// The CLI under signals and at scale: a FIFO as --config (no writer) ends on SIGTERM and SIGINT
// with the shell's codes; repetitions: 100000 plans and renders without overflowing the stack.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, withTempDir } from '../support/cli.ts';
import { main } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { syntheticRun } from '../analysis/synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

function spawnCli(args: string[], cwd: string) {
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) => {
    let signalledAt = 0;
    child.once('spawn', () => undefined);
    child.on('close', (code) => resolve({ code, stderr, ms: signalledAt ? performance.now() - signalledAt : -1 }));
    (child as unknown as { markSignalled: () => void }).markSignalled = () => (signalledAt = performance.now());
  });
  return {
    child,
    done,
    signal(sig: NodeJS.Signals) {
      (child as unknown as { markSignalled: () => void }).markSignalled();
      child.kill(sig);
    },
  };
}

for (const [signal, code] of [
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const) {
  test(`--config on a FIFO with no writer: ${signal} ends the command with exit ${code}`, { timeout: 60_000 }, async () => {
    await withTempDir(async (dir) => {
      const fifo = join(dir, 'config.fifo');
      execFileSync('mkfifo', [fifo]);
      const cli = spawnCli(['plan', '--config', fifo], dir);
      // Wait until the CLI is blocked opening the FIFO (Linux: a thread waits in wait_for_partner).
      const blocked = () => {
        try {
          return execFileSync('sh', ['-c', `cat /proc/${cli.child.pid}/task/*/wchan`])
            .toString()
            .includes('wait_for_partner');
        } catch {
          return false;
        }
      };
      for (let i = 0; i < 300 && !blocked(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(blocked(), 'the CLI is waiting for a writer');
      cli.signal(signal);
      const run = await cli.done;
      assert.equal(run.code, code, run.stderr);
      assert.ok(run.ms < 5000, `ended ${run.ms.toFixed(0)} ms after ${signal}`);
      assert.match(run.stderr, new RegExp(`${signal} received`));
    });
  });
}

test('repetitions: 100000 plans without a stack overflow', { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'modes: [{ name: a }, { name: b, local: { hops: 1 } }]\nload: { rate: 5, duration: 1s, warmup: 0s, repetitions: 100000 }\n',
    );
    let stdout = '';
    let stderr = '';
    const code = await main(['plan'], {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      log: silentLogger,
      cwd: dir,
      signal: new AbortController().signal,
    });
    assert.equal(code, 0, stderr);
    assert.match(stdout, /200000 trials, interleaved, seed \d+; ~2 days of load/);
  });
});

test('a mode with 100000 repetitions renders in the terminal table', () => {
  const levels = Array.from({ length: 100_000 }, (_, i) => 1 + (i % 7) / 100);
  const run = syntheticRun({ levels: { baseline: levels, sidecar: levels.map((l) => l * 1.3) } });
  const text = renderTerminalTable(buildRunView(run), { width: 100 });
  assert.match(text, /100000\/100000/);
});
