// Benchmark (not a test): confirmations of change points, for real on this machine. Each trial is
// a small daily series on the local platform (real echo servers, real k6): the history's runs with
// the settings before the step (measured at the start of each piece), then three daily runs with
// the trial's settings, then one confirmation (src/confirm/run.ts) of the change point between the
// last run before and the first after, the product's own code end to end: the settings diff, the
// confirmation runs through runPipeline, the A/B gate, the bisection.
//   a5, a10  a real step from one setting: the echo server's delay raised so that plain k6 measures
//            +5 % and +10 % (calibrated as bench/ab-local does, bench/support/plain-k6.ts);
//   b        a step on a flat series: an env variable no script reads changed, latency did not;
//   c        a runner-wide slowdown with no setting changed: every echo server of the later runs,
//            and of the confirmation run (the runner is still slow), +10 % slower, outside the config
//            (a platform wrapper, so the results record no setting change);
//   d        a step among four changed settings, one of them the cause (+10 %): three env
//            variables no script reads and the delay; the bisection must name the delay;
//   e        (after the issue's 120) a runner slowdown with no setting changed that is over when the
//            confirmation runs: the step did not hold, it must be withdrawn.
// The change point is handed to the confirmation as the gate raises it (the change-point gate's
// detector rarely raises one on a flat series, so case b could not be waited for); whether the
// detector raises it on the trial's series is recorded beside each trial.
//
// Pieces, for a shared machine (each appends to a JSON-lines file, stops after --minutes):
//   flock /tmp/mesh-perf-load.lock npx tsx bench/confirm/run.ts piece --file confirm.jsonl
//   npx tsx bench/confirm/run.ts summary --file confirm.jsonl
// and the worked example, a daily series in a git store with a confirmed and a withdrawn step:
//   flock /tmp/mesh-perf-load.lock npx tsx bench/confirm/run.ts demo --store /tmp/confirm-demo.git
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModeConfig } from '../../src/config/schema.ts';
import { parseDurationMs } from '../../src/config/duration.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { type ConfirmationDraft, type ConfirmDeps, confirmChangePoint } from '../../src/confirm/run.ts';
import { evaluateChangePointGate } from '../../src/history/change-point-gate.ts';
import { suiteChangePoints } from '../../src/history/change-points.ts';
import { confirmFromStore } from '../../src/history/confirm-session.ts';
import { openStore } from '../../src/history/open-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { raisedChangePoints } from '../../src/history/confirm-target.ts';
import { CONFIRM_EVENT } from '../../src/history/publishable.ts';
import { indexEntryFor } from '../../src/history/suite-index.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { LocalPlatform } from '../../src/platform/local.ts';
import type { Platform, PlatformFactory } from '../../src/platform/types.ts';
import { buildRunView } from '../../src/report/view.ts';
import type { RunResult } from '../../src/results/types.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { silentLogger } from '../../src/util/log.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { percentWithInterval, wilson } from '../support/intervals.ts';
import { appendJsonLine, codeVersion, load1, readJsonLines } from '../support/pieces.ts';
import { medianSe, pairsEffect, plainPairs } from '../support/plain-k6.ts';

const command = process.argv[2];
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const file = arg('file', 'confirm.jsonl');
const minutes = Number(arg('minutes', '14'));
const quiet = Number(arg('quiet', '1.5'));

/** Daily runs and confirmation runs alike: 200 rps, repetitions of 1 s without warm-up (bench/ab-local's block). */
const RATE = 200;
const LOAD = { rate: RATE, durationS: 1, warmupS: 0 };
const BASE_DELAY_MS = 20;
const HISTORY_RUNS = 10;
const AFTER_RUNS = 3;
/** The trial kinds in the order the pieces run them: per cycle of six, 20 cycles give 20 / 20 / 40 / 20 / 20. */
const CYCLE = ['a5', 'b', 'a10', 'c', 'b', 'd'] as const;
/** The issue's 120, then 20 of case e. */
const TRIALS = 140;
type Kind = (typeof CYCLE)[number] | 'e';
const kindOf = (index: number): Kind => (index < 120 ? CYCLE[index % CYCLE.length]! : 'e');
const TARGETS = { 5: 0.052, 10: 0.102 } as const;

