// Usage, config errors, --help and plan through the CLI's main() in this process: one paragraph
// naming the cause, the right exit code, never a stack trace. The same through the real entry
// as a process: test/integration/cli-errors.test.ts.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { listening } from '../support/listening.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at .+:\d+:\d+/, `stack trace in:\n${text}`);

const CASES: { name: string; yaml?: string; args?: string[]; code: number; stderr: RegExp }[] = [
  { name: 'malformed YAML', yaml: 'modes:\n  - name: a\n   url: [x\n', code: 2, stderr: /mesh-perf\.yaml is not valid YAML at line \d+/ },
  {
    name: 'unknown key',
    yaml: 'modes: [{ name: a }]\nload: { rate: 10, duraton: 5s }\n',
    code: 2,
    stderr: /load: unknown key "duraton"; did you mean "duration"\?/,
  },
  {
    name: 'wrong type',
    yaml: 'modes: [{ name: a }]\nload: { rate: ten }\n',
    code: 2,
    stderr: /load\.rate: expected a number .* got "ten"/,
  },
  { name: 'rate ≤ 0', yaml: 'modes: [{ name: a }]\nload: { rate: 0 }\n', code: 2, stderr: /load\.rate: expected .*> 0, got 0/ },
  {
    name: 'duration without unit',
    yaml: 'modes: [{ name: a }]\nload: { rate: 5, duration: 30 }\n',
    code: 2,
    stderr: /load\.duration: expected a duration/,
  },
  { name: 'missing config file', args: ['run', '--config', 'nope.yaml'], code: 2, stderr: /config file .*nope\.yaml does not exist/ },
  { name: 'unknown command', args: ['rnu'], code: 2, stderr: /unknown command "rnu"; did you mean "run"\?/ },
  { name: 'unknown flag', args: ['run', '--confg', 'x'], code: 2, stderr: /unknown option --confg; did you mean --config\?/ },
  {
    name: 'flag override with a bad number',
    args: ['plan', '--rate', 'lots'],
    yaml: 'modes: [{ name: a }]\nload: { rate: 5 }\n',
    code: 2,
    stderr: /--rate: expected a number, got "lots"/,
  },
];

for (const c of CASES) {
  test(`bad input: ${c.name} → exit ${c.code}`, { timeout: 60_000 }, async () => {
    await withTempDir(async (dir) => {
      if (c.yaml) await writeFile(join(dir, 'mesh-perf.yaml'), c.yaml);
      const run = await runCliInProcess(c.args ?? ['run'], { cwd: dir });
      assert.equal(run.code, c.code, run.stderr);
      assert.match(run.stderr, c.stderr);
      noStack(run.stderr);
    });
  });
}

test('--help works on every command and on the tool', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    const top = await runCliInProcess(['--help'], { cwd: dir });
    assert.equal(top.code, 0);
    const names = [...top.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    assert.ok(names.includes('demo') && names.includes('run') && names.includes('plan'), names.join(','));
    for (const name of names) {
      const help = await runCliInProcess([name, '--help'], { cwd: dir });
      assert.equal(help.code, 0, `${name} --help`);
      assert.match(help.stdout, new RegExp(`Usage: mesh-perf ${name}`));
    }
  });
});

test('plan prints the trial table and JSON with the recorded seed', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'modes: [{ name: a }, { name: b }]\nload: { rate: 5, repetitions: 2 }\nplan: { seed: 11 }\n',
    );
    const table = await runCliInProcess(['plan'], { cwd: dir });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /4 trials, interleaved, seed 11/);
    const json = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir })).stdout);
    assert.equal(json.seed, 11);
    assert.equal(json.trials.length, 4);
    assert.deepEqual(
      json.trials
        .filter((t: { block: number }) => t.block === 1)
        .map((t: { mode: string }) => t.mode)
        .sort(),
      ['a', 'b'],
    );
  });
});

test('plan says how many k6 processes each profile runs as, and why', { timeout: 60_000 }, async () => {
  // plan checks that the endpoint answers, as run does.
  const endpoint = await listening();
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: endpoints\nmodes: [{ name: a, url: "http://127.0.0.1:${endpoint.port}/" }]\nload: [{ name: low, rate: 300, generators: auto }, { name: split, rate: 300, generators: 3 }]\n`,
    );
    const table = await runCliInProcess(['plan'], { cwd: dir });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^k6 for "low": 1 k6 process: 300 rps ≤ 5,333 one process holds$/m);
    assert.match(table.stdout, /^k6 for "split": 3 k6 processes: set by load.generators$/m);
    const json = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir })).stdout);
    assert.deepEqual(json.generators, [
      { profile: 'low', count: 1, reason: '1 k6 process: 300 rps ≤ 5,333 one process holds' },
      { profile: 'split', count: 3, reason: '3 k6 processes: set by load.generators' },
    ]);
    // The default, one process everywhere, adds nothing to the plan.
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: endpoints\nmodes: [{ name: a, url: "http://127.0.0.1:${endpoint.port}/" }]\nload: { rate: 300 }\n`,
    );
    assert.doesNotMatch((await runCliInProcess(['plan'], { cwd: dir })).stdout, /k6 for/);
  }).finally(() => endpoint.close());
});
