// A/B arms measured until decided, through the real CLI, real k6 and the local platform's real
// echo servers (the failing arm: a real HTTP server that answers 503, on the endpoints platform):
// an A/A pair passes, a large injected delay fails naming the mode, `repetitions: N` runs exactly
// N blocks, a budget too small to settle ends inconclusive with the blocks that would, and an arm
// whose every request fails fails the run by the error gate, never passes; each arm's blocks run
// on fresh server processes (the instance offset is block-to-block noise, not a persistent
// difference). Repetitions of 1 s, no warm-up: the first look is at 10 blocks, so each second per
// repetition costs 20 s here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, withTempDir, type CliResult } from '../support/cli.ts';
import { schemaProblems } from '../support/schema.ts';
import type { RunResult } from '../../src/results/types.ts';

// Whole lines of output are matched; wrapping is tested in test/report/terminal-width.test.ts.
process.env.COLUMNS = '1000';

async function run(yaml: string): Promise<{ cli: CliResult; results: RunResult; summary: string }> {
  return withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), yaml);
    const cli = await runCli(['run', '--out', 'out'], { cwd: dir, timeoutMs: 200_000 });
    const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8')) as RunResult;
    assert.deepEqual(schemaProblems(results), []);
    const summary = await readFile(join(dir, 'out/summary.md'), 'utf8');
    return { cli, results, summary };
  });
}

const blocksOf = (results: RunResult, mode: string) => results.modes.find((m) => m.name === mode)!.repetitions.length;
const abGate = (results: RunResult) => results.analysis!.ab!.gates[0]!;

// A/A: the arms differ only in an environment variable k6 ignores, so they measure the same server
// setup. A 5 ms server delay on both makes p50 the delay's, not the scheduler's (a bare echo server's
// sub-millisecond p50 swings by ±50% per block on this shared machine), and a practical minimum of
// 30% keeps the test about the mechanism, not about the machine's noise.
const AA = `platform: local
modes:
  - name: svc
    local: { delay: 5ms }
    arms:
      base: { env: { ARM: a } }
      head: { env: { ARM: b } }
load: { rate: 100, duration: 1s, warmup: 0s, expectedLatency: 200ms }
plan: { budget: { maxBlocks: 20 } }
`;

test('A/A: two arms of the same setup pass, deciding at a look within the budget', { timeout: 240_000 }, async () => {
  const { cli, results, summary } = await run(`${AA}gates: { ab: { minEffectPct: 30, minEffectMs: 0 } }\n`);
  assert.equal(cli.code, 0, `${cli.stderr}\n${cli.stdout}`);
  assert.match(
    cli.stdout,
    /^A\/B:\n {2}✓ svc head vs base: p50 \S+ \[\S+, \S+\], within 30\.0% → pass\n {2}Measured \d+ blocks, [\d ms]+;/m,
  );
  assert.equal(results.verdict, 'pass');
  assert.equal(abGate(results).decision, 'pass');
  assert.equal(results.analysis!.stopping!.reason, 'decided');
  assert.equal(blocksOf(results, 'svc-base'), results.analysis!.stopping!.blocks);
  assert.deepEqual(results.modes.find((m) => m.name === 'svc-head')!.arm, { of: 'svc', side: 'head' });
  assert.match(summary, /^\*\*A\/B\*\*$/m);
  // Every block of each arm was measured on a server process of its own.
  for (const arm of ['svc-base', 'svc-head']) {
    const servers = results.modes.find((m) => m.name === arm)!.repetitions.map((r) => r.server);
    assert.ok(
      servers.every((s) => /^echo pid \d+$/.test(s ?? '')),
      `${arm}: ${servers.join(', ')}`,
    );
    assert.equal(new Set(servers).size, servers.length, `${arm}: a fresh server per block: ${servers.join(', ')}`);
  }
  const base = new Set(results.modes.find((m) => m.name === 'svc-base')!.repetitions.map((r) => r.server));
  assert.ok(
    results.modes.find((m) => m.name === 'svc-head')!.repetitions.every((r) => !base.has(r.server)),
    'the arms never share a server',
  );
});