type Line =
  | { type: 'calibration'; at: string; target: 5 | 10; extraMs: number; pairs: number[]; load: number }
  | {
      type: 'trial';
      at: string;
      index: number;
      kind: Kind;
      extraMs: number;
      /** Whether the change-point gate's detector raised the step on this trial's series (history + three runs). */
      raised: boolean;
      /** The step as the daily runs saw it: later runs' median p50 ÷ earlier's − 1. */
      step: number;
      verdict: ConfirmationDraft['verdict'];
      reason: string;
      culprits: string[][];
      rounds: {
        purpose: string;
        groups: { settings: string[]; decision: string; change: number | null; blocks: number }[];
        elapsedS: number;
      }[];
      wallS: number;
      loadBefore: number;
      loadAfter: number;
      code: string;
    };

const readLines = () => readJsonLines<Line>(file);

const append = (line: Line) => appendJsonLine(file, line);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

const CODE = codeVersion();

/**
 * The extra delay that plain k6 measures as +5 % (+10 %): every earlier round of that target gives
 * an effect per millisecond, pooled by pairs; a new round of 20 pairs aims at the target by it and is
 * kept when its median lands within two of its standard errors (or after four rounds).
 */
async function extraFor(k6: string, target: 5 | 10): Promise<number> {
  const rounds = readLines().filter((l): l is Extract<Line, { type: 'calibration' }> => l.type === 'calibration' && l.target === target);
  const aim = TARGETS[target];
  const slope = () =>
    rounds.length === 0
      ? 1 / (BASE_DELAY_MS + 1)
      : rounds.reduce((s, r) => s + r.pairs.length * (pairsEffect(r.pairs) / r.extraMs), 0) /
        rounds.reduce((s, r) => s + r.pairs.length, 0);
  const last = rounds.at(-1);
  if (last && Math.abs(pairsEffect(last.pairs) - aim) <= Math.max(0.004, 2 * medianSe(last.pairs))) return last.extraMs;
  for (let round = 0; round < 4; round++) {
    const extraMs = round3(aim / Math.max(slope(), 1e-4));
    const pairs = await plainPairs(k6, BASE_DELAY_MS, extraMs, 20, LOAD);
    const line: Line = { type: 'calibration', at: new Date().toISOString(), target, extraMs, pairs, load: load1() };
    append(line);
    rounds.push(line);
    const measured = pairsEffect(pairs);
    console.log(
      `calibration +${target}%: +${extraMs} ms → plain k6 ${(100 * measured).toFixed(2)}% ± ${(100 * medianSe(pairs)).toFixed(2)} (load ${load1()})`,
    );
    if (Math.abs(measured - aim) <= Math.max(0.004, 2 * medianSe(pairs))) return extraMs;
  }
  return rounds.at(-1)!.extraMs;
}

/** The local platform on a runner that became slower: every echo server `extraMs` slower than its config says. */
function slowerRunner(extraMs: number): PlatformFactory {
  const slow = (m: ModeConfig): ModeConfig => ({
    ...m,
    local: { ...(m.local ?? { hops: 0 }), delay: `${round3((parseDurationMs(m.local?.delay ?? '0ms') ?? 0) + extraMs)}ms` },
  });
  return (context) => {
    const inner = new LocalPlatform({ ...context, config: { ...context.config, modes: context.config.modes.map(slow) } });
    const platform: Platform = {
      name: inner.name,
      prepare: () => inner.prepare(),
      target: (m) => inner.target(m),
      loadRunner: () => inner.loadRunner(),
      resourceSampler: () => inner.resourceSampler(),
      environment: () => inner.environment(),
      beforeTrial: (m, profile, generators, block) => inner.beforeTrial(slow(m), profile, generators, block),
      teardown: () => inner.teardown(),
    };
    return platform;
  };
}

const MODE = 'svc';
const PROFILE = `${RATE}rps`;

