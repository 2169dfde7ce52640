// Benchmark (not a test): does mesh-perf's k6 engine measure the latency that plain k6 and
// vegeta measure against the same server, at the same rates, in the same run, and what does the
// engine cost per request?
//   npx tsx bench/harness-fidelity/run.ts [--only fidelity,instrument,ablation,distortion,held,stall]
//       [--rates 1000,2000,5000] [--duration 10] [--rounds 3] [--previous <git ref>]
//       [--variant NAME=VALUE[,NAME=VALUE…]]… [--tools <label part>,…] [--pacer-k6 <path>]
//       [--pacer-variant NAME=VALUE[,NAME=VALUE…]]…
//       [--ablation-rate 2000] [--ablation-rounds 3] [--ablation-only <name part>[,<name part>…]]
//       [--distortion 1000,2000,3000,4000,5000,6000,8000] [--distortion-rounds 3]
//       [--steps 2000,3000,4000,5000,6000,8000,10000] [--step-duration 5]
// One Fortio 1.66 echo server on 127.0.0.1, the same k6 binary for every k6 row (tools.ts):
//   fidelity    per rate, rounds of vegeta, plain k6 and `mesh-perf run` (and, with --previous,
//               mesh-perf as of that commit; with each --variant, mesh-perf with that environment,
//               e.g. GOGC=400 for its k6), the order rotated every round; per tool the median
//               over rounds of p50/p90/p99/max and its CPU per 1,000 requests (k6's, vegeta's,
//               mesh-perf's own Node process, Fortio's), against the issue-42 bounds: mesh-perf's
//               p50/p90 ≤ 1.2 × plain k6 + 0.1 ms, p99 ≤ 1.5 × plain k6 + 0.2 ms, p99 ≤ 1.5 ×
//               vegeta's at 5,000 rps, 0 drops, k6 CPU per request ≤ 1.2 × plain k6's;
//   instrument  issue 53: vegeta, plain k6, the stock-k6 trial (stock-trial.ts) and mesh-perf,
//               each k6 row against vegeta's p90/p99 and CPU per request, the issue's bounds;
//   ablation    the engine's k6 with one part of its script switched off (or a left-out part on),
//               rotated with plain k6, rounds at one rate: k6 CPU per 1,000 requests (ablation.ts);
//   distortion  `mesh-perf run` stepping up the rate: the highest rate whose p99 (median over
//               rounds) stays within 1.5 × + 0.2 ms of the lowest rate's, i.e. where the runner's
//               own load (k6, mesh-perf, the server) starts to show in the tail; the machine's busy
//               share beside it (src/plan/tail-distortion.ts holds the figure plan warns with);
//   held        the highest rate each tool holds (0 drops; vegeta ≥ 99% of the rate delivered);
//   stall       a coordinated-omission probe: the server freezes 200 ms every 2 s.
// Latency on a shared machine is noise: run it under `flock /tmp/mesh-perf-load.lock` on a quiet
// machine; the load average (1 min) is printed beside every figure. CPU per request is from
// /proc (utime + stime) and stays meaningful when the machine is shared.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { validateConfig } from '../../src/config/validate.ts';
import { buildInvocation } from '../../src/load/engine.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { startServer } from '../../src/platform/processes.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { pacerK6Path } from '../../src/tools/k6-pacer.ts';
import { silentLogger } from '../../src/util/log.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { processCpu, startFortio } from '../support/proc.ts';
import { VARIANTS } from './ablation.ts';
import { STOCK_TRIAL } from './stock-trial.ts';
import { cliAt, currentCli, engineInProcess, k6Script, type MeshPerfCli, meshPerfCli, plainK6, type Row, vegeta } from './tools.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const numbers = (text: string) => text.split(',').map(Number);
const SECTIONS = ['fidelity', 'instrument', 'ablation', 'distortion', 'held', 'stall'] as const;
const only = new Set(arg('only', SECTIONS.join(',')).split(','));
for (const s of only)
  if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section "${s}" (${SECTIONS.join(', ')})`);
const rates = numbers(arg('rates', '1000,2000,5000'));
const durationS = Number(arg('duration', '10'));
const rounds = Number(arg('rounds', '3'));
const previousRef = arg('previous', '');
/** Every --variant: mesh-perf again with an environment of its own (e.g. GOGC=400 for its k6). */
const variants = process.argv.flatMap((a, i) => (a === '--variant' ? [process.argv[i + 1]!] : []));
/** The k6 built with mesh-perf's pacer (k6ext/), for the instrument section's pacer rows. */
const pacerK6 = arg('pacer-k6', pacerK6Path());
/** Every --pacer-variant: mesh-perf with the pacer again, with an environment of its own (GOGC=400). */
const pacerVariants = process.argv.flatMap((a, i) => (a === '--pacer-variant' ? [process.argv[i + 1]!] : []));
/** --tools: the instrument section's rows whose labels contain one of these (vegeta always runs). */
const toolsOnly = arg('tools', '').split(',').filter(Boolean);
const ablationRate = Number(arg('ablation-rate', '2000'));
const ablationRounds = Number(arg('ablation-rounds', '3'));
/** --ablation-only: the variants whose names contain one of these (the engine and plain k6 always run). */
const ablationOnly = arg('ablation-only', '').split(',').filter(Boolean);
const distortionRates = numbers(arg('distortion', '1000,2000,3000,4000,5000,6000,8000'));
const distortionRounds = Number(arg('distortion-rounds', '3'));
const steps = numbers(arg('steps', '2000,3000,4000,5000,6000,8000,10000'));
const stepDurationS = Number(arg('step-duration', '5'));
const WARMUP_S = 2;
const cores = availableParallelism();

// ---- the machine: load average sampled throughout, read back per section -----------------------
const loadSamples: { at: number; load: number }[] = [];
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ');
const sampleLoad = () => loadSamples.push({ at: Date.now(), load: Number(loadavg()[0]) });
const loadTimer = setInterval(sampleLoad, 2000);
sampleLoad();
/** Mean 1-min load average since `since`. */
const loadSince = (since: number) => {
  sampleLoad();
  const seen = loadSamples.filter((s) => s.at >= since).map((s) => s.load);
  return (seen.reduce((a, b) => a + b, 0) / seen.length).toFixed(1);
};

const median = (xs: number[]) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (n: number) => (Number.isNaN(n) ? '–' : n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));
/** CPU seconds per 1,000 requests. */
const per1k = (cpuS: number | undefined, sent: number) => (cpuS === undefined ? Number.NaN : (cpuS / sent) * 1000);
const mb = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(0));
const s3 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(3));
const ratio = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) || b === 0 ? '–' : `${(a / b).toFixed(2)}×`);

interface Measured extends Row {
  /** Fortio's CPU over the run. */
  serverCpuS: number;
}

/** Medians over rounds of every figure of one tool at one rate. */
function medians(runs: Measured[]) {
  const m = (f: (r: Measured) => number) => median(runs.map(f));
  return {
    achieved: m((r) => r.achieved),
    dropsMax: runs.some((r) => r.dropped === undefined) ? undefined : Math.max(...runs.map((r) => r.dropped!)),
    p50: m((r) => r.p50),
    p90: m((r) => r.p90),
    p99: m((r) => r.p99),
    max: m((r) => r.max),
    generator: m((r) => per1k(r.generatorCpuS, r.sent)),
    own: m((r) => per1k(r.ownCpuS, r.sent)),
    server: m((r) => per1k(r.serverCpuS, r.sent)),
    rssMb: m((r) => r.k6PeakRssMb ?? Number.NaN),
    lateMax: runs.some((r) => r.late === undefined) ? undefined : Math.max(...runs.map((r) => r.late!)),
    lagMaxMs: m((r) => r.lagMaxMs ?? Number.NaN),
    p99Range: `${ms(Math.min(...runs.map((r) => r.p99)))}–${ms(Math.max(...runs.map((r) => r.p99)))}`,
  };
}

const k6 = await ensureK6(silentLogger, { pacer: false }); // plain k6: the stock binary
const fortio = await startFortio();
const fortioPid = fortio.pid;
/** A run with Fortio's CPU over it (Fortio serves every tool; its CPU per request is a sanity check). */
async function measured(run: () => Promise<Row>): Promise<Measured> {
  const before = processCpu(fortioPid)!.own;
  const row = await run();
  return { ...row, serverCpuS: processCpu(fortioPid)!.own - before };
}

console.log(
  `vegeta 12.13.0 | plain k6 ${k6.version} | mesh-perf: ${existsSync(pacerK6) ? `the pacer's k6 (${pacerK6}), as \`mesh-perf run\` installs it; instrument's "mesh-perf" row: plain k6's binary` : "plain k6's binary (no pacer k6 cached)"} | Fortio 1.66 echo on 127.0.0.1 | ${cores} cores | load average at start ${loadavg().slice(0, 3).join(' ')}`,
);

const cli = currentCli();
const previous: MeshPerfCli | undefined = previousRef ? await cliAt(previousRef) : undefined;
try {
  if (only.has('fidelity')) await fidelity();
  if (only.has('instrument')) await instrument();
  if (only.has('ablation')) await ablation();
  if (only.has('distortion')) await distortion();
  if (only.has('held')) await held();
} finally {
  fortio.stop();
  await previous?.cleanup();
}
if (only.has('stall')) await stall();
clearInterval(loadTimer);

interface Tool {
  label: string;
  run: (rate: number) => Promise<Row>;
}

/**
 * `rounds` runs of every tool at one rate, the order rotated every round (and by the rate's
 * position, so no tool always goes first), after a short vegeta run warms the server's sockets
 * and caches for every tool alike: each tool's medians, and the load average meanwhile.
 */
async function roundsAt(tools: Tool[], rate: number, position: number) {
  const since = Date.now();
  await vegeta(fortio.url, rate, 2);
  const runs = new Map<string, Measured[]>(tools.map((t) => [t.label, []]));
  for (let round = 0; round < rounds; round++)
    for (let t = 0; t < tools.length; t++) {
      const tool = tools[(t + round + position) % tools.length]!;
      runs.get(tool.label)!.push(await measured(() => tool.run(rate)));
    }
  return { m: new Map([...runs].map(([label, r]) => [label, medians(r)])), load: loadSince(since) };
}

async function fidelity(): Promise<void> {
  const tools: Tool[] = [
    { label: 'vegeta', run: (rate) => vegeta(fortio.url, rate, durationS) },
    { label: 'plain k6', run: (rate) => plainK6(k6.path, fortio.url, rate, durationS) },
    { label: 'mesh-perf', run: (rate) => meshPerfCli(cli, fortio.url, rate, durationS, WARMUP_S) },
    ...(previous ? [{ label: previous.label, run: (rate: number) => meshPerfCli(previous, fortio.url, rate, durationS, WARMUP_S) }] : []),
    ...variants.map((v) => {
      const env = Object.fromEntries(v.split(',').map((pair) => pair.split('=', 2) as [string, string]));
      const variant = { ...cli, label: `mesh-perf ${v}`, env };
      return { label: variant.label, run: (rate: number) => meshPerfCli(variant, fortio.url, rate, durationS, WARMUP_S) };
    }),
  ];
  console.log(
    `\nFidelity: ${durationS} s per run (mesh-perf: + ${WARMUP_S} s warm-up), median of ${rounds} rounds, the order rotated every round`,
  );
  const latency: string[][] = [['rate', 'tool', 'achieved', 'drops', 'p50 ms', 'p90 ms', 'p99 ms', 'p99 range', 'max ms', 'load avg']];
  const cpu: string[][] = [['rate', 'tool', 'generator CPU s/1k req', 'vs plain k6', 'mesh-perf own', 'Fortio', 'k6 peak RSS MB']];
  const verdicts: string[] = [];
  for (const [i, rate] of rates.entries()) {
    const { m, load } = await roundsAt(tools, rate, i);
    const plain = m.get('plain k6')!;
    const vg = m.get('vegeta')!;
    for (const tool of tools) {
      const r = m.get(tool.label)!;
      latency.push([
        String(rate),
        tool.label,
        r.achieved.toFixed(0),
        r.dropsMax === undefined ? '–' : String(r.dropsMax),
        ms(r.p50),
        ms(r.p90),
        ms(r.p99),
        r.p99Range,
        ms(r.max),
        load,
      ]);
      cpu.push([
        String(rate),
        tool.label,
        s3(r.generator),
        tool.label === 'vegeta' ? '' : ratio(r.generator, plain.generator),
        s3(r.own),
        s3(r.server),
        mb(r.rssMb),
      ]);
      if (!tool.label.startsWith('mesh-perf')) continue;
      const misses: string[] = [];
      if (r.p50 > plain.p50 * 1.2 + 0.1) misses.push('p50');
      if (r.p90 > plain.p90 * 1.2 + 0.1) misses.push('p90');
      if (r.p99 > plain.p99 * 1.5 + 0.2) misses.push('p99');
      if (rate >= 5000 && r.p99 > vg.p99 * 1.5) misses.push('p99 vs vegeta');
      if ((r.dropsMax ?? 0) > 0) misses.push('drops');
      if (r.generator > plain.generator * 1.2) misses.push('CPU');
      verdicts.push(
        `${rate} rps, ${tool.label}: p90 ${ratio(r.p90, plain.p90)} and p99 ${ratio(r.p99, plain.p99)} plain k6's, p99 ${ratio(r.p99, vg.p99)} vegeta's, k6 CPU ${ratio(r.generator, plain.generator)} → ${misses.length === 0 ? 'within bounds' : `NOT within (${misses.join(', ')})`} (load average ${load})`,
      );
    }
  }
  console.log(alignTable(latency));
  console.log('\nCPU seconds per 1,000 requests sent (warm-up included), median over rounds:');
  console.log(alignTable(cpu));
  console.log(
    '\nBounds: p50/p90 ≤ 1.2 × plain k6 + 0.1 ms, p99 ≤ 1.5 × plain k6 + 0.2 ms, p99 ≤ 1.5 × vegeta at 5,000 rps, 0 drops, k6 CPU per request ≤ 1.2 × plain k6:',
  );
  for (const v of verdicts) console.log(`  ${v}`);
}

/**
 * Issue 53: k6 against vegeta, not against itself. vegeta, plain k6, the stock-k6 trial
 * (stock-trial.ts) and mesh-perf in the same rounds, the order rotated; per tool the median over
 * rounds, its ratios to vegeta's p90 and p99 and CPU per request, and the issue's bounds: p99 ≤
 * 1.5 × vegeta + 0.2 ms at up to 2,000 rps and ≤ 2 × vegeta above, p90 ≤ 1.2 × vegeta + 0.1 ms,
 * 0 unsent (dropped) arrivals, and at 2,000 rps and above k6's CPU per request ≤ 1.3 × vegeta's.
 */
async function instrument(): Promise<void> {
  const stock = { ...cli, env: { K6_PATH: k6.path } };
  const paced = { ...cli, label: 'mesh-perf pacer', env: { K6_PATH: pacerK6 } };
  const all: Tool[] = [
    { label: 'vegeta', run: (rate) => vegeta(fortio.url, rate, durationS) },
    { label: 'plain k6', run: (rate) => plainK6(k6.path, fortio.url, rate, durationS) },
    ...STOCK_TRIAL.map((t) => ({ label: t.label, run: (rate: number) => k6Script(k6.path, t.variant, fortio.url, rate, durationS) })),
    { label: 'mesh-perf', run: (rate) => meshPerfCli(stock, fortio.url, rate, durationS, WARMUP_S) },
    ...(existsSync(pacerK6)
      ? [{ label: paced.label, run: (rate: number) => meshPerfCli(paced, fortio.url, rate, durationS, WARMUP_S) }]
      : []),
    ...pacerVariants.map((v) => {
      const env = { K6_PATH: pacerK6, ...Object.fromEntries(v.split(',').map((pair) => pair.split('=', 2) as [string, string])) };
      const variant = { ...cli, label: `mesh-perf pacer ${v}`, env };
      return { label: variant.label, run: (rate: number) => meshPerfCli(variant, fortio.url, rate, durationS, WARMUP_S) };
    }),
  ];
  // vegeta always (the reference); the others as --tools picks them (name parts), else all.
  const tools = all.filter((t) => t.label === 'vegeta' || toolsOnly.length === 0 || toolsOnly.some((part) => t.label.includes(part)));
  if (!existsSync(pacerK6))
    console.log(`(no pacer k6 at ${pacerK6}: scripts/install-test-tools.sh k6-pacer builds it; its rows are left out)`);
  console.log(
    `\nInstrument (issue 53): every k6 row against vegeta; ${durationS} s per run (mesh-perf: + ${WARMUP_S} s warm-up), median of ${rounds} rounds, the order rotated every round`,
  );
  const table: string[][] = [
    [
      'rate',
      'tool',
      'achieved',
      'drops',
      'late >1ms',
      'lag max ms',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'p99 range',
      'p90/vg',
      'p99/vg',
      'CPU s/1k',
      'CPU/vg',
      'RSS MB',
      'load',
    ],
  ];
  const verdicts: string[] = [];
  for (const [i, rate] of rates.entries()) {
    const { m, load } = await roundsAt(tools, rate, i);
    const vg = m.get('vegeta')!;
    for (const tool of tools) {
      const r = m.get(tool.label)!;
      table.push([
        String(rate),
        tool.label,
        r.achieved.toFixed(0),
        r.dropsMax === undefined ? '–' : String(r.dropsMax),
        r.lateMax === undefined ? '–' : String(r.lateMax),
        ms(r.lagMaxMs),
        ms(r.p50),
        ms(r.p90),
        ms(r.p99),
        r.p99Range,
        tool.label === 'vegeta' ? '' : ratio(r.p90, vg.p90),
        tool.label === 'vegeta' ? '' : ratio(r.p99, vg.p99),
        s3(r.generator),
        tool.label === 'vegeta' ? '' : ratio(r.generator, vg.generator),
        mb(r.rssMb),
        load,
      ]);
      if (tool.label === 'vegeta') continue;
      const misses: string[] = [];
      const p99Bound = rate > 2000 ? vg.p99 * 2 : vg.p99 * 1.5 + 0.2;
      if (r.p99 > p99Bound) misses.push(`p99 > ${ms(p99Bound)}`);
      if (r.p90 > vg.p90 * 1.2 + 0.1) misses.push(`p90 > ${ms(vg.p90 * 1.2 + 0.1)}`);
      if ((r.dropsMax ?? 0) > 0) misses.push('dropped arrivals');
      if (rate >= 2000 && r.generator > vg.generator * 1.3) misses.push('CPU > 1.3 × vegeta');
      verdicts.push(`${rate} rps, ${tool.label}: ${misses.length === 0 ? 'within' : `NOT within (${misses.join(', ')})`}`);
    }
  }
  console.log(alignTable(table));
  console.log(
    '\nBounds (issue 53): p99 ≤ 1.5 × vegeta + 0.2 ms up to 2,000 rps, ≤ 2 × vegeta above; p90 ≤ 1.2 × vegeta + 0.1 ms; 0 dropped arrivals; k6 CPU per request ≤ 1.3 × vegeta at ≥ 2,000 rps:',
  );
  for (const v of verdicts) console.log(`  ${v}`);
}

async function ablation(): Promise<void> {
  const config = validateConfig({
    platform: 'endpoints',
    modes: [{ name: 'bench', url: fortio.url }],
    load: { rate: ablationRate, duration: `${durationS}s`, warmup: `${WARMUP_S}s`, repetitions: 1 },
  });
  const trial = buildPlan(config, 1).trials[0]!;
  const invocationFor = (variant: (typeof VARIANTS)[number]) => {
    const invocation = buildInvocation(trial, { mode: 'bench', url: fortio.url, env: {}, description: '' }, process.cwd());
    variant.apply(invocation);
    return invocation;
  };
  for (const variant of VARIANTS) invocationFor(variant); // every edit still applies, before any load
  console.log(
    `\nAblation at ${ablationRate} rps: the engine's k6 (${durationS} s + ${WARMUP_S} s warm-up, in-process runner) with one part switched off, or a part it leaves out switched on; median of ${ablationRounds} rounds, rotated with plain k6 (${durationS} s)`,
  );
  const since = Date.now();
  const chosen = VARIANTS.filter(
    (v) => v.change === 'none' || ablationOnly.length === 0 || ablationOnly.some((part) => v.name.includes(part)),
  );
  const entries = [
    ...chosen.map((v) => ({
      label: v.change === 'none' ? v.name : `${v.change === 'off' ? '−' : '+'} ${v.name}`,
      run: () => engineInProcess(k6.path, invocationFor(v)).then((r) => r.row),
    })),
    { label: 'plain k6 (the minimal script)', run: () => plainK6(k6.path, fortio.url, ablationRate, durationS) },
  ];
  const runs = new Map<string, Measured[]>(entries.map((e) => [e.label, []]));
  for (let round = 0; round < ablationRounds; round++)
    for (let e = 0; e < entries.length; e++) {
      const entry = entries[(e + round * 3) % entries.length]!;
      runs.get(entry.label)!.push(await measured(entry.run));
    }
  const engine = medians(runs.get(entries[0]!.label)!);
  const plain = medians(runs.get(entries.at(-1)!.label)!);
  const table: string[][] = [
    ['k6 script', 'k6 CPU s/1k req', 'vs engine', 'vs plain k6', 'p99 ms', 'p99 vs plain k6', 'k6 peak RSS MB', 'drops'],
  ];
  for (const entry of entries) {
    const r = medians(runs.get(entry.label)!);
    const delta = r.generator - engine.generator;
    table.push([
      entry.label,
      s3(r.generator),
      entry === entries[0] ? '' : `${delta >= 0 ? '+' : ''}${(delta * 1000).toFixed(0)} µs/req`,
      ratio(r.generator, plain.generator),
      ms(r.p99),
      ratio(r.p99, plain.p99),
      mb(r.rssMb),
      r.dropsMax === undefined ? '–' : String(r.dropsMax),
    ]);
  }
  console.log(alignTable(table));
  console.log(`(load average ${loadSince(since)}; ± a few µs/req is noise on a shared machine: compare rounds)`);
}

