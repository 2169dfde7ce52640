// Benchmark (not a test): does splitting a repetition between k6 processes (load.generators,
// k6 execution segments, merged from raw samples) hold more than one process, measure the same
// latency, and what does keeping raw samples cost?
//   npx tsx bench/generators/run.ts [--steps 6000,7000,8000,9000,10000] [--step-duration 5]
//       [--step-rounds 3] [--rates 2000,4000] [--duration 10] [--rounds 3] [--csv-rate 2000]
// Everything through the product's own engine (runRepetition + LocalK6Runner, platform
// endpoints defaults, 2 s warm-up) against one Fortio 1.66 echo server on 127.0.0.1:
//   1. the highest rate held (a valid repetition: 0 drops, ≥ 99% of the rate) by 1 process, by 2,
//      and by 2 whose CSV is written at k6's default 1 s flush instead of the engine's
//      CSV_SAVE_INTERVAL: at each rate the three take turns, rotated, for several rounds, and a
//      rate is held when a majority of its rounds were valid (one 5 s shot is too noisy on a
//      shared machine); the 1-process figure is the reference, measured in this run;
//   2. at rates both hold, 1 and 2 processes alternately: the merged p50/p90/p99 against one
//      process's within harness-fidelity's bound (p50/p90 ≤ 1.2 × + 0.1 ms, p99 ≤ 1.5 × + 0.2 ms),
//      both ways round;
//   3. k6's own CPU per request (/proc/<pid>/stat) with and without `--out csv`, the CSV's bytes
//      per request, and the time mesh-perf takes to read it back.
// The load average is printed: on a shared machine only ratios within one run mean anything.
import { createReadStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { buildInvocation, runRepetition } from '../../src/load/engine.ts';
import { ENGINE_SYSTEM_TAGS } from '../../src/load/script.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { CSV_SAVE_INTERVAL, collectRawSamples, csvOutputArg } from '../../src/load/raw-samples.ts';
import { parseSummary } from '../../src/load/k6-summary.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { alignTable } from '../../src/util/text-table.ts';
import type { K6Invocation, LoadRunner } from '../../src/load/types.ts';
import type { Repetition } from '../../src/results/types.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { silentLogger } from '../../src/util/log.ts';
import { ChildCpu, startFortio } from '../support/proc.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const numbers = (text: string) => text.split(',').map(Number);
const steps = numbers(arg('steps', '6000,7000,8000,9000,10000'));
const stepDurationS = Number(arg('step-duration', '5'));
const stepRounds = Number(arg('step-rounds', '3'));
const rates = numbers(arg('rates', '2000,4000'));
const durationS = Number(arg('duration', '10'));
const rounds = Number(arg('rounds', '3'));
const csvRate = Number(arg('csv-rate', '2000'));

const loadSamples: number[] = [];
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ');
const loadTimer = setInterval(() => loadSamples.push(Number(loadavg()[0])), 5000);
const started = Date.now();
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(3));

const k6 = await ensureK6(silentLogger);
const runner = new LocalK6Runner(k6.path, { sharesMachineWithServer: false });
/** The same runner, the group's CSV flushed at k6's default interval: what CSV_SAVE_INTERVAL changes. */
const defaultFlush: LoadRunner = {
  version: () => runner.version(),
  run: (invocation, onProgress, signal) => runner.run(invocation, onProgress, signal),
  runGroup: (invocations, onProgress, signal) => runner.runGroup(invocations.map(withDefaultFlush), onProgress, signal),
};
function withDefaultFlush(invocation: K6Invocation): K6Invocation {
  const ours = `saveInterval=${CSV_SAVE_INTERVAL}`;
  // Without this check a change to csvOutputArg would make this variant quietly measure the engine's own.
  if (!invocation.args.some((a) => a.includes(ours))) throw new Error(`bench: no "${ours}" in the group's arguments to replace`);
  return { ...invocation, args: invocation.args.map((a) => a.replace(ours, 'saveInterval=1s')) };
}
console.log(`k6 ${k6.version}, mesh-perf engine, Fortio 1.66 echo on 127.0.0.1, ${cpus().length} cores`);
console.log(`load average at start: ${loadavg().slice(0, 3).join(' ')}\n`);

