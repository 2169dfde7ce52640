// Benchmark (not a test): the A/B gate measured until decided, for real, on this machine.
//   npx tsx bench/ab-local/run.ts [--decisions 100] [--rate 200] [--duration 1] [--warmup 1]
//       [--max-blocks 10] [--effect 5] [--base-delay 2]
// Four echo servers on 127.0.0.1 (the binary and options the local platform starts): A/A runs
// two arms against two servers with the same injected delay (--base-delay ms); A/B runs base
// against a server whose delay is larger by --effect % of the base's p50, calibrated first with
// plain k6 and measured again by plain k6 (the same 6-line script as bench/harness-fidelity) against
// the same two targets in the same bench run, interleaved with the decisions. The base delay lifts
// p50 over 1 ms so that 5% is above the gate's 0.05 ms floor (gates.ab.minEffectMs): the gate then
// judges the relative minimum, as it would on a service with millisecond latencies.
// Each decision is one real `runPipeline` with `load.repetitions: auto` (arms on the endpoints
// platform, each arm one of the servers), the default A/B gate (p50, 5%, alpha 1%, 95%) and
// plan.budget.maxBlocks --max-blocks. Printed: decisions pass/fail/inconclusive per case, blocks
// to a decision (mean, max), wall time per decision, and the plain-k6 effect.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { startServer, type StartedServer } from '../../src/platform/processes.ts';
import { silentLogger } from '../../src/util/log.ts';
import { alignTable } from '../../src/util/text-table.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const decisions = Number(arg('decisions', '100'));
const rate = Number(arg('rate', '200'));
const durationS = Number(arg('duration', '1'));
const warmupS = Number(arg('warmup', '1'));
const maxBlocks = Number(arg('max-blocks', '10'));
const effect = Number(arg('effect', '5')) / 100;
const baseDelayMs = Number(arg('base-delay', '2'));

const PLAIN_K6 = `import http from 'k6/http';
export const options = { discardResponseBodies: true, scenarios: { s: {
  executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s',
  duration: __ENV.DURATION, preAllocatedVUs: 50 } } };
export default function () { http.get(__ENV.URL); }
`;

async function plainP50(k6: string, url: string, seconds: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'ab-plain-k6-'));
  try {
    await writeFile(join(dir, 'plain.js'), PLAIN_K6);
    const summaryPath = join(dir, 'summary.json');
    const child = spawn(
      k6,
      ['run', '--quiet', '--no-color', '--summary-trend-stats', 'med', '--summary-export', summaryPath].concat([
        '-e',
        `RATE=${rate}`,
        '-e',
        `DURATION=${seconds}s`,
        '-e',
        `URL=${url}`,
        join(dir, 'plain.js'),
      ]),
      { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } },
    );
    await new Promise<void>((resolve, reject) =>
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`k6 exited ${code}`)))),
    );
    const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as { metrics: Record<string, Record<string, number>> };
    return summary.metrics.http_req_duration!.med!;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Plain k6, base and head alternately, `rounds` times: the p50 ratio head ÷ base − 1 (median over rounds). */
async function plainEffect(k6: string, base: string, head: string, rounds: number): Promise<number> {
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? [base, head] : [head, base];
    const [a, b] = [await plainP50(k6, order[0]!, 3), await plainP50(k6, order[1]!, 3)];
    ratios.push(order[0] === head ? a / b : b / a);
  }
  ratios.sort((x, y) => x - y);
  return ratios[Math.floor(ratios.length / 2)]! - 1;
}

interface Decision {
  decision: 'pass' | 'fail' | 'inconclusive' | 'invalid';
  blocks: number;
  wallS: number;
}

