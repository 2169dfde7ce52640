// `mesh-perf run`'s own flags, each shown changing what its help says, in two real runs (k6, the
// local platform's echo servers): --out puts the results where it says, --baseline gates against
// the first run's results, --ab-base-config runs the mode the base changes as two arms, --wide
// prints one table, --dashboard-url links summary.md and report.html to the trend. And the git
// store's --branch for publish and report (test/cli/every-flag.test.ts lists where every flag is tested).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, runCliInProcess, withTempDir } from '../support/cli.ts';

const config = (hops: number) =>
  [
    'platform: local',
    'modes:',
    '  - { name: direct, local: { hops: 0 } }',
    `  - { name: proxy, local: { hops: ${hops} } }`,
    'load: { rate: 20, duration: 1s, warmup: 0s, repetitions: 2 }',
    '',
  ].join('\n');

test('run with its own flags: --out, --baseline, --ab-base-config, --wide and --dashboard-url each do what --help says', {
  timeout: 300_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'base.yaml'), config(1));
    await writeFile(join(dir, 'head.yaml'), config(2));
    const first = await runCli(['run', '--config', 'base.yaml', '--out', 'first'], { cwd: dir });
    assert.ok(first.code === 0 || first.code === 3, first.stderr);
    // --out: the results are where it says, not under mesh-perf-results/.
    assert.match(first.stdout, /^Results: first[/\\]results\.json$/m);
    const dashboard = 'https://example.test/o/r/dashboard/';
    const second = await runCli(
      [
        'run',
        '--config',
        'head.yaml',
        '--ab-base-config',
        'base.yaml',
        '--baseline',
        'first',
        '--wide',
        '--dashboard-url',
        dashboard,
        '--out',
        'second',
      ],
      { cwd: dir, env: { COLUMNS: '80' } },
    );
    assert.ok([0, 1, 3].includes(second.code ?? -1), second.stderr);
    const results = JSON.parse(await readFile(join(dir, 'second', 'results.json'), 'utf8'));
    // --ab-base-config: proxy's hops differ from the base's, so it runs as two arms; direct does not.
    assert.deepEqual(results.modes.map((m: { name: string }) => m.name).sort(), ['direct', 'proxy-base', 'proxy-head']);
    assert.match(second.stderr.replace(/\s+/g, ' '), /mode proxy runs as two arms, base and head \(local\.hops 1 → 2\)/);
    // --baseline: the first run is the reference of the regression gate.
    assert.deepEqual(results.analysis.reference.runIds, [JSON.parse(await readFile(join(dir, 'first', 'results.json'), 'utf8')).run.id]);
    // --wide: one table with every column, however wide (at 80 columns it would split in two).
    const headers = second.stdout.split('\n').filter((l) => /^mode\s/.test(l));
    assert.equal(headers.length, 1, second.stdout);
    assert.match(headers[0]!, /p50.*p99.*max.*overhead/);
    // --dashboard-url: the run's summary and report link to the trend.
    assert.match(
      await readFile(join(dir, 'second', 'summary.md'), 'utf8'),
      /\[Trend dashboard\]\(https:\/\/example\.test\/o\/r\/dashboard\/\)/,
    );
    assert.match(
      await readFile(join(dir, 'second', 'report.html'), 'utf8'),
      /<a href="https:\/\/example\.test\/o\/r\/dashboard\/">trend dashboard<\/a>/,
    );
    assert.doesNotMatch(await readFile(join(dir, 'first', 'summary.md'), 'utf8'), /Trend dashboard/);
  });
});

test('publish and report --branch: a git store keeps the runs on that branch, and report rebuilds that branch', {
  timeout: 120_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), config(1));
    const run = await runCli(['run', '--out', 'r'], { cwd: dir });
    assert.ok(run.code === 0 || run.code === 3, run.stderr);
    const remote = join(dir, 'store.git');
    execFileSync('git', ['init', '--quiet', '--bare', remote]);
    const published = await runCliInProcess(['publish', '--results', join(dir, 'r'), '--store', remote, '--branch', 'perf-history'], {
      cwd: dir,
    });
    assert.equal(published.code, 0, published.stderr);
    const branches = execFileSync('git', ['--git-dir', remote, 'branch', '--list'], { encoding: 'utf8' });
    assert.match(branches, /perf-history/);
    assert.doesNotMatch(branches, /gh-pages/);
    const before = execFileSync('git', ['--git-dir', remote, 'rev-parse', 'perf-history'], { encoding: 'utf8' }).trim();
    const rebuilt = await runCliInProcess(['report', '--store', remote, '--branch', 'perf-history', '--keep', '1runs'], { cwd: dir });
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    // report read and rewrote that branch (retention applied there), not gh-pages.
    assert.match(rebuilt.stdout + rebuilt.stderr, /perf-history/);
    assert.match(execFileSync('git', ['--git-dir', remote, 'branch', '--list'], { encoding: 'utf8' }), /perf-history/);
    assert.ok(before.length === 40);
  });
});
