// `mesh-perf calibrate` end to end on the local platform: real echo servers, real k6.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, withTempDir } from '../support/cli.ts';

test('calibrate measures one mode twice, interleaved, and reports noise, false alarms and MDE', { timeout: 300_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: local\nmodes:\n  - name: direct\nload:\n  rate: 100\n  duration: 1s\n  warmup: 0s\n',
    );
    const run = await runCli(['calibrate', '--repetitions', '6', '--mde', '10%', '--out', 'cal'], { cwd: dir });
    // A busy shared machine can drop iterations; the command then says so and exits 3.
    assert.ok(run.code === 0 || run.code === 3, `exit ${run.code}: ${run.stderr}`);
    if (run.code === 3) assert.match(run.stdout, /The run has invalid repetitions/);
    assert.match(run.stdout, /A\/A calibration: direct and direct-aa measure the same target \[100rps\], \d+ interleaved blocks/);
    assert.match(
      run.stdout,
      /statistic\s+CV\s+direct-aa vs direct\s+false alarms\s+p ≤ α alone\s+MDE n=3\s+MDE n=5\s+MDE n=10\s+overhead floor\s+reps for 10(\.0)?%/,
    );
    for (const stat of ['p\\(50\\)', 'p\\(90\\)', 'p\\(99\\)', 'avg', 'max'])
      assert.match(run.stdout, new RegExp(`\\n${stat}\\s+[\\d.]+%\\s+[-+]?[\\d.]+% \\[`));
    assert.match(run.stdout, /Advice:\n {2}- p\(50\): run-to-run CV [\d.]+%; with 5 repetitions/);
    const results = JSON.parse(await readFile(join(dir, 'cal/results.json'), 'utf8'));
    assert.deepEqual(
      results.modes.map((m: { name: string; repetitions: unknown[] }) => [m.name, m.repetitions.length]),
      [
        ['direct', 6],
        ['direct-aa', 6],
      ],
    );
    assert.equal(results.config.calibrate, true);
  });
});

test('calibrate --repetitions 4 says its false-alarm figure cannot be measured, never "0.00%"', { timeout: 300_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: local\nmodes:\n  - name: direct\nload:\n  rate: 100\n  duration: 1s\n  warmup: 0s\n',
    );
    const run = await runCli(['calibrate', '--repetitions', '4', '--out', 'cal'], { cwd: dir });
    assert.ok(run.code === 0 || run.code === 3, `exit ${run.code}: ${run.stderr}`);
    if (run.code === 3) assert.match(run.stdout, /The run has invalid repetitions/);
    assert.match(
      run.stdout,
      /\nfalse alarms cannot be measured: with 2 against 2 repetitions the rank test's smallest p is 0\.167 > alpha 0\.05, so no comparison could ever be flagged; calibrate with at least 6 repetitions \(3 against 3\)\n/,
    );
    // Every statistic's false-alarm cell says so (an offset could print 0.00% by chance; this cell never).
    for (const stat of ['p\\(50\\)', 'p\\(90\\)', 'p\\(99\\)', 'avg', 'max'])
      assert.match(run.stdout, new RegExp(`\\n${stat}\\s+[\\d.]+%\\s+[-+]?[\\d.]+% \\[.*\\]\\s+not measurable\\s+—\\s`));
  });
});

test('calibrate --config FILE --mode NAME --json: that mode of that file, measured twice, and stdout is the JSON alone', {
  timeout: 300_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'other.yaml'),
      'platform: local\nmodes:\n  - name: direct\n  - { name: hop, local: { hops: 1 } }\nload:\n  rate: 100\n  duration: 1s\n  warmup: 0s\n',
    );
    const run = await runCli(['calibrate', '--config', 'other.yaml', '--mode', 'hop', '--repetitions', '4', '--json', '--out', 'cal'], {
      cwd: dir,
    });
    assert.ok(run.code === 0 || run.code === 3, `exit ${run.code}: ${run.stderr}`);
    const calibrations = JSON.parse(run.stdout) as { modes: string[]; profile: string }[];
    assert.equal(calibrations.length, 1);
    assert.deepEqual(calibrations[0]!.modes, ['hop', 'hop-aa']);
    assert.match(run.stderr, /Results: .*cal[/\\]results\.json/);
    const results = JSON.parse(await readFile(join(dir, 'cal/results.json'), 'utf8'));
    // The named mode, not the baseline (direct), twice.
    assert.deepEqual(
      results.modes.map((m: { name: string }) => m.name),
      ['hop', 'hop-aa'],
    );
  });
});
