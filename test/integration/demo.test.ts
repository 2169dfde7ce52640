// `mesh-perf demo` end to end: real echo servers, a real proxy hop, real k6.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, withTempDir } from '../support/cli.ts';
import { schemaProblems } from '../support/schema.ts';

test('demo writes schema-valid results and shows the proxy hop costs something', { timeout: 240_000 }, async () => {
  await withTempDir(async (dir) => {
    const run = await runCli(['demo', '--out', 'demo-out'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const results = JSON.parse(await readFile(join(dir, 'demo-out/results.json'), 'utf8'));
    assert.deepEqual(schemaProblems(results), []);
    assert.equal(results.schemaVersion >= 1, true);
    assert.equal(results.verdict, 'pass');
    assert.equal(results.baseline, 'direct');
    assert.ok(results.run.machine.cores >= 1 && results.run.machine.cpuModel.length > 0);
    assert.match(results.run.tools.k6, /^1\.\d+\.\d+$/);
    const p50 = (name: string) => {
      const reps = results.modes
        .find((m: { name: string }) => m.name === name)
        .repetitions.map((r: { latencyMs: { p50: number } }) => r.latencyMs.p50)
        .sort((a: number, b: number) => a - b);
      return reps[1];
    };
    assert.ok(p50('one-proxy-hop') > p50('direct'), `one-proxy-hop p50 ${p50('one-proxy-hop')} should exceed direct ${p50('direct')}`);
    const summary = await readFile(join(dir, 'demo-out/summary.md'), 'utf8');
    assert.match(summary, /\| 300rps \| one-proxy-hop \|/);
    assert.match(run.stdout, /one-proxy-hop .* \+\d/, 'the table shows a positive overhead');
    for (const heading of ['Preparing platform', 'Measuring 6 repetitions', 'Tearing down']) assert.match(run.stderr, new RegExp(heading));
  });
});
