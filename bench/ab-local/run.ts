// Benchmark (not a test): the A/B gate deciding for real on this machine, in the product's shape.
// Each decision is one real `runPipeline` on the local platform with `load.repetitions: auto`:
// one mode with arms whose echo servers are separate processes, started afresh for every block
// (src/platform/local.ts), measured by the product's k6 engine, judged by the default A/B gate
// (p50, 5 % and 0.05 ms, alpha 1 % over all looks, 95 % pass bound, looks at 10/20/30/40).
//   A/A  base and head with the same injected delay (--base-delay ms); the head arm differs only in
//        an environment variable no script reads, which makes the two a pair of arms.
//   A/B  the head's delay larger so that plain k6 measures +--effect % (5 % by default, aimed at
//        +5.2 %: just past the practical minimum, where the gate's answer is hardest).
// The change is calibrated by plain k6 (the 6-line constant-arrival-rate script of
// bench/harness-fidelity) against echo servers started and warmed exactly as the local platform
// does it (src/platform/processes.ts), base and head alternately, a fresh pair of processes for
// every pair of measurements as the pipeline has for every block; checked again every 5 decisions
// and rescaled when the pooled checks leave the target.
//
// It runs in pieces, for a shared machine: each piece appends every calibration, check and
// decision to a JSON-lines file as it happens, and stops after --minutes (default 14); run each
// under the machine's load lock, which it then releases for others:
//   flock /tmp/mesh-perf-load.lock npx tsx bench/ab-local/run.ts piece --file ab-local.jsonl
//   npx tsx bench/ab-local/run.ts summary --file ab-local.jsonl
// A decision line records the 1-minute load average before and after it: the summary gives the
// figures for all decisions and for those on a quiet machine (both ≤ --quiet, 1.5 by default).
//
// Block length and rate (--rate 200, --duration 1, --warmup 0): a block is two repetitions of
// 1 s at 200 rps (200 latencies per p50), each arm on a server process started for the block and
// measured from its first request, about 3.5 s with k6's start; a decision takes 10 blocks (35 s)
// when the first look decides. The product's default repetition is 6 s after 2 s of warm-up; a
// 1 s one sees fewer requests, the server's cold start (for both arms alike) and more of the
// machine's jitter per block, so the per-block spread the gate meets here is larger than at the
// default, not smaller: its false fails and "within" statements are measured under more noise
// than a user's run has, and so is the catch rate. (A 1 s warm-up doubled a block's time.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { medianInterval } from '../../src/analysis/median-interval.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { silentLogger } from '../../src/util/log.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { percentWithInterval, wilson } from '../support/intervals.ts';
import { appendJsonLine, codeVersion, load1, readJsonLines } from '../support/pieces.ts';
import { medianSe, pairsEffect, plainPairs as pairs } from '../support/plain-k6.ts';

const command = process.argv[2];
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const file = arg('file', 'ab-local.jsonl');
const minutes = Number(arg('minutes', '14'));
const rate = Number(arg('rate', '200'));
const durationS = Number(arg('duration', '1'));
const warmupS = Number(arg('warmup', '0'));
const baseDelayMs = Number(arg('base-delay', '20'));
const effect = Number(arg('effect', '5')) / 100;
const quiet = Number(arg('quiet', '1.5'));

/** Plain k6 measures the A/B change 0.1 to 0.3 point over --effect: at the margin, not under it. */
const TARGET_LOW = effect + 0.001;
const TARGET_HIGH = effect + 0.003;
const AIM = (TARGET_LOW + TARGET_HIGH) / 2;
const CALIBRATION_PAIRS = 40;
const CHECK_EVERY = 5;
const CHECK_PAIRS = 4;
/** Rescale when the last DRIFT_PAIRS check pairs' median leaves the target by more than DRIFT_SLACK and two standard errors. */
const DRIFT_PAIRS = 20;
const DRIFT_SLACK = 0.002;