/** One repetition through the product's engine with N k6 processes. */
async function repetition(url: string, rate: number, seconds: number, generators: number, via: LoadRunner = runner): Promise<Repetition> {
  const config = validateConfig({
    platform: 'endpoints',
    modes: [{ name: 'bench', url }],
    load: { rate, duration: `${seconds}s`, warmup: '2s', repetitions: 1, generators },
  });
  const trial = buildPlan(config, 1).trials[0]!;
  const run = await runRepetition(trial, { mode: 'bench', url, env: {}, description: '' }, via, () => {}, new AbortController().signal, {
    generators,
  });
  return run.repetition;
}

const why = (r: Repetition) =>
  r.droppedIterations > 0 ? `${r.droppedIterations} drop${r.droppedIterations === 1 ? '' : 's'}` : `${r.achievedRps.toFixed(0)} rps`;

interface Variant {
  label: string;
  generators: number;
  via: LoadRunner;
}
const variants: Variant[] = [
  { label: '1 process (reference)', generators: 1, via: runner },
  { label: `2 processes (CSV every ${CSV_SAVE_INTERVAL})`, generators: 2, via: runner },
  { label: "2 processes (CSV every 1 s, k6's default)", generators: 2, via: defaultFlush },
];

/**
 * Every variant at every step, taking turns in rotated order for stepRounds rounds. A variant
 * holds a rate when most of its rounds there were valid, and its highest rate held is the top of
 * the run of held steps from the first; the steps stop once no variant holds one.
 */
async function highestHeld(url: string) {
  const held = variants.map(() => 0);
  const holding = variants.map(() => true);
  const cells: string[][] = variants.map(() => []);
  for (const rate of steps) {
    const valid = variants.map(() => 0);
    const notes: string[][] = variants.map(() => []);
    for (let round = 0; round < stepRounds; round++) {
      for (let k = 0; k < variants.length; k++) {
        const i = (k + round) % variants.length;
        const r = await repetition(url, rate, stepDurationS, variants[i]!.generators, variants[i]!.via);
        if (r.valid) valid[i]!++;
        else notes[i]!.push(why(r));
      }
    }
    let any = false;
    variants.forEach((_, i) => {
      const holds = valid[i]! * 2 > stepRounds;
      holding[i] &&= holds;
      if (holding[i]) held[i] = rate;
      any ||= holds;
      cells[i]!.push(`${valid[i]}/${stepRounds}${notes[i]!.length ? ` (${notes[i]!.join(', ')})` : ''}`);
    });
    if (!any) break;
  }
  return { held, cells };
}

