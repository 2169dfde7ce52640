// Benchmark (not a test): does our k6 engine deliver the rate it is asked for, and measure the
// latency a reference open-model generator (vegeta) measures against the same server?
//   npx tsx bench/harness-fidelity/run.ts [--rates 1000,2000,5000] [--duration 10]
// Prints achieved rate, drops, p50 and p99 for both tools side by side, then a stall test (the
// server freezes 200 ms every 2 s) where our p99 must be within 10% of vegeta's.
// Run it on a quiet machine: both tools share its cores with the server.
import { spawn } from 'node:child_process';
import { validateConfig } from '../../src/config/validate.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { runRepetition } from '../../src/load/engine.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { cachedToolPath } from '../../src/tools/cache.ts';
import { startServer } from '../../src/platform/processes.ts';
import { silentLogger } from '../../src/util/log.ts';
import { alignTable } from '../../src/report/terminal.ts';

const VEGETA = cachedToolPath('vegeta', '12.13.0');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const rates = arg('rates', '1000,2000,5000').split(',').map(Number);
const durationS = Number(arg('duration', '10'));

interface Row {
  achieved: number;
  dropped: number;
  p50: number;
  p90: number;
  p99: number;
}

async function ours(url: string, rate: number, seconds: number, k6Path: string): Promise<Row> {
  const config = validateConfig({ platform: 'endpoints', modes: [{ name: 'bench', url }], load: { rate, duration: `${seconds}s`, warmup: '2s', repetitions: 1, expectedLatency: '5ms' } });
  const trial = buildPlan(config, 1).trials[0]!;
  const { repetition: r } = await runRepetition(trial, { mode: 'bench', url, env: {}, description: '' }, new LocalK6Runner(k6Path), () => {}, new AbortController().signal);
  return { achieved: r.achievedRps, dropped: r.droppedIterations, p50: r.latencyMs.p50, p90: r.latencyMs.p90, p99: r.latencyMs.p99 };
}

function vegeta(url: string, rate: number, seconds: number): Promise<Row> {
  return new Promise((resolve, reject) => {
    // vegeta attack | vegeta report -type=json, as two real processes joined by a pipe.
    const attack = spawn(VEGETA, ['attack', `-rate=${rate}/s`, `-duration=${seconds}s`, '-max-workers=2000', '-keepalive=true'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const report = spawn(VEGETA, ['report', '-type=json'], { stdio: ['pipe', 'pipe', 'inherit'] });
    attack.stdout.pipe(report.stdin);
    attack.stdin.end(`GET ${url}\n`);
    let out = '';
    report.stdout.on('data', (c: Buffer) => (out += c.toString()));
    report.on('error', reject);
    report.on('close', () => {
      const r = JSON.parse(out) as { throughput: number; latencies: Record<string, number>; requests: number };
      const ms = (ns: number) => ns / 1e6;
      resolve({ achieved: r.throughput, dropped: 0, p50: ms(r.latencies['50th']!), p90: ms(r.latencies['90th']!), p99: ms(r.latencies['99th']!) });
    });
  });
}

const fmt = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(3));
const k6 = await ensureK6(silentLogger);
console.log(`k6 ${k6.version} vs vegeta 12.13.0, ${durationS}s per run, echo server on 127.0.0.1\n`);

const echo = await startServer('echo', [], 'echo server');
const url = `http://127.0.0.1:${echo.port}/`;
const rows: string[][] = [['rate', 'tool', 'achieved rps', 'dropped', 'p50 ms', 'p90 ms', 'p99 ms', 'p50 ratio', 'p99 ratio']];
try {
  for (const rate of rates) {
    await vegeta(url, rate, 2); // warm the server's JIT and sockets for both tools alike
    const v = await vegeta(url, rate, durationS);
    const o = await ours(url, rate, durationS, k6.path);
    rows.push([String(rate), 'vegeta', v.achieved.toFixed(0), '—', fmt(v.p50), fmt(v.p90), fmt(v.p99), '1.00', '1.00']);
    rows.push([String(rate), 'mesh-perf (k6)', o.achieved.toFixed(0), String(o.dropped), fmt(o.p50), fmt(o.p90), fmt(o.p99), (o.p50 / v.p50).toFixed(2), (o.p99 / v.p99).toFixed(2)]);
  }
} finally {
  await echo.stop();
}
console.log(alignTable(rows));

// Coordinated-omission probe: theory for open arrivals gives p99 ≈ 180 ms.
const stall = await startServer('echo', ['--stall-ms', '200', '--stall-every-ms', '2000'], 'stalling echo server');
try {
  const stallUrl = `http://127.0.0.1:${stall.port}/`;
  const v = await vegeta(stallUrl, 1000, 15);
  const o = await ours(stallUrl, 1000, 15, k6.path);
  const ratio = o.p99 / v.p99;
  console.log(`\nStall test (200 ms freeze every 2 s, 1000 rps, 15 s; open-model theory p99 ≈ 180 ms):`);
  console.log(alignTable([
    ['tool', 'achieved rps', 'dropped', 'p90 ms', 'p99 ms'],
    ['vegeta', v.achieved.toFixed(0), '—', fmt(v.p90), fmt(v.p99)],
    ['mesh-perf (k6)', o.achieved.toFixed(0), String(o.dropped), fmt(o.p90), fmt(o.p99)],
  ]));
  console.log(`p99 ratio ours/vegeta = ${ratio.toFixed(3)} → ${Math.abs(ratio - 1) <= 0.1 ? 'within' : 'NOT within'} 10%`);
} finally {
  await stall.stop();
}
