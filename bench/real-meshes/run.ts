// Benchmark (not a test): what Istio ambient and Linkerd cost on a real node, measured by the
// product and, in the same run, by plain k6, and what the A/B gate decides between two Linkerd
// proxy settings.
//   flock /tmp/mesh-perf-load.lock npx tsx bench/real-meshes/run.ts [--rates 200,500]
//       [--repetitions 3] [--plain-rounds 3] [--plain-duration 30] [--out DIR]
//       [--pieces product,plain,ab,ab-plain]   (each piece on its own, e.g. to hold the lock less)
//       [--tag NAME]   (writes DIR/<piece>-NAME.json: one rate at a time, e.g. --rates 200 --tag 200)
//   npx tsx bench/real-meshes/run.ts --report [--out DIR]   (the tables of the pieces in DIR)
// The real node (test/support/real/, `npm run test:real`'s) is brought up unless one is up, and
// taken down after if this run brought it up. Pieces, each writing DIR/<piece>.json:
//   product   `mesh-perf run`: baseline, istio-ambient, linkerd at each rate (60 s + 5 s warm-up,
//             interleaved blocks); its medians with bootstrap intervals, overheads against the
//             baseline paired by block, each proxy's CPU per 1000 rps and memory
//   plain     `mesh-perf up` of the same config (the same meshes, echo Services and client pods),
//             then plain k6 (plain-k6.ts) from each mode's client pod, every mode and rate once per
//             round in a shuffled order; `mesh-perf down`
//   ab        `mesh-perf run` of the two Linkerd arms (LINKERD_AB_ARMS), decided by the A/B gate
//   ab-plain  plain k6 from each arm's client pod, alternating, against its echo Service
// The load average is printed with every piece: on a shared machine only figures of one run
// compare, and CPU-time figures hold better than latency.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RunResult } from '../../src/results/types.ts';
import { ACTIONS } from '../../test/support/real/actions/index.ts';
import { down, NodeContext, readRecord, up } from '../../test/support/real/node.ts';
import { alive } from '../../test/support/real/processes.ts';
import { LINKERD_AB_ARMS, nodeSettings, runProduct } from '../../test/support/real/product.ts';
import { type PlainRound, plainRound } from './plain-k6.ts';
import { printReport } from './report.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const rates = arg('rates', '200,500').split(',').map(Number);
const repetitions = Number(arg('repetitions', '3'));
const plainRounds = Number(arg('plain-rounds', '3'));
const plainDurationS = Number(arg('plain-duration', '30'));
const outDir = arg('out', join(import.meta.dirname, 'last'));
const pieces = arg('pieces', 'product,plain,ab,ab-plain').split(',');
// A piece run again under another tag (e.g. one rate at a time, to hold the load lock less) writes
// DIR/<piece>-<tag>.json beside the others; the report reads them all.
const tag = arg('tag', '');
const MODES = ['baseline', 'istio-ambient', 'linkerd'];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const say = (line: string) => process.stdout.write(`${line}\n`);

export interface PieceRecord {
  piece: string;
  startedAt: string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  machine: string;
  results?: RunResult;
  plain?: PlainRound[];
}

function settings(): { kubernetes: Record<string, unknown> } & Record<string, unknown> {
  return nodeSettings() as { kubernetes: Record<string, unknown> } & Record<string, unknown>;
}

function mainConfig(file: string): string {
  const base = settings();
  writeFileSync(
    file,
    stringify({
      suite: 'real-meshes',
      ...base,
      modes: MODES.map((name) => ({ name })),
      // A second of arrivals as k6's pool (as the tier's test): a stall of this shared machine
      // then shows in the tails instead of invalidating the repetition.
      load: rates.map((rate) => ({ rate, duration: '60s', warmup: '5s', repetitions, vus: Math.max(200, rate) })),
      kubernetes: { ...base.kubernetes, readyTimeout: '4m', sampleInterval: '2s' },
    }),
  );
  return file;
}

function abConfig(file: string): string {
  const base = settings();
  writeFileSync(
    file,
    stringify({
      suite: 'real-meshes-ab',
      ...base,
      modes: [{ name: 'linkerd', arms: LINKERD_AB_ARMS }],
      load: { rate: rates[0] },
      plan: { budget: { maxDuration: '6m' } },
      kubernetes: { ...base.kubernetes, readyTimeout: '4m' },
    }),
  );
  return file;
}