async function distortion(): Promise<void> {
  console.log(
    `\nTail distortion: \`mesh-perf run\` (${durationS} s + ${WARMUP_S} s warm-up) stepping up the rate, median of ${distortionRounds} rounds; distorted = p99 above 1.5 × + 0.2 ms the ${distortionRates[0]} rps p99`,
  );
  const table: string[][] = [['rate', 'p90 ms', 'p99 ms', 'p99 range', 'vs lowest', 'drops', 'machine busy', 'load avg', 'distorted']];
  let reference: number | undefined;
  let lastUndistorted: number | undefined;
  let firstDistorted: number | undefined;
  for (const rate of distortionRates) {
    const since = Date.now();
    const runs: Measured[] = [];
    const wall: number[] = [];
    for (let round = 0; round < distortionRounds; round++) {
      const started = Date.now();
      runs.push(await measured(() => meshPerfCli(cli, fortio.url, rate, durationS, WARMUP_S)));
      wall.push((Date.now() - started) / 1000);
    }
    const r = medians(runs);
    reference ??= r.p99;
    const distorted = r.p99 > reference * 1.5 + 0.2 || (r.dropsMax ?? 0) > 0;
    if (distorted) firstDistorted ??= rate;
    else if (firstDistorted === undefined) lastUndistorted = rate;
    // k6, mesh-perf and Fortio over the load's seconds (warm-up and measured), of every core.
    const busy = median(runs.map((x) => (x.generatorCpuS + (x.ownCpuS ?? 0) + x.serverCpuS) / (durationS + WARMUP_S) / cores));
    table.push([
      String(rate),
      ms(r.p90),
      ms(r.p99),
      r.p99Range,
      ratio(r.p99, reference),
      String(r.dropsMax ?? '–'),
      `${(busy * 100).toFixed(0)}%`,
      loadSince(since),
      distorted ? 'yes' : '',
    ]);
  }
  console.log(alignTable(table));
  console.log(
    `Highest rate with an undistorted tail on ${cores} cores: ${lastUndistorted ?? `< ${distortionRates[0]}`} rps${firstDistorted ? ` (distorted from ${firstDistorted} rps)` : ' (none distorted)'}`,
  );
}