test('A/B: a 10 ms injected delay on head fails the run, naming the mode', { timeout: 240_000 }, async () => {
  // expectedLatency sizes k6's VU pool: generous, so a stalled moment of this shared machine drops no request.
  const { cli, results } = await run(`platform: local
modes:
  - name: svc
    arms:
      head: { local: { delay: 10ms } }
load: { rate: 100, duration: 1s, warmup: 0s, expectedLatency: 200ms }
`);
  assert.equal(cli.code, 1, `${cli.stderr}\n${cli.stdout}`);
  assert.match(cli.stdout, /^A\/B:\n {2}✗ svc head vs base: p50 \+\d+% \[\+\d+%, \+\d+%\], slower .*→ fail\n {2}Measured \d+ blocks, /m);
  // The progress (stderr) heads each look.
  assert.match(cli.stderr, /Look \d+ of \d+: \d+ blocks, svc head vs base p50 \+\d+%.*decided/);
  assert.equal(results.verdict, 'fail');
  assert.equal(abGate(results).decision, 'fail');
  assert.equal(abGate(results).mode, 'svc');
  assert.deepEqual(results.analysis!.stopping!.reason, 'decided');
});

test('repetitions: N runs exactly N blocks, however undecided', { timeout: 240_000 }, async () => {
  const { cli, results } = await run(`platform: local
modes:
  - name: direct
  - name: svc
    arms:
      base: { env: { ARM: a } }
      head: { env: { ARM: b } }
load: { rate: 50, duration: 1s, warmup: 0s, repetitions: 5 }
gates: { ab: { minEffectPct: 0.1, minEffectMs: 0 } }
`);
  assert.notEqual(cli.code, 2, cli.stderr);
  for (const mode of ['direct', 'svc-base', 'svc-head']) assert.equal(blocksOf(results, mode), 5, mode);
  assert.equal(results.plan.trials.length, 15);
  assert.equal(results.analysis!.stopping!.reason, 'fixed');
  assert.doesNotMatch(cli.stdout, /Look \d/);
});

test('a budget that runs out ends inconclusive, with the blocks that would settle it', { timeout: 240_000 }, async () => {
  // A practical minimum of 0.1% cannot be shown at 4 blocks of this noise, and the arms do not differ.
  const { cli, results, summary } = await run(
    `${AA.replace('maxBlocks: 20', 'maxBlocks: 4')}gates: { ab: { minEffectPct: 0.1, minEffectMs: 0 } }\n`,
  );
  assert.equal(cli.code, 0, `${cli.stderr}\n${cli.stdout}`);
  const gate = abGate(results);
  assert.equal(gate.decision, 'inconclusive');
  assert.equal(gate.reason, 'budget-spent');
  assert.ok(typeof gate.blocksToSettle === 'number' && gate.blocksToSettle > 4, `blocksToSettle ${gate.blocksToSettle}`);
  assert.equal(results.analysis!.stopping!.reason, 'budget-blocks');
  assert.equal(results.verdict, 'inconclusive');
  assert.match(
    cli.stdout,
    new RegExp(
      `⚠ svc head vs base: .*not settled within the budget: the interval neither stays under the .* allowed nor shows it slower; about ${gate.blocksToSettle} paired blocks would settle it → inconclusive\\n {2}Measured 4 blocks`,
    ),
  );
  assert.match(summary, /stopped at look 1 of 1: the budget's last look/);
});

test('an arm whose every request fails fails the run by the error gate, naming the arm, never pass', { timeout: 240_000 }, async () => {
  const ok = createServer((_req, res) => res.end('ok'));
  const failing = createServer((_req, res) => {
    res.statusCode = 503;
    res.end('unavailable');
  });
  const listen = (s: typeof ok) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
  const [good, bad] = [await listen(ok), await listen(failing)];
  try {
    const { cli, results } = await run(`platform: endpoints
modes:
  - name: svc
    arms:
      base: { url: "http://127.0.0.1:${good}/" }
      head: { url: "http://127.0.0.1:${bad}/" }
load: { rate: 50, duration: 1s, warmup: 0s }
`);
    assert.equal(cli.code, 1, `${cli.stderr}\n${cli.stdout}`);
    assert.equal(results.verdict, 'fail');
    assert.match(cli.stdout, /✗ svc-head \[50rps\]: 100\.0% of requests failed/);
    // The error gate failed the run at the first look: no more blocks were spent on an arm that cannot pair.
    assert.equal(results.analysis!.stopping!.look, 0);
    assert.notEqual(abGate(results).decision, 'pass');
    assert.doesNotMatch(cli.stdout, /→ pass \(/);
  } finally {
    ok.closeAllConnections();
    failing.closeAllConnections();
    await Promise.all([new Promise((r) => ok.close(r)), new Promise((r) => failing.close(r))]);
  }
});
