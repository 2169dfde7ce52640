// `mesh-perf compare` end to end through the CLI entry, on results files written to a temp dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withColumns } from '../support/cli.ts';
import { main } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';
import type { RunResult } from '../../src/results/types.ts';
import { seededRandom } from '../../src/util/random.ts';
import { drawLevels, syntheticRun, testConfig } from './synthetic.ts';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-compare-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// These tests read whole lines of the CLI's output, so it runs 1000 columns wide; wrapping to
// the terminal is tested in test/report/terminal-width.test.ts.
const COLUMNS = 1000;

async function cli(dir: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await withColumns(COLUMNS, () =>
    main(argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      log: silentLogger,
      cwd: dir,
      signal: new AbortController().signal,
    }),
  );
  return { code, stdout, stderr };
}

async function save(dir: string, name: string, result: RunResult | Record<string, unknown>): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(result));
  return path;
}

function pair(seed: number, sidecarFactor: number, candidateConfig = testConfig()) {
  const random = seededRandom(seed);
  const config = testConfig();
  const baseline = syntheticRun({
    config,
    id: 'base',
    levels: { baseline: drawLevels(random, 5, 1, 0.02), sidecar: drawLevels(random, 5, 1.3, 0.02) },
  });
  const candidate = syntheticRun({
    config: candidateConfig,
    id: 'cand',
    levels: { baseline: drawLevels(random, 5, 1, 0.02), sidecar: drawLevels(random, 5, 1.3 * sidecarFactor, 0.02) },
  });
  return { baseline, candidate };
}

test('compare: a 20% slower mode exits 1 with a table, CIs, the verdict line and the MDE', async () => {
  await withDir(async (dir) => {
    const { baseline, candidate } = pair(1, 1.2);
    const out = await cli(dir, 'compare', await save(dir, 'a.json', baseline), await save(dir, 'b.json', candidate));
    assert.equal(out.code, 1, out.stderr + out.stdout);
    // 5 repetitions a side: the brackets are about the range of the values, and are labelled so.
    assert.match(out.stdout, /mode\s+statistic\s+baseline \[interval\]\s+candidate\s+change \(95% upper bound\)\s+p\s+decision/);
    assert.match(
      out.stdout,
      /Brackets: with 5 repetitions an interval of the median is the range of the repetitions \(min–max\), which covers the true median 93\.8% of the time, not 95%/,
    );
    assert.match(
      out.stdout,
      /sidecar \[1000rps\]\s+p\(50\) ÷ baseline\s+×1\.\d+ \[×1\.\d+, ×1\.\d+\]\s+×1\.\d+ \[.*\]\s+\+\d+\.\d+% \(≤ \+\d+\.\d+%\)\s+0\.\d+\s+REGRESSION/,
    );
    // Long lines are wrapped at the width; read them joined.
    const prose = out.stdout.split('\n').filter((l) => !/\S {2,}\S/.test(l));
    for (const line of prose) assert.ok([...line].length <= COLUMNS, `${[...line].length} columns: ${line}`);
    assert.match(
      out.stdout.replace(/\n {2,}/g, ' '),
      /✗ sidecar \[1000rps\] p\(50\) \(÷ baseline, per block\): .* → fail \(regression\); with this noise, changes under [\d.]+% on p\(50\) against the reference runs are not detectable/,
    );
    assert.match(out.stdout.replace(/\s+/g, ' '), /\(rank test over repetitions; the run-to-run test needs 3 reference runs, 1 here\)/);
    assert.match(out.stdout, /Verdict: FAIL/);
  });
});

test('compare: the same distribution exits 0; --json prints the analysis', async () => {
  await withDir(async (dir) => {
    const { baseline, candidate } = pair(3, 1);
    const a = await save(dir, 'a.json', baseline);
    const b = await save(dir, 'b.json', candidate);
    const out = await cli(dir, 'compare', a, b);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.match(out.stdout, /Verdict: PASS/);
    const json = await cli(dir, 'compare', a, b, '--json');
    const analysis = JSON.parse(json.stdout) as { verdict: string; gates: { kind: string }[] };
    assert.equal(analysis.verdict, 'pass');
    assert.equal(analysis.gates.filter((g) => g.kind === 'regression').length, 2);
  });
});