async function held(): Promise<void> {
  const tools: Tool[] = [
    { label: 'vegeta', run: (rate) => vegeta(fortio.url, rate, stepDurationS) },
    { label: 'plain k6', run: (rate) => plainK6(k6.path, fortio.url, rate, stepDurationS) },
    { label: 'mesh-perf', run: (rate) => meshPerfCli(cli, fortio.url, rate, stepDurationS, WARMUP_S) },
  ];
  const holds = (row: Row, rate: number) => (row.dropped ?? 0) === 0 && row.achieved >= rate * 0.99;
  const rows: string[][] = [['tool', 'highest rate with 0 drops', 'first rate it did not hold']];
  const since = Date.now();
  for (const tool of tools) {
    let last = 0;
    let failedAt = '–';
    for (const rate of steps) {
      const r = await tool.run(rate);
      if (!holds(r, rate)) {
        failedAt = `${rate} (${r.dropped ? `${r.dropped} drops` : `${r.achieved.toFixed(0)} rps delivered`})`;
        break;
      }
      last = rate;
    }
    rows.push([tool.label, last ? String(last) : `< ${steps[0]}`, failedAt]);
  }
  console.log(`\nHighest rate held (${stepDurationS} s steps: ${steps.join(', ')} rps; load average ${loadSince(since)}):`);
  console.log(alignTable(rows));
}

