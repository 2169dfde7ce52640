// Bad input and faults through the real CLI: one paragraph naming the cause, the right exit
// code, never a stack trace; partial results written with verdict invalid where a run started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runCli, withTempDir } from '../support/cli.ts';
import { startServer } from '../../src/platform/processes.ts';
import { freePort } from '../../src/util/net.ts';

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `stack trace in:\n${text}`);

const CASES: { name: string; yaml?: string; args?: string[]; code: number; stderr: RegExp }[] = [
  { name: 'malformed YAML', yaml: 'modes:\n  - name: a\n   url: [x\n', code: 2, stderr: /mesh-perf\.yaml is not valid YAML at line \d+/ },
  { name: 'unknown key', yaml: 'modes: [{ name: a }]\nload: { rate: 10, duraton: 5s }\n', code: 2, stderr: /load: unknown key "duraton"; did you mean "duration"\?/ },
  { name: 'wrong type', yaml: 'modes: [{ name: a }]\nload: { rate: ten }\n', code: 2, stderr: /load\.rate: expected a number .* got "ten"/ },
  { name: 'rate ≤ 0', yaml: 'modes: [{ name: a }]\nload: { rate: 0 }\n', code: 2, stderr: /load\.rate: expected .*> 0, got 0/ },
  { name: 'duration without unit', yaml: 'modes: [{ name: a }]\nload: { rate: 5, duration: 30 }\n', code: 2, stderr: /load\.duration: expected a duration/ },
  { name: 'missing config file', args: ['run', '--config', 'nope.yaml'], code: 2, stderr: /config file .*nope\.yaml does not exist/ },
  { name: 'unknown command', args: ['rnu'], code: 2, stderr: /unknown command "rnu"; did you mean "run"\?/ },
  { name: 'unknown flag', args: ['run', '--confg', 'x'], code: 2, stderr: /unknown option --confg; did you mean --config\?/ },
  { name: 'flag override with a bad number', args: ['plan', '--rate', 'lots'], yaml: 'modes: [{ name: a }]\nload: { rate: 5 }\n', code: 2, stderr: /--rate: expected a number, got "lots"/ },
];

for (const c of CASES) {
  test(`bad input: ${c.name} → exit ${c.code}`, { timeout: 60_000 }, async () => {
    await withTempDir(async (dir) => {
      if (c.yaml) await writeFile(join(dir, 'mesh-perf.yaml'), c.yaml);
      const run = await runCli(c.args ?? ['run'], { cwd: dir });
      assert.equal(run.code, c.code, run.stderr);
      assert.match(run.stderr, c.stderr);
      noStack(run.stderr);
    });
  });
}

test('--help works on every command and on the tool', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    const top = await runCli(['--help'], { cwd: dir });
    assert.equal(top.code, 0);
    const names = [...top.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    assert.ok(names.includes('demo') && names.includes('run') && names.includes('plan'), names.join(','));
    for (const name of names) {
      const help = await runCli([name, '--help'], { cwd: dir });
      assert.equal(help.code, 0, `${name} --help`);
      assert.match(help.stdout, new RegExp(`Usage: mesh-perf ${name}`));
    }
  });
});

test('plan prints the trial table and JSON with the recorded seed', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), 'modes: [{ name: a }, { name: b }]\nload: { rate: 5, repetitions: 2 }\nplan: { seed: 11 }\n');
    const table = await runCli(['plan'], { cwd: dir });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /4 trials, interleaved, seed 11/);
    const json = JSON.parse((await runCli(['plan', '--json'], { cwd: dir })).stdout);
    assert.equal(json.seed, 11);
    assert.equal(json.trials.length, 4);
    assert.deepEqual(json.trials.filter((t: { block: number }) => t.block === 1).map((t: { mode: string }) => t.mode).sort(), ['a', 'b']);
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
      await writeFile(join(dir, 'mesh-perf.yaml'), `modes: [{ name: a, local: { port: ${squatter.port} } }]\nload: { rate: 5, duration: 1s }\n`);
      const run = await runCli(['run'], { cwd: dir });
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, new RegExp(`port ${squatter.port} is already in use`));
    });
  } finally {
    await squatter.stop();
  }
});

test('Ctrl-C mid-run: load stops, servers are gone, partial results say invalid', { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), 'modes: [{ name: a }, { name: b, local: { hops: 1 } }]\nload: { rate: 50, duration: 20s, warmup: 0s, repetitions: 2 }\n');
    const run = await runCli(['run', '--out', 'out'], { cwd: dir, interruptAfterMs: 8000 });
    assert.equal(run.code, 130, run.stderr);
    assert.match(run.stderr, /SIGINT received; stopping load/);
    assert.match(run.stderr, /cancelled/);
    noStack(run.stderr);
    const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
    assert.equal(results.verdict, 'invalid');
    assert.match(results.verdictReasons.join(' '), /cancelled/);
    const left = execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.includes(results.run.id));
    assert.deepEqual(left, [], 'no server or k6 process of this run survives');
    assert.ok((await readdir(join(dir, 'out'))).includes('summary.md'));
  });
});

test('k6 crashing mid-run: exit 3 with k6 named, partial results invalid', { timeout: 120_000 }, async () => {
  const port = await freePort();
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), `modes: [{ name: a, local: { port: ${port} } }]\nload: { rate: 20, duration: 30s, warmup: 0s, repetitions: 1 }\n`);
    const running = runCli(['run', '--out', 'out'], { cwd: dir });
    // Kill the real k6 process of this run (found by the URL it was given) once it is under way.
    let killed = false;
    for (let i = 0; i < 100 && !killed; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const pids = execFileSync('ps', ['-eo', 'pid=,args=']).toString().split('\n').filter((l) => l.includes(`MESH_PERF_URL=http://127.0.0.1:${port}/`) && l.includes(' run '));
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