type Line =
  | { type: 'calibration'; at: string; extraMs: number; pairs: number[]; load: number; accepted: boolean }
  | { type: 'check'; at: string; extraMs: number; pairs: number[]; load: number }
  | {
      type: 'decision';
      at: string;
      kind: 'aa' | 'ab';
      extraMs: number;
      seed: number;
      decision: 'pass' | 'fail' | 'inconclusive' | 'invalid';
      reason: string | null;
      blocks: number;
      look: number | null;
      estimate: number | null;
      wallS: number;
      loadBefore: number;
      loadAfter: number;
      /** The product's commit the decision was made with (a piece reads the code once, at its start). */
      code: string;
    };

const readLines = () => readJsonLines<Line>(file);

const append = (line: Line) => appendJsonLine(file, line);

const CODE = codeVersion();

const LOAD = { rate, durationS, warmupS };
const plainPairs = (k6: string, extraMs: number, count: number) => pairs(k6, baseDelayMs, extraMs, count, LOAD);

/** One decision: a real run of the pipeline on the local platform. */
async function decide(kind: 'aa' | 'ab', extraMs: number, seed: number): Promise<Line> {
  const out = await mkdtemp(join(tmpdir(), 'ab-local-run-'));
  const loadBefore = load1();
  const started = Date.now();
  try {
    const head = kind === 'aa' ? { env: { AB_LOCAL_SIDE: 'head' } } : { local: { delay: `${round3(baseDelayMs + extraMs)}ms` } };
    const config = validateConfig({
      platform: 'local',
      suite: 'ab-local',
      modes: [{ name: 'svc', local: { hops: 0, delay: `${baseDelayMs}ms` }, arms: { head } }],
      load: { rate, duration: `${durationS}s`, warmup: `${warmupS}s` },
      plan: { seed, budget: { maxDuration: '15m' } },
      out,
    });
    const { result } = await runPipeline(config, { log: silentLogger, signal: new AbortController().signal, cwd: out });
    const gate = result.analysis?.ab?.gates[0];
    return {
      type: 'decision',
      at: new Date(started).toISOString(),
      kind,
      extraMs: kind === 'aa' ? 0 : extraMs,
      seed,
      decision: result.verdict === 'invalid' || !gate ? 'invalid' : gate.decision,
      reason: gate?.reason ?? null,
      blocks: result.analysis?.stopping?.blocks ?? 0,
      look: gate?.look ?? null,
      estimate: gate ? gate.change.value : null,
      wallS: Math.round((Date.now() - started) / 100) / 10,
      loadBefore,
      loadAfter: load1(),
      code: CODE,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * The head's extra delay now: the last accepted calibration or rescale, or a new calibration. The
 * effect is close to proportional to the extra delay (it is a share of a 20 ms p50), so every round
 * measured so far (this file's, earlier pieces' included) gives an effect per millisecond, pooled
 * by the rounds' pairs; the next round tries the delay that aims at +5.2 % by that pooled slope,
 * and is accepted when its median lands in the target window widened by its own standard error
 * (on a machine at load 15 one 40-pair round's median moved ±0.5 point, and a 0.2-point window was
 * never met in six rounds).
 */
async function currentExtra(k6: string, lines: Line[]): Promise<number> {
  const last = [...lines].reverse().find((l) => l.type === 'calibration' && l.accepted);
  if (last) return last.extraMs;
  const rounds = lines.filter((l): l is Extract<Line, { type: 'calibration' }> => l.type === 'calibration' && l.pairs.length > 0);
  for (let round = 0; round < 6; round++) {
    // A first guess, then the pooled slope: effect per millisecond of extra delay.
    const slope =
      rounds.length === 0
        ? 1 / (baseDelayMs + 1)
        : rounds.reduce((s, r) => s + r.pairs.length * (pairsEffect(r.pairs) / r.extraMs), 0) /
          rounds.reduce((s, r) => s + r.pairs.length, 0);
    const extraMs = round3(AIM / Math.max(slope, 1e-4));
    const pairs = await plainPairs(k6, extraMs, CALIBRATION_PAIRS);
    const measured = pairsEffect(pairs);
    const se = medianSe(pairs);
    const accepted = (measured >= TARGET_LOW - se && measured <= TARGET_HIGH + se) || round === 5;
    const line: Line = { type: 'calibration', at: new Date().toISOString(), extraMs, pairs, load: load1(), accepted };
    append(line);
    rounds.push(line);
    console.log(
      `calibration: head +${extraMs.toFixed(3)} ms → plain k6 ${(100 * measured).toFixed(2)}% ± ${(100 * se).toFixed(2)} (load ${load1()})${accepted ? ', accepted' : ''}`,
    );
    if (accepted) return extraMs;
  }
  throw new Error('unreachable: the sixth round is accepted');
}

async function piece(): Promise<void> {
  const k6 = (await ensureK6(silentLogger)).path;
  const deadline = Date.now() + minutes * 60_000;
  let lines = readLines();
  let extraMs = await currentExtra(k6, lines);
  lines = readLines();
  let done = lines.filter((l) => l.type === 'decision').length;
  console.log(`piece: ${done} decisions so far, head +${extraMs.toFixed(3)} ms, until ${new Date(deadline).toISOString()}`);
  // A decision takes up to a few minutes (40 blocks): none starts with less than 3 minutes left.
  while (Date.now() < deadline - 180_000) {
    const kind = done % 2 === 0 ? 'aa' : 'ab';
    const line = await decide(kind, extraMs, 1000 + done);
    append(line);
    done++;
    if (line.type === 'decision')
      console.log(
        `${done}: ${kind === 'aa' ? 'A/A' : 'A/B'} ${line.decision} after ${line.blocks} blocks (${line.wallS} s, estimate ${line.estimate === null ? '—' : `${(100 * line.estimate).toFixed(2)}%`}, load ${line.loadBefore} → ${line.loadAfter})`,
      );
    if (done % CHECK_EVERY === 0) {
      const pairs = await plainPairs(k6, extraMs, CHECK_PAIRS);
      append({ type: 'check', at: new Date().toISOString(), extraMs, pairs, load: load1() });
      const recent = readLines()
        .filter((l): l is Extract<Line, { type: 'check' }> => l.type === 'check' && l.extraMs === extraMs)
        .flatMap((l) => l.pairs)
        .slice(-DRIFT_PAIRS);
      const measured = pairsEffect(recent);
      // Off by more than two of its own standard errors (and the slack): noise alone would rarely say so.
      const off = Math.max(DRIFT_SLACK, 2 * medianSe(recent));
      if (recent.length >= DRIFT_PAIRS && (measured < TARGET_LOW - off || measured > TARGET_HIGH + off)) {
        const next = round3(extraMs * (AIM / Math.max(measured, effect / 4)));
        append({ type: 'calibration', at: new Date().toISOString(), extraMs: next, pairs: [], load: load1(), accepted: true });
        console.log(`drift: plain k6 ${(100 * measured).toFixed(2)}% over ${recent.length} pairs; head now +${next.toFixed(3)} ms`);
        extraMs = next;
      }
    }
  }
}

function summary(): void {
  const lines = readLines();
  const decisions = lines.filter((l): l is Extract<Line, { type: 'decision' }> => l.type === 'decision');
  // Plain k6's view of the change the A/B decisions ran with: the pairs measured at those delays.
  const used = new Set(decisions.filter((d) => d.kind === 'ab').map((d) => d.extraMs));
  const pairs = lines.flatMap((l) => (l.type !== 'decision' && used.has(l.extraMs) ? l.pairs : []));
  const rows = [['decisions', 'case', 'n', 'fail', 'pass', 'inconclusive', 'invalid', 'blocks mean / max', 'wall mean / max']];
  const describe = (set: typeof decisions, which: string) => {
    for (const kind of ['aa', 'ab'] as const) {
      const own = set.filter((d) => d.kind === kind);
      if (own.length === 0) continue;
      const count = (d: string) => own.filter((x) => x.decision === d).length;
      const valid = own.filter((d) => d.decision !== 'invalid');
      const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
      rows.push([
        which,
        kind === 'aa' ? 'A/A' : `A/B +${(effect * 100).toFixed(0)}%`,
        String(own.length),
        percentWithInterval(wilson(count('fail'), valid.length), 1),
        percentWithInterval(wilson(count('pass'), valid.length), 1),
        percentWithInterval(wilson(count('inconclusive'), valid.length), 1),
        String(count('invalid')),
        `${mean(valid.map((d) => d.blocks)).toFixed(1)} / ${Math.max(0, ...valid.map((d) => d.blocks))}`,
        `${mean(own.map((d) => d.wallS)).toFixed(0)} s / ${Math.max(0, ...own.map((d) => d.wallS)).toFixed(0)} s`,
      ]);
    }
  };
  describe(decisions, 'all');
  describe(
    decisions.filter((d) => d.loadBefore <= quiet && d.loadAfter <= quiet),
    `quiet (load ≤ ${quiet})`,
  );
  describe(
    decisions.filter((d) => d.loadBefore > quiet || d.loadAfter > quiet),
    `busy (load > ${quiet})`,
  );
  const versions = [...new Set(decisions.map((d) => d.code))];
  console.log(
    `${file}: ${decisions.length} decisions, ${rate} rps, ${durationS} s after ${warmupS} s per repetition; made with ${versions.map((v) => `${v} (${decisions.filter((d) => d.code === v).length})`).join(', ')}\n`,
  );
  console.log(alignTable(rows, (c) => c < 2));
  // The median pair with its order-statistic interval, not the mean's normal one: one pair that
  // met a stall (+430 % at a load of 26) moved the mean by a point and doubled its interval.
  const interval = medianInterval(pairs);
  if (interval && pairs.length > 1) {
    const pct = (x: number) => `${(100 * Math.expm1(x)).toFixed(2)}%`;
    console.log(
      `\nthe change as plain k6 measures it (fresh processes, ${interval.n} pairs of ${durationS} s): median pair ${pct(interval.median)} (${(100 * interval.coverage).toFixed(1)}% interval ${pct(interval.low)} to ${pct(interval.high)}; pairs from ${pct(Math.min(...pairs))} to ${pct(Math.max(...pairs))})`,
    );
  }
  const estimates = (kind: 'aa' | 'ab') => {
    const xs = decisions
      .filter((d) => d.kind === kind && d.decision !== 'invalid' && d.estimate !== null)
      .map((d) => d.estimate!)
      .sort((a, b) => a - b);
    const at = (q: number) => `${(100 * xs[Math.min(xs.length - 1, Math.floor(q * xs.length))]!).toFixed(2)}%`;
    return xs.length ? `median ${at(0.5)} (10th–90th percentile ${at(0.1)} to ${at(0.9)})` : '—';
  };
  console.log(`the gate's estimate at the look it stopped (valid decisions): A/A ${estimates('aa')}; A/B ${estimates('ab')}`);
  const loads = decisions.map((d) => Math.max(d.loadBefore, d.loadAfter));
  if (loads.length > 0)
    console.log(
      `load average (1 min) around the decisions: ${Math.min(...loads)} to ${Math.max(...loads)}, median ${[...loads].sort((a, b) => a - b)[Math.floor(loads.length / 2)]}`,
    );
}

if (command === 'piece') await piece();
else if (command === 'summary') summary();
else {
  process.stderr.write(
    'usage: bench/ab-local/run.ts piece|summary --file FILE [--minutes 14] [--rate 200] [--duration 1] [--warmup 0] [--base-delay 20] [--effect 5]\n',
  );
  process.exit(2);
}