/** One daily run of the series: three repetitions of the mode with `mode`'s settings. */
async function dailyRun(mode: Record<string, unknown>, dir: string, day: number, platform?: PlatformFactory): Promise<RunResult> {
  const config = validateConfig({
    platform: 'local',
    suite: 'confirm-bench',
    modes: [{ name: MODE, ...mode }],
    load: { rate: RATE, duration: '1s', warmup: '0s', repetitions: 3 },
    out: join(dir, `day-${day}`),
  });
  const { result } = await runPipeline(config, {
    log: silentLogger,
    signal: new AbortController().signal,
    cwd: dir,
    git: { branch: 'main', sha: day.toString(16).padStart(40, '0') },
    ...(platform ? { platform } : {}),
  });
  return result;
}

const p50Of = (r: RunResult) => {
  const values = r.modes[0]!.repetitions.filter((rep) => rep.valid && rep.latencyMs).map((rep) => rep.latencyMs!.p50);
  return median(values);
};

function median(values: readonly number[]): number {
  const o = [...values].sort((a, b) => a - b);
  const h = o.length / 2;
  return o.length === 0 ? Number.NaN : o.length % 2 === 1 ? o[Math.floor(h)]! : (o[h - 1]! + o[h]!) / 2;
}

interface TrialSettings {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** The runner's own slowdown from the first later run on (cases c and e), ms per request. */
  runnerMs: number;
  /** Whether it lasts into the confirmation (case c) or is over by then (case e). */
  lasts?: boolean;
}

function settingsOf(kind: Kind, extra5: number, extra10: number): TrialSettings {
  const delay = (ms: number) => ({ local: { delay: `${round3(ms)}ms` } });
  switch (kind) {
    case 'a5':
      return { before: delay(BASE_DELAY_MS), after: delay(BASE_DELAY_MS + extra5), runnerMs: 0 };
    case 'a10':
      return { before: delay(BASE_DELAY_MS), after: delay(BASE_DELAY_MS + extra10), runnerMs: 0 };
    case 'b':
      return {
        before: { ...delay(BASE_DELAY_MS), env: { FEATURE: 'off' } },
        after: { ...delay(BASE_DELAY_MS), env: { FEATURE: 'on' } },
        runnerMs: 0,
      };
    case 'c':
      return { before: delay(BASE_DELAY_MS), after: delay(BASE_DELAY_MS), runnerMs: extra10, lasts: true };
    case 'e':
      return { before: delay(BASE_DELAY_MS), after: delay(BASE_DELAY_MS), runnerMs: extra10, lasts: false };
    case 'd':
      return {
        before: { ...delay(BASE_DELAY_MS), env: { CACHE: 'a', POOL: '8', TRACE: 'off' } },
        after: { ...delay(BASE_DELAY_MS + extra10), env: { CACHE: 'b', POOL: '16', TRACE: 'on' } },
        runnerMs: 0,
      };
  }
}

/** The change point the trial's series makes, as the change-point gate raises it: the last run before the step and the first after. */
function changePointOf(history: RunResult[], later: RunResult[]) {
  const before = median(history.map(p50Of));
  const after = median(later.map(p50Of));
  return {
    branch: 'main',
    profile: PROFILE,
    mode: MODE,
    metric: 'p50',
    before: history.at(-1)!.run.id,
    after: later[0]!.run.id,
    size: after / before - 1,
    segments: [{ median: before }, { median: after }] as const,
  };
}

/** Whether the change-point gate's detector raises a p50 step of the mode at the first later run. */
function detectorRaises(history: RunResult[], later: RunResult[]): boolean {
  const entries = [...history, ...later].map((r, i) => ({
    ...indexEntryFor(buildRunView(r), `runs/x/${i}.js`, 'blob'),
    startedAt: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString(),
  }));
  return raisedChangePoints(suiteChangePoints(entries), 5).some(
    (cp) => cp.mode === MODE && cp.metric === 'p50' && cp.after === later[0]!.run.id,
  );
}

function confirmDeps(dir: string, platform: PlatformFactory | undefined): ConfirmDeps {
  return {
    runRound: async (config, index) => {
      const { result } = await runPipeline(
        { ...config, out: join(dir, `confirm-${index}`) },
        {
          log: silentLogger,
          signal: new AbortController().signal,
          cwd: dir,
          git: { event: CONFIRM_EVENT },
          ...(platform ? { platform } : {}),
        },
      );
      return result;
    },
    now: () => new Date(),
    runner: 'bench',
    tool: CODE,
  };
}