/** A seeded shuffle (mulberry32), so a round's order is random but the run can be repeated. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function product(node: NodeContext, name: string, config: string, okCodes: number[]): Promise<RunResult> {
  const dir = join(outDir, `${name}-run`);
  rmSync(dir, { recursive: true, force: true });
  const run = await runProduct(node.init, ['run', '--config', config, '--out', dir], (line) => say(`  ${line}`));
  if (!okCodes.includes(run.code)) throw new Error(`mesh-perf run (${name}) exited ${run.code}:\n${run.stderr.slice(-2000)}`);
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResult;
}

/** `mesh-perf up`, plain k6 rounds over (namespace, mode, rate), `mesh-perf down` whatever happened. */
async function plain(
  node: NodeContext,
  config: string,
  targets: { mode: string; namespace: string; rate: number }[],
): Promise<PlainRound[]> {
  const quiet = () => {};
  const deployed = await runProduct(node.init, ['up', '--config', config], (line) => say(`  ${line}`));
  try {
    if (deployed.code !== 0) throw new Error(`mesh-perf up exited ${deployed.code}:\n${deployed.stderr.slice(-2000)}`);
    const rounds: PlainRound[] = [];
    for (let round = 0; round < plainRounds; round++) {
      for (const t of shuffled(targets, 0x5eed + round)) {
        const r = await plainRound(node, t.mode, t.namespace, t.rate, plainDurationS);
        say(
          `  plain k6 round ${round + 1}: ${t.mode} ${t.rate} rps: p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms, ${r.requests} requests, ${r.dropped} dropped`,
        );
        rounds.push(r);
      }
    }
    return rounds;
  } finally {
    const removed = await runProduct(node.init, ['down', '--config', config], quiet);
    if (removed.code !== 0) say(`  mesh-perf down exited ${removed.code}: ${removed.stderr.slice(-500)}`);
  }
}

async function runPiece(node: NodeContext, piece: string): Promise<PieceRecord> {
  const startedAt = new Date().toISOString();
  const loadBefore = load();
  const started = Date.now();
  say(`▶ ${piece} (load average ${loadBefore})`);
  const record: Omit<PieceRecord, 'seconds' | 'loadAfter'> = {
    piece,
    startedAt,
    loadBefore,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`,
  };
  const extra: Partial<PieceRecord> = {};
  if (piece === 'product') extra.results = await product(node, piece, mainConfig(join(outDir, 'main.yaml')), [0]);
  else if (piece === 'plain')
    extra.plain = await plain(
      node,
      mainConfig(join(outDir, 'main.yaml')),
      MODES.flatMap((mode) => rates.map((rate) => ({ mode, namespace: `mesh-perf-${mode}`, rate }))),
    );
  // exit 1: the A/B gate failed (the decision this piece records either way).
  else if (piece === 'ab') extra.results = await product(node, piece, abConfig(join(outDir, 'ab.yaml')), [0, 1]);
  else if (piece === 'ab-plain')
    extra.plain = await plain(
      node,
      abConfig(join(outDir, 'ab.yaml')),
      ['linkerd-base', 'linkerd-head'].map((mode) => ({ mode, namespace: `mesh-perf-${mode}`, rate: rates[0]! })),
    );
  else throw new Error(`unknown piece ${piece} (product, plain, ab, ab-plain)`);
  const done: PieceRecord = { ...record, ...extra, seconds: (Date.now() - started) / 1000, loadAfter: load() };
  writeFileSync(join(outDir, `${piece}${tag ? `-${tag}` : ''}.json`), `${JSON.stringify(done, null, 2)}\n`);
  say(`✔ ${piece} in ${(done.seconds / 60).toFixed(1)} min (load average ${done.loadAfter})`);
  return done;
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  if (process.argv.includes('--report')) {
    printReport(outDir);
    return;
  }
  const record = readRecord();
  const ours = !(record?.init && alive(record.init));
  const node = new NodeContext(say);
  const started = Date.now();
  if (ours) await up(ACTIONS, node);
  try {
    for (const piece of pieces) await runPiece(node, piece);
  } finally {
    if (ours) await down(ACTIONS, node);
  }
  say(`\nbench/real-meshes: ${pieces.join(', ')} in ${((Date.now() - started) / 60_000).toFixed(1)} min\n`);
  if (existsSync(outDir)) printReport(outDir);
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
