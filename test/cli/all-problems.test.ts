// A config with several independent problems: every one in one run of `plan` (issue 54: three
// `plan` runs for three problems, one stage at a time), each naming the field, the value and what
// was expected, in the product's words. The stages: the schema, the cross-field checks, the checks
// before the load (files, the store to publish to, the endpoints' reachability).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { closedPort } from '../support/listening.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const problemsOf = (stderr: string) =>
  stderr
    .replace(/\n {4}/g, ' ')
    .split('\n')
    .filter((l) => l.startsWith('  - '))
    .map((l) => l.slice(4));

test('five problems of four stages, reported together by one plan run, each with field, value and what was expected', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      [
        'platform: local',
        'modes:',
        '  - { name: direct, local: { hops: 9 } }',
        '  - { name: hop, local: { hops: 1 } }',
        'baseline: nope',
        'load: { rate: 20, duration: 1s, script: ./missing.js }',
        "gates: { thresholds: ['p(50) < banana'] }",
        'history: { publish: true }',
        '',
      ].join('\n'),
    );
    const plan = await runCliInProcess(['plan'], { cwd: dir, columns: 100 });
    assert.equal(plan.code, 2, plan.stderr);
    assert.match(plan.stderr, /mesh-perf\.yaml has 5 problems:/);
    assert.deepEqual(problemsOf(plan.stderr), [
      // The schema's, in its words.
      'modes[0].local.hops: expected a number at most 4, got 9',
      'gates.thresholds[0]: cannot read gate "p(50) < banana": "banana" is not a number with an optional unit (e.g. 250ms, 1%, 1.5), got "p(50) < banana"',
      // A cross-field check's, on what the schema accepted.
      'baseline: names no mode: got "nope", expected one of "direct", "hop"',
      // The checks before the load, on the same.
      `load.script: does not exist: "./missing.js" (resolved to ${join(dir, 'missing.js')})`,
      'history.publish: true needs history.store (a git URL, a repository or a folder; or --history-store) to publish the run to',
    ]);
    // run makes the same checks and says the same, before any load.
    const run = await runCliInProcess(['run'], { cwd: dir, columns: 100 });
    assert.equal(run.code, 2);
    assert.deepEqual(problemsOf(run.stderr), problemsOf(plan.stderr));
  });
});

test('endpoints: an unreachable URL is reported with the config problems (exit 2), and alone it is the environment (exit 3), as run says it', async () => {
  await withTempDir(async (dir) => {
    const port = await closedPort();
    const config = (extra: string) =>
      `platform: endpoints\nmodes:\n  - { name: a, url: "http://127.0.0.1:${port}/" }\n  - { name: b, url: "http://127.0.0.1:${port}/b" }\nload: { rate: 20, duration: 1s${extra} }\n`;
    await writeFile(join(dir, 'both.yaml'), config(', warmup: soon'));
    const both = await runCliInProcess(['plan', '--config', 'both.yaml'], { cwd: dir, columns: 100 });
    assert.equal(both.code, 2, both.stderr);
    assert.deepEqual(problemsOf(both.stderr), [
      'load.warmup: expected a duration with a unit such as "10s", "500ms" or "1m30s", got "soon"',
      `modes (a).url: http://127.0.0.1:${port}/ is unreachable (ECONNREFUSED); check the address and that the service is up`,
      `modes (b).url: http://127.0.0.1:${port}/b is unreachable (ECONNREFUSED); check the address and that the service is up`,
    ]);
    await writeFile(join(dir, 'down.yaml'), config(''));
    const down = await runCliInProcess(['plan', '--config', 'down.yaml'], { cwd: dir, columns: 100 });
    assert.equal(down.code, 3, down.stderr);
    assert.equal(problemsOf(down.stderr).length, 2);
    const run = await runCliInProcess(['run', '--config', 'down.yaml'], { cwd: dir, columns: 100 });
    assert.equal(run.code, 3);
    assert.deepEqual(problemsOf(run.stderr), problemsOf(down.stderr));
  });
});

test('a refused platform or mode name stops the later checks: they would judge a config the user did not write', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: kindd\nmodes:\n  - { name: baseline }\n  - { name: istio-ambient, local: { hops: 7 } }\nload: { rate: 20, duration: 1s }\n',
    );
    const plan = await runCliInProcess(['plan'], { cwd: dir, columns: 100 });
    assert.equal(plan.code, 2);
    // Both of the schema's, and not what platform local (the default in the platform's place) would
    // say of a mesh mode: the user did not ask for local.
    assert.deepEqual(problemsOf(plan.stderr), [
      'platform: expected one of "local", "endpoints", "kind", "kubeconfig", got "kindd"',
      'modes[1].local.hops: expected a number at most 4, got 7',
    ]);
  });
});