test('compare: different scenario keys exit 2 and name each differing field once', async () => {
  await withDir(async (dir) => {
    const other = testConfig({ load: { rate: 2000, duration: '10s', repetitions: 5, name: '1000rps' } });
    const { baseline, candidate } = pair(3, 1, other);
    candidate.run.machine.runnerClass = 'linux-x64-16c';
    const out = await cli(dir, 'compare', await save(dir, 'a.json', baseline), await save(dir, 'b.json', candidate));
    assert.equal(out.code, 2);
    assert.match(out.stderr, /they measure different scenarios/);
    assert.match(out.stderr, /- load: open 1000 rps × 10s \(baseline\) vs open 2000 rps × 10s \(candidate\)\n/);
    assert.match(out.stderr, /- runnerClass: linux-x64-2c \(baseline\) vs linux-x64-16c \(candidate\)\n/);
    assert.equal(out.stderr.match(/runnerClass/g)!.length, 1);
  });
});

test('compare: a schemaVersion 1 file is migrated; a newer or missing file is refused with its path', async () => {
  await withDir(async (dir) => {
    const { baseline, candidate } = pair(4, 1);
    const old = { ...baseline, schemaVersion: 1, analysis: { anything: 'v1 had no shape' } };
    const b = await save(dir, 'b.json', candidate);
    const migrated = await cli(dir, 'compare', await save(dir, 'old.json', old), b);
    assert.equal(migrated.code, 0, migrated.stderr);
    const newer = await cli(dir, 'compare', await save(dir, 'new.json', { ...baseline, schemaVersion: 99 }), b);
    assert.equal(newer.code, 2);
    assert.match(newer.stderr, /new\.json: has schemaVersion 99, newer than this mesh-perf understands/);
    const missing = await cli(dir, 'compare', join(dir, 'nope.json'), b);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.json does not exist/);
  });
});

test('compare --config applies its gates; a bad expression there is a config error naming it', async () => {
  await withDir(async (dir) => {
    const { baseline, candidate } = pair(5, 1);
    const a = await save(dir, 'a.json', baseline);
    const b = await save(dir, 'b.json', candidate);
    await writeFile(join(dir, 'gates.yaml'), 'modes: [{name: baseline}]\nload: {rate: 10}\ngates:\n  thresholds: ["p(95) < 1ms"]\n');
    const gated = await cli(dir, 'compare', a, b, '--config', 'gates.yaml');
    assert.equal(gated.code, 1);
    assert.match(gated.stdout, /✗ baseline \[1000rps\] p\(95\): .* threshold < 1 ms → fail/);
    await writeFile(join(dir, 'bad.yaml'), 'modes: [{name: baseline}]\nload: {rate: 10}\ngates:\n  thresholds: ["p(95) <> 1ms"]\n');
    const bad = await cli(dir, 'compare', a, b, '--config', 'bad.yaml');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /gates\.thresholds\[0\]: cannot read gate "p\(95\) <> 1ms"/);
  });
});

test('compare: a candidate with invalid repetitions is invalid (exit 3), never a pass', async () => {
  await withDir(async (dir) => {
    const { baseline } = pair(6, 1);
    const candidate = syntheticRun({
      config: testConfig(),
      levels: { baseline: [1, 1, 1, 1, 1], sidecar: [1.3, 1.3, 1.3, 1.3, 1.3] },
      tweak: (mode, i, spec) => (mode === 'sidecar' && i === 0 ? { ...spec, invalidReason: 'achieved 90% of target' } : spec),
    });
    const out = await cli(dir, 'compare', await save(dir, 'a.json', baseline), await save(dir, 'b.json', candidate));
    assert.equal(out.code, 3);
    assert.match(
      out.stdout,
      /Verdict: INVALID[^\n]*\n\s+- invalid repetition: sidecar \[1000rps\] trial \d+ \(block 1, round 1\): achieved 90% of target/,
    );
  });
});