async function decide(base: string, head: string, seed: number): Promise<Decision> {
  const out = await mkdtemp(join(tmpdir(), 'ab-local-'));
  try {
    const config = validateConfig({
      platform: 'endpoints',
      suite: 'ab-local',
      modes: [{ name: 'svc', arms: { base: { url: base }, head: { url: head } } }],
      load: { rate, duration: `${durationS}s`, warmup: `${warmupS}s` },
      plan: { seed, budget: { maxBlocks, maxDuration: '60m' } },
      out,
    });
    const started = Date.now();
    const { result } = await runPipeline(config, { log: silentLogger, signal: new AbortController().signal, cwd: out });
    const wallS = (Date.now() - started) / 1000;
    const gate = result.analysis?.ab?.gates[0];
    const blocks = result.analysis?.stopping?.blocks ?? 0;
    return { decision: result.verdict === 'invalid' || !gate ? 'invalid' : gate.decision, blocks, wallS };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

function summarize(name: string, rows: Decision[]): string[] {
  const count = (d: Decision['decision']) => rows.filter((r) => r.decision === d).length;
  const pct = (n: number) => `${n} (${((100 * n) / rows.length).toFixed(0)}%)`;
  const decided = rows.filter((r) => r.decision !== 'invalid');
  const blocks = decided.map((r) => r.blocks);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
  return [
    name,
    String(rows.length),
    pct(count('pass')),
    pct(count('fail')),
    pct(count('inconclusive')),
    String(count('invalid')),
    mean(blocks).toFixed(1),
    String(Math.max(0, ...blocks)),
    `${mean(rows.map((r) => r.wallS)).toFixed(0)} s`,
    `${Math.max(0, ...rows.map((r) => r.wallS)).toFixed(0)} s`,
  ];
}

async function main(): Promise<void> {
  const k6 = (await ensureK6(silentLogger)).path;
  const servers: StartedServer[] = [];
  const echo = async (delayMs: number, what: string) => {
    const s = await startServer('echo', ['--delay-ms', String(delayMs)], what);
    servers.push(s);
    return `http://127.0.0.1:${s.port}/`;
  };
  try {
    const aa1 = await echo(baseDelayMs, 'A/A arm 1');
    const aa2 = await echo(baseDelayMs, 'A/A arm 2');
    const base = await echo(baseDelayMs, 'A/B base');
    // Calibrate: the head's extra delay is `effect` of the base's p50 as plain k6 measures it.
    const baseP50 = await plainP50(k6, base, 5);
    const extraMs = effect * baseP50;
    const head = await echo(baseDelayMs + extraMs, 'A/B head');
    console.log(
      `base p50 (plain k6, 5 s at ${rate} rps): ${baseP50.toFixed(3)} ms; head delay ${baseDelayMs} + ${extraMs.toFixed(3)} ms (${(effect * 100).toFixed(1)}%)`,
    );
    console.log(
      `each decision: ${rate} rps, ${durationS} s + ${warmupS} s warm-up per repetition, 2 arms, looks until decided, at most ${maxBlocks} blocks`,
    );
    const aa: Decision[] = [];
    const ab: Decision[] = [];
    const effects: number[] = [];
    for (let i = 0; i < decisions; i++) {
      aa.push(await decide(aa1, aa2, 1000 + i));
      ab.push(await decide(base, head, 2000 + i));
      // Plain k6's view of the injected effect, measured between the decisions it describes.
      if (i % Math.max(1, Math.floor(decisions / 5)) === 0) effects.push(await plainEffect(k6, base, head, 2));
      const last = (d: Decision) => `${d.decision} after ${d.blocks} blocks (${d.wallS.toFixed(0)} s)`;
      console.log(`  ${i + 1}/${decisions}: A/A ${last(aa[i]!)}; A/B ${last(ab[i]!)}`);
    }
    effects.sort((a, b) => a - b);
    const header = ['case', 'decisions', 'pass', 'fail', 'inconclusive', 'invalid', 'mean blocks', 'max blocks', 'mean wall', 'max wall'];
    console.log(`\n${alignTable([header, summarize('A/A (0%)', aa), summarize(`A/B (+${(effect * 100).toFixed(0)}% p50)`, ab)])}`);
    console.log(
      `\ninjected effect as plain k6 measures it (p50 head ÷ base − 1, ${effects.length} interleaved pairs of 3 s, median): ${(100 * effects[Math.floor(effects.length / 2)]!).toFixed(2)}% (range ${(100 * effects[0]!).toFixed(2)}% to ${(100 * effects[effects.length - 1]!).toFixed(2)}%)`,
    );
    const wall = [...aa, ...ab].reduce((s, d) => s + d.wallS, 0) / (aa.length + ab.length);
    console.log(`wall time per decision: ${wall.toFixed(0)} s mean; 100 + 100 decisions ≈ ${((200 * wall) / 3600).toFixed(1)} h`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

await main();