/** One process, with or without `--out csv`: k6's CPU per request, the file's size, our read time. */
async function csvCost(url: string, withCsv: boolean) {
  const config = validateConfig({
    platform: 'endpoints',
    modes: [{ name: 'bench', url }],
    load: { rate: csvRate, duration: `${durationS}s`, warmup: '2s', repetitions: 1 },
  });
  const invocation = buildInvocation(buildPlan(config, 1).trials[0]!, { mode: 'bench', url, env: {}, description: '' }, process.cwd());
  const dir = await mkdtemp(join(tmpdir(), 'bench-csv-'));
  try {
    const file = join(dir, 'raw.csv');
    // The file lives outside the runner's temp dir, so the runner leaves it for this bench to read.
    // As a group's instance writes it: the same --out (the narrowed system tags are the engine's own).
    if (withCsv) invocation.args = [...invocation.args, '--out', csvOutputArg(file)];
    const cpu = new ChildCpu('k6');
    cpu.start();
    const outcome = await runner.run(invocation, () => {}, new AbortController().signal);
    const cpuSeconds = cpu.stop();
    const summary = JSON.parse(outcome.summary!) as { metrics: Record<string, { values: Record<string, number> }> };
    const sent = summary.metrics.http_reqs!.values.count!;
    const m = parseSummary(outcome.summary!);
    const result = { cpuUs: (cpuSeconds / sent) * 1e6, drops: m.droppedIterations, bytes: 0, readUs: 0 };
    if (withCsv) {
      result.bytes = (await stat(file)).size / sent;
      const t0 = process.hrtime.bigint();
      await collectRawSamples(createReadStream(file));
      result.readUs = Number(process.hrtime.bigint() - t0) / 1e3 / m.requests;
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const fortio = await startFortio();
try {
  // 1. Highest rate held.
  const { held, cells } = await highestHeld(fortio.url);
  console.log(
    `Highest rate held (${stepDurationS} s steps, ${stepRounds} rounds each, the variants taking turns; valid = 0 drops and ≥ 99% of the rate; held = valid in most rounds):`,
  );
  const reached = steps.slice(0, cells[0]!.length);
  console.log(
    alignTable([
      ['rate', ...variants.map((v) => v.label)],
      ...reached.map((rate, j) => [String(rate), ...cells.map((c) => c[j]!)]),
      ['highest held', ...held.map((h) => (h ? String(h) : `< ${steps[0]}`))],
    ]),
  );
  const [one, two] = held as [number, number];
  console.log(`2 processes / 1 process: ${one ? (two / one).toFixed(2) : 'n/a'}; exceeded: ${two > one ? 'yes' : 'NO'}\n`);

  // 2. Fidelity at rates both hold: 1 and 2 processes alternately, medians over rounds.
  const rows = [['rate', 'processes', 'valid', 'drops', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms']];
  const verdicts: string[] = [];
  for (const rate of rates) {
    const results: Record<1 | 2, Repetition[]> = { 1: [], 2: [] };
    for (let round = 0; round < rounds; round++) {
      for (const n of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const))
        results[n].push(await repetition(fortio.url, rate, durationS, n));
    }
    const median = (reps: Repetition[], key: 'p50' | 'p90' | 'p99' | 'max') => {
      const v = reps.map((r) => r.latencyMs?.[key] ?? Number.NaN).sort((a, b) => a - b);
      return v.length % 2 ? v[(v.length - 1) / 2]! : (v[v.length / 2 - 1]! + v[v.length / 2]!) / 2;
    };
    for (const n of [1, 2] as const) {
      const reps = results[n];
      rows.push([
        String(rate),
        String(n),
        `${reps.filter((r) => r.valid).length}/${reps.length}`,
        String(reps.reduce((a, r) => a + r.droppedIterations, 0)),
        fmt(median(reps, 'p50')),
        fmt(median(reps, 'p90')),
        fmt(median(reps, 'p99')),
        fmt(median(reps, 'max')),
      ]);
    }
    const within = (a: Repetition[], b: Repetition[]) =>
      median(a, 'p50') <= median(b, 'p50') * 1.2 + 0.1 &&
      median(a, 'p90') <= median(b, 'p90') * 1.2 + 0.1 &&
      median(a, 'p99') <= median(b, 'p99') * 1.5 + 0.2;
    const ratio = (key: 'p50' | 'p90' | 'p99') => (median(results[2], key) / median(results[1], key)).toFixed(2);
    verdicts.push(
      `${rate} rps: 2 within bound of 1: ${within(results[2], results[1]) ? 'yes' : 'NO'}, 1 within bound of 2: ${within(results[1], results[2]) ? 'yes' : 'NO'} (ratios 2/1 p50 ${ratio('p50')}, p90 ${ratio('p90')}, p99 ${ratio('p99')})`,
    );
  }
  console.log(`Merged percentiles of 2 processes against 1 (${durationS} s, median of ${rounds} each, alternating order):`);
  console.log(alignTable(rows));
  console.log(`Bound (harness-fidelity's: p50/p90 ≤ 1.2 × other + 0.1 ms, p99 ≤ 1.5 × other + 0.2 ms):\n  ${verdicts.join('\n  ')}\n`);

  // 3. What raw samples cost.
  const without = await csvCost(fortio.url, false);
  const withCsv = await csvCost(fortio.url, true);
  console.log(`Raw samples (--out csv, system tags ${ENGINE_SYSTEM_TAGS.join(',')}), one process at ${csvRate} rps for ${durationS} s:`);
  console.log(
    alignTable([
      ['', 'k6 CPU µs/req', 'drops', 'CSV bytes/req', 'mesh-perf reads it, µs/req'],
      ['without --out csv', without.cpuUs.toFixed(0), String(without.drops), '–', '–'],
      ['with --out csv', withCsv.cpuUs.toFixed(0), String(withCsv.drops), withCsv.bytes.toFixed(0), withCsv.readUs.toFixed(1)],
    ]),
  );
  console.log(
    `--out csv costs k6 ${(withCsv.cpuUs - without.cpuUs).toFixed(0)} µs of CPU per request (${((withCsv.cpuUs / without.cpuUs - 1) * 100).toFixed(0)}%)`,
  );
} finally {
  fortio.stop();
  clearInterval(loadTimer);
}

const during = loadSamples.length ? (loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length).toFixed(2) : 'n/a';
console.log(
  `\nLoad average (1 min) during the run: mean ${during}, max ${loadSamples.length ? Math.max(...loadSamples).toFixed(2) : 'n/a'} on ${cpus().length} cores; at the end: ${loadavg().slice(0, 3).join(' ')}; ${((Date.now() - started) / 60_000).toFixed(1)} min`,
);