test('compare: raw values of two jobs are reported, not gated, unless basis: absolute says the machines are comparable', async () => {
  await withDir(async (dir) => {
    const config = testConfig({}, ['direct']);
    const random = seededRandom(8);
    const a = await save(dir, 'a.json', syntheticRun({ config, id: 'a', levels: { direct: drawLevels(random, 5, 1, 0.02) } }));
    const b = await save(dir, 'b.json', syntheticRun({ config, id: 'b', levels: { direct: drawLevels(random, 5, 1.2, 0.02) } }));
    const reported = await cli(dir, 'compare', a, b);
    assert.equal(reported.code, 0, reported.stdout);
    assert.match(
      reported.stdout.replace(/\n {2,}/g, ' '),
      /→ not gated \(would be a regression\).*\[report only: 1 reference run cannot show how far absolute values move from job to job/,
    );
    await writeFile(join(dir, 'abs.yaml'), 'modes: [{name: direct}]\nload: {rate: 10}\ngates:\n  regression: {basis: absolute}\n');
    const gated = await cli(dir, 'compare', a, b, '--config', 'abs.yaml');
    assert.equal(gated.code, 1, gated.stdout);
    assert.match(gated.stdout, /direct \[1000rps\]\s+p\(50\)\s+.*REGRESSION/);
    assert.match(reported.stdout, /direct \[1000rps\]\s+p\(50\)\s+.*not gated\n/);
  });
});

test('compare: 2 against 2 repetitions cannot reach p ≤ 0.05, so even a 25% slowdown is inconclusive (⚠, exit 0), never a pass; inconclusive: fail exits 1', async () => {
  await withDir(async (dir) => {
    // Two repetitions a side: the smallest one-sided Mann–Whitney p is 1/C(4,2) = 0.167.
    const config = testConfig({ load: { rate: 1000, duration: '10s', repetitions: 2 } });
    const baseline = syntheticRun({ config, id: 'base', levels: { baseline: [1, 1.01], sidecar: [1.3, 1.32] } });
    const candidate = syntheticRun({ config, id: 'cand', levels: { baseline: [1, 0.99], sidecar: [1.6, 1.68] } });
    const a = await save(dir, 'a.json', baseline);
    const b = await save(dir, 'b.json', candidate);
    const out = await cli(dir, 'compare', a, b);
    assert.equal(out.code, 0, out.stdout + out.stderr);
    assert.match(
      out.stdout,
      /sidecar \[1000rps\]\s+p\(50\) ÷ baseline\s+.*\+2\d\.\d+% \(≤ \+\d+\.\d+%\)\s+0\.167\s+⚠ inconclusive \(~\d+ reps\)/,
    );
    assert.match(
      out.stdout,
      /⚠ sidecar \[1000rps\] p\(50\) .* → inconclusive \(with 2 vs 2 repetitions no p can reach 0\.05 \(the smallest possible is 0\.167\); about \d+ repetitions per side would settle it\)/,
    );
    assert.doesNotMatch(out.stdout, /p\(50\)[^\n]*→ pass/, 'the comparison itself never passes');
    assert.match(out.stdout, /Verdict: ⚠ INCONCLUSIVE \(1 gate inconclusive, marked ⚠ above\)/);
    const json = JSON.parse((await cli(dir, 'compare', a, b, '--json')).stdout) as {
      verdict: string;
      gates: { mode: string; decision: string; repetitionsToSettle?: number }[];
    };
    assert.equal(json.verdict, 'inconclusive');
    const gate = json.gates.find((g) => g.mode === 'sidecar')!;
    assert.equal(gate.decision, 'inconclusive');
    assert.ok(gate.repetitionsToSettle! >= 3, `settle: ${gate.repetitionsToSettle}`);
    await writeFile(join(dir, 'strict.yaml'), 'modes: [{name: baseline}]\nload: {rate: 10}\ngates:\n  regression: {inconclusive: fail}\n');
    const strict = await cli(dir, 'compare', a, b, '--config', 'strict.yaml');
    assert.equal(strict.code, 1, strict.stdout);
    assert.match(strict.stdout, /Verdict: ⚠ INCONCLUSIVE/);
  });
});

test('compare: a change whose interval straddles the 5% minimum without significance is inconclusive, with the repetitions that would settle it', async () => {
  await withDir(async (dir) => {
    // Same distribution, 2% noise a side: the per-block ratio's MDE (~6%) is above the minimum.
    const { baseline, candidate } = pair(2, 1);
    const out = await cli(dir, 'compare', await save(dir, 'a.json', baseline), await save(dir, 'b.json', candidate));
    assert.equal(out.code, 0, out.stdout);
    const said = out.stdout.replace(/\s+/g, ' ');
    // The change is under the 5% minimum, the upper bound the decision uses above it.
    const change = /⚠ sidecar .*?change (-?[\d.]+)% \([^)]*\), at most \+([\d.]+)% with 95% confidence/.exec(said);
    assert.ok(change && Number(change[1]) < 5 && Number(change[2]) > 5, `the bound straddles +5%: ${change?.[0]}`);
    assert.match(
      said,
      /→ inconclusive \(not statistically significant, and its upper bound reaches the practical minimum; about \d+ repetitions per side would settle it\)/,
    );
    assert.match(out.stdout, /Verdict: ⚠ INCONCLUSIVE/);
  });
});
