// Every CLI output fits COLUMNS: presets, plan (of every preset and of a long-named config),
// compare, and the run's phase and log lines, at 80 columns no line is wider than 80 characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { consoleLogger } from '../../src/cli/console-logger.ts';
import { PRESETS } from '../../src/presets/index.ts';
import { visibleWidth } from '../../src/util/text-table.ts';
import { seededRandom } from '../../src/util/random.ts';
import { drawLevels, syntheticRun, testConfig } from '../analysis/synthetic.ts';
import { runCliInProcess, withColumns, withTempDir } from '../support/cli.ts';

function tooWide(text: string, columns = 80): string[] {
  return text.split('\n').filter((line) => visibleWidth(line) > columns);
}

test('presets and the plan of every preset fit 80 columns', async () => {
  await withTempDir(async (dir) => {
    const presets = await runCliInProcess(['presets'], { cwd: dir, columns: 80 });
    assert.equal(presets.code, 0, presets.stderr);
    assert.deepEqual(tooWide(presets.stdout), []);
    for (const preset of PRESETS) assert.ok(presets.stdout.includes(preset.name));
    for (const preset of PRESETS) {
      const plan = await runCliInProcess(['plan', '--preset', preset.name], { cwd: dir, columns: 80 });
      assert.equal(plan.code, 0, `${preset.name}: ${plan.stderr}`);
      assert.deepEqual(tooWide(plan.stdout), [], preset.name);
    }
  });
});

test('a plan with long mode and profile names moves columns to a second table instead of overflowing', async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      [
        'platform: local',
        'modes:',
        '  - { name: baseline-without-any-proxy-in-between, local: { hops: 0 } }',
        '  - { name: two-forwarding-proxies-in-front-of-echo, local: { hops: 2 } }',
        'load:',
        '  - { name: a-rather-long-profile-name-for-the-plan, rate: 100, duration: 1s, repetitions: 2 }',
        '',
      ].join('\n'),
    );
    const plan = await runCliInProcess(['plan'], { cwd: dir, columns: 80 });
    assert.equal(plan.code, 0, plan.stderr);
    assert.deepEqual(tooWide(plan.stdout), []);
    assert.match(plan.stdout, /warm-up/);
  });
});

test('compare fits 80 columns', async () => {
  await withTempDir(async (dir) => {
    const random = seededRandom(7);
    const config = testConfig();
    const run = (id: string, factor: number) =>
      syntheticRun({
        config,
        id,
        levels: { baseline: drawLevels(random, 5, 1, 0.02), sidecar: drawLevels(random, 5, 1.3 * factor, 0.02) },
      });
    await writeFile(join(dir, 'a.json'), JSON.stringify(run('base', 1)));
    await writeFile(join(dir, 'b.json'), JSON.stringify(run('cand', 1.5)));
    const compare = await runCliInProcess(['compare', 'a.json', 'b.json'], { cwd: dir, columns: 80 });
    assert.equal(compare.code, 1, compare.stderr);
    assert.match(compare.stdout, /decision/);
    assert.match(compare.stdout, /candidate/);
    assert.deepEqual(tooWide(compare.stdout), []);
  });
});

/** A stream that is not a terminal, keeping what is written to it. */
function recordingStream(): { stream: NodeJS.WriteStream; written: () => string } {
  let out = '';
  const write = (text: string) => {
    out += text;
    return true;
  };
  return { stream: { isTTY: false, write } as unknown as NodeJS.WriteStream, written: () => out };
}

test("the run's phase, info and warning lines wrap at the terminal's width", async () => {
  const { stream, written } = recordingStream();
  await withColumns(80, async () => {
    const log = consoleLogger(stream);
    log.phase('Measuring 1 repetitions (1 mode × 1 load profile, interleaved, seed 1960767807)');
    log.info(`[1/1] a · 20rps · rep 1/1: p50 0.631 ms, p99 9.997 ms, 20.0 rps — INVALID: ${'a reason '.repeat(12)}`);
    log.warn(`no comparable past runs in ${'/some/store '.repeat(8)}`);
  });
  const out = written();
  assert.deepEqual(tooWide(out), []);
  assert.match(out, /▶ Measuring 1 repetitions/);
});

test('a warning of several lines (a teardown that could not remove everything) wraps line by line, each under the indent', async () => {
  const { stream, written } = recordingStream();
  const outage = 'the Kubernetes API server https://198.18.0.1:6443 did not answer for 18 s, longer than kubernetes.apiOutage (15s)';
  await withColumns(80, async () => {
    consoleLogger(stream).warn(
      `teardown failed: cleanup of run r1 was incomplete:\n  namespaces: ${outage}\n  Istio uninstall: ${outage}\nRemove the rest with \`mesh-perf down --config FILE\`.`,
    );
  });
  const out = written();
  assert.deepEqual(tooWide(out), []);
  const lines = out.trimEnd().split('\n');
  assert.equal(lines[0], '  warning: teardown failed: cleanup of run r1 was incomplete:');
  // Each removal starts its own line, its words carried on below it, not wrapped into the line before.
  assert.match(lines[1]!, /^ {4}namespaces: the Kubernetes API server https:\/\/198\.18\.0\.1:6443 did not answer/);
  assert.ok(
    lines.some((l) => /^ {4}Istio uninstall: the Kubernetes/.test(l)),
    out,
  );
  assert.equal(lines.at(-1), '  Remove the rest with `mesh-perf down --config FILE`.');
  for (const line of lines.slice(1)) assert.match(line, /^ {2}\S|^ {4}\S/, out);
});