async function stall(): Promise<void> {
  // Open arrivals against a server that freezes 200 ms every 2 s: theory gives p99 ≈ 180 ms.
  const stalling = await startServer('echo', ['--stall-ms', '200', '--stall-every-ms', '2000'], 'stalling echo server');
  try {
    const url = `http://127.0.0.1:${stalling.port}/`;
    const v = await vegeta(url, 1000, 15);
    const o = await meshPerfCli(cli, url, 1000, 15, WARMUP_S);
    const r = o.p99 / v.p99;
    console.log('\nStall test (200 ms freeze every 2 s, 1000 rps, 15 s; open-model theory p99 ≈ 180 ms):');
    console.log(
      alignTable([
        ['tool', 'achieved rps', 'drops', 'p90 ms', 'p99 ms'],
        ['vegeta', v.achieved.toFixed(0), '–', ms(v.p90), ms(v.p99)],
        ['mesh-perf', o.achieved.toFixed(0), String(o.dropped), ms(o.p90), ms(o.p99)],
      ]),
    );
    console.log(`p99 ratio mesh-perf/vegeta = ${r.toFixed(3)} → ${Math.abs(r - 1) <= 0.1 ? 'within' : 'NOT within'} 10%`);
  } finally {
    await stalling.stop();
  }
}