async function trial(index: number, kind: Kind, history: RunResult[], extra5: number, extra10: number): Promise<Line> {
  const dir = await mkdtemp(join(tmpdir(), 'confirm-bench-'));
  const loadBefore = load1();
  try {
    const settings = settingsOf(kind, extra5, extra10);
    const runner = settings.runnerMs > 0 ? slowerRunner(settings.runnerMs) : undefined;
    const later: RunResult[] = [];
    for (let i = 0; i < AFTER_RUNS; i++) later.push(await dailyRun(settings.after, dir, HISTORY_RUNS + i + 1, runner));
    // The history's settings, as stored: the trial's before-settings (the measured history ran them).
    const history_ = history.map((r) => ({
      ...r,
      config: { ...r.config, modes: [{ ...(r.config.modes as Record<string, unknown>[])[0], ...settings.before }] },
    }));
    const cp = changePointOf(history_, later);
    const started = Date.now();
    const draft = await confirmChangePoint(
      { changePoint: cp, suite: 'confirm-bench', before: history_.at(-1)!, after: later[0]! },
      { maxDuration: '10m', maxBisectRuns: 3, duration: '1s', warmup: '0s', seed: 7000 + index },
      confirmDeps(dir, settings.lasts ? runner : undefined),
    );
    return {
      type: 'trial',
      at: new Date(started).toISOString(),
      index,
      kind,
      extraMs: kind === 'a5' ? extra5 : kind === 'b' ? 0 : extra10,
      raised: detectorRaises(history_, later),
      step: cp.size,
      verdict: draft.verdict,
      reason: draft.reason,
      culprits: (draft.culprits ?? []).map((c) => c.settings),
      rounds: draft.rounds.map((r) => ({
        purpose: r.purpose,
        groups: r.groups.map((g) => ({ settings: g.settings, decision: g.decision, change: g.change?.value ?? null, blocks: g.blocks })),
        elapsedS: r.elapsedS,
      })),
      wallS: Math.round((Date.now() - started) / 100) / 10,
      loadBefore,
      loadAfter: load1(),
      code: CODE,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function piece(): Promise<void> {
  const k6 = (await ensureK6(silentLogger)).path;
  const deadline = Date.now() + minutes * 60_000;
  const extra5 = await extraFor(k6, 5);
  const extra10 = await extraFor(k6, 10);
  let done = readLines().filter((l) => l.type === 'trial').length;
  if (done >= TRIALS) {
    console.log(`${file}: all ${TRIALS} trials done`);
    return;
  }
  // The history's runs, measured now: the days before each trial's step. Their settings are the
  // trials' before-settings, which differ from one another only in env no script reads (or not at all).
  const dir = await mkdtemp(join(tmpdir(), 'confirm-bench-history-'));
  try {
    const history: RunResult[] = [];
    for (let day = 1; day <= HISTORY_RUNS; day++) history.push(await dailyRun({ local: { delay: `${BASE_DELAY_MS}ms` } }, dir, day));
    console.log(
      `piece: ${done} trials so far; +5% = +${extra5} ms, +10% = +${extra10} ms; history p50 ${median(history.map(p50Of)).toFixed(3)} ms`,
    );
    // A trial takes 1 to 5 minutes (case d: the A/B and two bisection runs of two groups): none starts with less than 5 left.
    while (Date.now() < deadline - 300_000 && done < TRIALS) {
      const kind = kindOf(done);
      const line = await trial(done, kind, history, extra5, extra10);
      append(line);
      done++;
      if (line.type === 'trial')
        console.log(
          `${done}: ${kind} step ${(100 * line.step).toFixed(2)}%${line.raised ? ' (raised)' : ''} → ${line.verdict} (${line.reason})${line.culprits.length ? `, named ${line.culprits.map((c) => c.join('+')).join('; ')}` : ''} in ${line.wallS} s (load ${line.loadBefore} → ${line.loadAfter})`,
        );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function summary(): void {
  const lines = readLines();
  const trials = lines.filter((l): l is Extract<Line, { type: 'trial' }> => l.type === 'trial');
  const groups: [string, (t: (typeof trials)[number]) => boolean][] = [
    ['a5: +5% from one setting', (t) => t.kind === 'a5'],
    ['a10: +10% from one setting', (t) => t.kind === 'a10'],
    ['b: flat series, harmless setting', (t) => t.kind === 'b'],
    ['c: runner-wide slowdown, no setting', (t) => t.kind === 'c'],
    ['d: +10% among 4 settings', (t) => t.kind === 'd'],
    ['e: runner slowdown, over when confirmed', (t) => t.kind === 'e'],
  ];
  const verdicts = ['confirmed', 'withdrawn', 'environment', 'cannot-rerun', 'inconclusive', 'invalid'] as const;
  const rows = [['case', 'n', 'raised', ...verdicts, 'named right', 'named wrong', 'wall median', 'step median']];
  for (const [name, match] of groups) {
    const own = trials.filter(match);
    if (own.length === 0) continue;
    const share = (n: number) => percentWithInterval(wilson(n, own.length), 0);
    const named = own.filter((t) => t.kind === 'd' || t.kind.startsWith('a'));
    const right = named.filter((t) => t.culprits.length === 1 && t.culprits[0]!.length === 1 && t.culprits[0]![0] === 'local.delay').length;
    const wrong = named.filter((t) => t.culprits.some((c) => c.some((s) => s !== 'local.delay'))).length;
    rows.push([
      name,
      String(own.length),
      share(own.filter((t) => t.raised).length),
      ...verdicts.map((v) => share(own.filter((t) => t.verdict === v).length)),
      named.length ? share(right) : '—',
      named.length ? share(wrong) : '—',
      `${median(own.map((t) => t.wallS)).toFixed(0)} s`,
      `${(100 * median(own.map((t) => t.step))).toFixed(1)}%`,
    ]);
  }
  console.log(`${file}: ${trials.length} trials, made with ${[...new Set(trials.map((t) => t.code))].join(', ')}\n`);
  console.log(alignTable(rows, (c) => c < 1));
  const calibrations = lines.filter((l): l is Extract<Line, { type: 'calibration' }> => l.type === 'calibration');
  for (const target of [5, 10] as const) {
    const used = new Set(trials.filter((t) => t.extraMs > 0).map((t) => t.extraMs));
    const pairs = calibrations.filter((c) => c.target === target && used.has(c.extraMs)).flatMap((c) => c.pairs);
    if (pairs.length > 0)
      console.log(
        `the +${target}% change as plain k6 measures it: ${(100 * pairsEffect(pairs)).toFixed(2)}% ± ${(100 * medianSe(pairs)).toFixed(2)} over ${pairs.length} pairs`,
      );
  }
  // A confirmation's time here, and projected for a GitHub runner at the product's default
  // repetition (6 s after 2 s of warm-up) with this machine's overhead per repetition.
  const reps = (t: (typeof trials)[number]) => t.rounds.reduce((s, r) => s + r.groups.reduce((g, x) => g + 2 * x.blocks, 0), 0);
  const overhead = median(trials.filter((t) => reps(t) > 0).map((t) => t.wallS / reps(t) - LOAD.durationS - LOAD.warmupS));
  const projected = median(trials.filter((t) => reps(t) > 0).map((t) => reps(t) * (6 + 2 + overhead)));
  console.log(
    `median confirmation: ${median(trials.map((t) => t.wallS)).toFixed(0)} s here (1 s repetitions; ${overhead.toFixed(2)} s start and warm-up of the servers and k6 per repetition); at the default 6 s + 2 s: ${(projected / 60).toFixed(1)} min`,
  );
  const quietOnes = trials.filter((t) => t.loadBefore <= quiet && t.loadAfter <= quiet).length;
  console.log(`load average (1 min) around the trials: ${quietOnes} of ${trials.length} at or under ${quiet}`);
}

/**
 * The worked example: a daily series published day by day into a git store (the gh-pages branch of
 * a local bare repository), as the daily workflow does: a change of four settings, one of which
 * slows the series 10 %, is raised, confirmed and its cause named; a runner slowdown that is over
 * when the confirmation runs is withdrawn (the step did not hold); one that lasts is labelled
 * environment. Each verdict is recorded with its change point (open the store's dashboard).
 */
async function demo(): Promise<void> {
  const spec = arg('store', '/tmp/confirm-demo.git');
  if (!existsSync(spec)) execFileSync('git', ['init', '--bare', '-q', spec]);
  const store = openStore(spec, { branch: 'gh-pages', chartJs: loadChartJsSource, log: silentLogger });
  const k6 = (await ensureK6(silentLogger)).path;
  const extra10 = await extraFor(k6, 10);
  const dir = await mkdtemp(join(tmpdir(), 'confirm-demo-'));
  const s0 = { local: { delay: `${BASE_DELAY_MS}ms` }, env: { CACHE: 'a', POOL: '8', TRACE: 'off' } };
  const s1 = { local: { delay: `${round3(BASE_DELAY_MS + extra10)}ms` }, env: { CACHE: 'b', POOL: '16', TRACE: 'on' } };
  let day = 0;
  const publishDay = async (settings: Record<string, unknown>, runner?: PlatformFactory) => {
    day++;
    const result = await dailyRun(settings, dir, day, runner);
    const startedAt = new Date(Date.UTC(2026, 9, 1 + day, 3, 17)).toISOString();
    const outcome = await store.publish([{ ...result, run: { ...result.run, startedAt, finishedAt: startedAt } }]);
    const raised = evaluateChangePointGate(outcome.changePoints ?? [], 'fail', 5, 'required');
    console.log(`day ${day}: p50 ${p50Of(result).toFixed(3)} ms${raised.lines.length ? `\n  ${raised.lines.join('\n  ')}` : ''}`);
    // The step planted is in p50 (a 1 s repetition's p99 is 2 requests deep: its series raises noise now and then).
    const p50 = raised.raised.find((cp) => cp.metric === 'p50');
    if (p50) planted = `${p50.profile}/${p50.mode}/p50@${p50.after}`;
    return p50 !== undefined;
  };
  let planted = 'newest';
  const confirmNow = async (label: string, runner?: PlatformFactory) => {
    console.log(`confirming (${label}: ${planted})…`);
    const outcome = await confirmFromStore(
      store,
      { suite: 'confirm-bench', branch: 'main', minEffectPct: 5, perDay: 10, changePoint: planted },
      { maxDuration: '10m', maxBisectRuns: 3, duration: '1s', warmup: '0s' },
      confirmDeps(dir, runner),
    );
    if ('none' in outcome) {
      console.log(`  nothing to confirm: ${outcome.none}`);
      return;
    }
    await store.recordConfirmations([outcome.record]);
    console.log(`  ${outcome.record.line}\n${outcome.record.details.map((d) => `    ${d}`).join('\n')}`);
  };
  try {
    for (let i = 0; i < HISTORY_RUNS; i++) await publishDay(s0);
    // Four settings change at once; one of them is the step.
    while (!(await publishDay(s1)) && day < HISTORY_RUNS + 8);
    await confirmNow('four settings changed');
    for (let i = 0; i < 6; i++) await publishDay(s1);
    // The runner is slower for a few days (until the step is raised), then itself again before the confirmation runs.
    const slow = slowerRunner(extra10);
    for (let i = 0; i < 5 && !(await publishDay(s1, slow)); i++);
    await confirmNow('a runner slowdown, over by now');
    for (let i = 0; i < 6; i++) await publishDay(s1);
    // Slower again, and still slow when the confirmation runs.
    for (let i = 0; i < 5 && !(await publishDay(s1, slow)); i++);
    await confirmNow('a runner slowdown that lasts', slow);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(`store: ${spec} (branch gh-pages); its dashboard: mesh-perf report --store ${spec} --out <folder>`);
}

if (command === 'piece') await piece();
else if (command === 'summary') summary();
else if (command === 'demo') await demo();
else {
  process.stderr.write('usage: bench/confirm/run.ts piece|summary --file FILE [--minutes 14] [--quiet 1.5] | demo --store REPO.git\n');
  process.exit(2);
}
