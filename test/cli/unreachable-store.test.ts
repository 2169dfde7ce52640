// A history store that cannot be reached after a complete run is an environment problem: exit 3,
// named ("history store <url> unreachable: ..."), the measurements and verdict kept, the
// comparison noted as skipped. `--baseline <git URL>` reads a store's runs as --history-store does.
// Real k6 and echo server, real git; main() in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { closedPort } from '../support/listening.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const exec = promisify(execFile);
const CONFIG =
  'suite: s\nplatform: local\nmodes:\n  - name: a\n    local: { hops: 0 }\nload: { rate: 20, duration: 1s, warmup: 0s, repetitions: 1 }\n';

test('an unreachable store (closed port, missing repository): exit 3 named, results kept, comparison skipped', {
  timeout: 120_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const port = await closedPort();
    for (const [flag, store, shown] of [
      ['--history-store', `http://x-access-token:fakeTok12345@127.0.0.1:${port}/r.git`, `http://***@127.0.0.1:${port}/r.git`],
      ['--history-store', `file://${dir}/missing.git`, `file://${dir}/missing.git`],
    ] as const) {
      const out = `out-${store.startsWith('file') ? 'file' : 'http'}`;
      const run = await runCliInProcess(['run', '--out', out, flag, store], { cwd: dir });
      assert.equal(run.code, 3, `${flag}: ${run.stderr}`);
      assert.ok(run.stderr.includes(`mesh-perf run: history store ${shown}`), run.stderr);
      assert.match(run.stderr, /unreachable: /);
      assert.match(run.stderr, /the comparison with past runs was skipped/);
      assert.ok(!run.stderr.includes('fakeTok12345') && !run.stdout.includes('fakeTok12345'));
      assert.match(run.stdout, /Verdict: PASS/);
      const results = JSON.parse(await readFile(join(dir, out, 'results.json'), 'utf8'));
      assert.equal(results.verdict, 'pass');
      assert.equal(results.modes[0].repetitions.length, 1, 'the measurements are kept');
      assert.ok(results.analysis.notes.some((n: string) => n.startsWith('comparison with past runs skipped (history store')));
      assert.ok(!results.analysis.notes.some((n: string) => n.includes('no history configured')));
    }
    // A --baseline store on this machine that does not exist is refused before the load.
    const missing = await runCliInProcess(['run', '--out', 'never', '--baseline', `file://${dir}/missing.git`], { cwd: dir });
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /--baseline file:\/\/.*missing\.git: no such file or folder/);
    assert.doesNotMatch(missing.stderr, /Measuring/);
  });
});

test('run --baseline <git URL> compares with the runs of that store', { timeout: 120_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const first = await runCliInProcess(['run', '--out', 'first'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    await exec('git', ['init', '--quiet', '--bare', join(dir, 'store.git')]);
    const publish = await runCliInProcess(['publish', '--results', 'first', '--store', 'store.git'], { cwd: dir });
    assert.equal(publish.code, 0, publish.stderr);
    const second = await runCliInProcess(['run', '--out', 'second', '--baseline', `file://${dir}/store.git`], { cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.ok(second.stderr.includes(`comparing with 1 run from file://${dir}/store.git (branch gh-pages)`), second.stderr);
    const results = JSON.parse(await readFile(join(dir, 'second', 'results.json'), 'utf8'));
    assert.ok(results.analysis.reference, 'judged against the store');
  });
});
