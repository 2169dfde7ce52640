// Faults through the real CLI as a process: one paragraph naming the cause, the right exit code,
// never a stack trace; partial results written with verdict invalid where a run started. Bad
// input, --help and plan go through main() in-process: test/cli/usage.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, withTempDir } from '../support/cli.ts';
import { startServer } from '../../src/platform/processes.ts';
import { freePort } from '../../src/util/net.ts';

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `stack trace in:\n${text}`);

test('the real entry maps a usage error to exit 2 with one paragraph and no stack', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    const run = await runCli(['rnu'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /unknown command "rnu"; did you mean "run"\?/);
    noStack(run.stderr);
  });
});

test('k6 missing: K6_PATH to nothing exits 3 saying how to fix it', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), 'modes: [{ name: a }]\nload: { rate: 5, duration: 1s }\n');
    const run = await runCli(['run'], { cwd: dir, env: { K6_PATH: join(dir, 'no-k6') } });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /K6_PATH=.*no-k6 is not a working k6 v1\.x/);
    noStack(run.stderr);
  });
});

test('port in use: a fixed local port that is taken exits 3 naming the port', { timeout: 60_000 }, async () => {
  const squatter = await startServer('echo', [], 'squatter');
  try {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'mesh-perf.yaml'),
        `modes: [{ name: a, local: { port: ${squatter.port} } }]\nload: { rate: 5, duration: 1s }\n`,
      );
      const run = await runCli(['run'], { cwd: dir });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, new RegExp(`port ${squatter.port}\\s+is\\s+already\\s+in\\s+use`));
    });
  } finally {
    await squatter.stop();
  }
});

test('Ctrl-C mid-run: load stops, servers are gone, partial results say invalid', { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'modes: [{ name: a }, { name: b, local: { hops: 1 } }]\nload: { rate: 50, duration: 20s, warmup: 0s, repetitions: 2 }\n',
    );
    // Interrupted 3 s into measuring (the first 20 s repetition is under way), not at a fixed 8 s
    // from the start: as surely mid-run on a fast machine, and still mid-run on a loaded one.
    const run = await runCli(['run', '--out', 'out'], { cwd: dir, interruptWhen: /Measuring \d+ repetitions/, interruptAfterMs: 3000 });
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /SIGINT received; stopping load/);
    assert.match(run.stderr, /cancelled/);
    noStack(run.stderr);
    const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
    assert.equal(results.verdict, 'invalid');
    assert.match(results.verdictReasons.join(' '), /cancelled/);
    const left = execFileSync('ps', ['-eo', 'args'])
      .toString()
      .split('\n')
      .filter((l) => l.includes(results.run.id));
    assert.deepEqual(left, [], 'no server or k6 process of this run survives');
    assert.ok((await readdir(join(dir, 'out'))).includes('summary.md'));
  });
});

test('k6 crashing mid-run: exit 3 with k6 named, partial results invalid', { timeout: 120_000 }, async () => {
  const port = await freePort();
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `modes: [{ name: a, local: { port: ${port} } }]\nload: { rate: 20, duration: 30s, warmup: 0s, repetitions: 1 }\n`,
    );
    const running = runCli(['run', '--out', 'out'], { cwd: dir });
    // Kill the real k6 process of this run (found by the URL it was given) once it is under way.
    let killed = false;
    for (let i = 0; i < 100 && !killed; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const pids = execFileSync('ps', ['-eo', 'pid=,args='])
        .toString()
        .split('\n')
        .filter((l) => l.includes(`MESH_PERF_URL=http://127.0.0.1:${port}/`) && l.includes(' run '));
      for (const line of pids) {
        process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
        killed = true;
      }
    }
    assert.ok(killed, 'found the k6 process to kill');
    const run = await running;
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /k6 exited with code \d+ without a summary \(mode "a", repetition 1\)/);
    noStack(run.stderr);
    const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
    assert.equal(results.verdict, 'invalid');
  });
});
