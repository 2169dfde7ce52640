// Synthetic runs of known distribution for the analysis tests. Each repetition's latency level is
// drawn by the caller (so a test states the true median, the run-to-run CV and any job effect);
// the other statistics follow the level with fixed shape factors. Nothing here is a measurement.
import { validateConfig, type Config } from '../../src/config/validate.ts';
import { RESULTS_SCHEMA_VERSION, type ModeResult, type Repetition, type RunResult } from '../../src/results/types.ts';
import type { Random } from '../../src/util/random.ts';
import { analyzeRun, type AnalyzeOptions } from '../../src/analysis/analyze.ts';
import type { Analysis } from '../../src/results/analysis.ts';
import { wordAnalysis } from '../../src/report/analysis-words.ts';

/** Standard normal draw (Box–Muller). */
export function gaussian(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Lognormal factor with median 1 and coefficient of variation `cv`. */
export function lognormalFactor(random: Random, cv: number): number {
  const sigma = Math.sqrt(Math.log(1 + cv * cv));
  return Math.exp(sigma * gaussian(random));
}

/** n draws around `median` with run-to-run CV `cv`, all scaled by a shared job effect. */
export function drawLevels(random: Random, n: number, median: number, cv: number, jobEffect = 1): number[] {
  return Array.from({ length: n }, () => median * jobEffect * lognormalFactor(random, cv));
}

const SHAPE = { min: 0.5, mean: 1.15, p50: 1, p75: 1.2, p90: 1.5, p95: 1.8, p99: 2.6, p999: 4, max: 7 };

export interface RepetitionSpec {
  trial: number;
  block: number;
  round?: number;
  /** p50 in ms; the other statistics scale with it. */
  level: number;
  targetRps?: number | null;
  achievedRps?: number;
  failures?: number;
  requests?: number;
  invalidReason?: string;
  cpuMillicores?: number;
  memoryMiB?: number;
}

export function repetition(spec: RepetitionSpec): Repetition {
  const target = spec.targetRps === undefined ? 1000 : spec.targetRps;
  const achieved = spec.achievedRps ?? target ?? 1000;
  const requests = spec.requests ?? Math.round(achieved * 10);
  const failures = spec.failures ?? 0;
  const latencyMs = Object.fromEntries(Object.entries(SHAPE).map(([k, f]) => [k, spec.level * f])) as unknown as Repetition['latencyMs'];
  const rep: Repetition = {
    trial: spec.trial,
    block: spec.block,
    round: spec.round ?? 1,
    startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, spec.trial * 15)).toISOString(),
    durationS: 10,
    targetRps: target,
    achievedRps: achieved,
    droppedIterations: spec.invalidReason ? 12 : 0,
    requests,
    failures,
    errorRate: requests > 0 ? failures / requests : 0,
    statusCounts: { '200': requests - failures },
    bytesSent: requests * 100,
    bytesReceived: requests * 300,
    latencyMs,
    timeline: [],
    valid: !spec.invalidReason,
    invalidReasons: spec.invalidReason ? [spec.invalidReason] : [],
  };
  if (spec.cpuMillicores !== undefined || spec.memoryMiB !== undefined) {
    rep.resources = [
      {
        group: 'sidecar',
        scope: 'mode',
        cpuMillicores: { min: 0, max: 0, avg: spec.cpuMillicores ?? 0 },
        memoryMiB: { min: 0, max: 0, avg: spec.memoryMiB ?? 0 },
        samples: 10,
      },
      { group: 'client', scope: 'k6', cpuMillicores: { min: 0, max: 0, avg: 900 }, memoryMiB: { min: 0, max: 0, avg: 300 }, samples: 10 },
    ];
  }
  return rep;
}

export interface RunSpec {
  id?: string;
  seed?: number;
  startedAt?: string;
  runnerClass?: string;
  config?: Config;
  /** Mode name → p50 level per block (block = index + 1), round 1. */
  levels: Record<string, number[]>;
  /** Round 2 (confirmation) levels, per mode. */
  round2?: Record<string, number[]>;
  /** Extra fields per (mode, block index) of round 1. */
  tweak?: (mode: string, index: number, spec: RepetitionSpec) => RepetitionSpec;
  profile?: string;
}

let runCounter = 0;

export function testConfig(raw: Record<string, unknown> = {}, modes = ['baseline', 'sidecar']): Config {
  return validateConfig(
    { modes: modes.map((name) => ({ name })), load: { rate: 1000, duration: '10s', repetitions: 5 }, ...raw },
    'test config',
  );
}

export function syntheticRun(spec: RunSpec): RunResult {
  const config = spec.config ?? testConfig({}, Object.keys(spec.levels));
  const profile = spec.profile ?? config.profiles[0]!.name;
  const modes: ModeResult[] = [];
  let trial = 0;
  const trials: RunResult['plan']['trials'] = [];
  for (const [name, levels] of Object.entries(spec.levels)) {
    const reps: Repetition[] = [];
    levels.forEach((level, index) => {
      let rep: RepetitionSpec = { trial: trial++, block: index + 1, level };
      if (spec.tweak) rep = spec.tweak(name, index, rep);
      reps.push(repetition(rep));
      trials.push({ index: rep.trial, mode: name, profile, repetition: index + 1, block: index + 1 });
    });
    (spec.round2?.[name] ?? []).forEach((level, index) => reps.push(repetition({ trial: trial++, block: index + 1, round: 2, level })));
    modes.push({ name, profile, repetitions: reps });
  }
  runCounter++;
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    verdict: 'pass',
    verdictReasons: [],
    run: {
      id: spec.id ?? `run-${runCounter}`,
      suite: config.suite,
      startedAt: spec.startedAt ?? new Date(Date.UTC(2026, 0, 1) + runCounter * 60_000).toISOString(),
      finishedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
      platform: config.platform,
      git: {},
      tools: {},
      machine: { cpuModel: 'test', cores: 2, memoryMiB: 4096, os: 'linux', runnerClass: spec.runnerClass ?? 'linux-x64-2c' },
      environment: {},
    },
    config: config as unknown as Record<string, unknown>,
    plan: { seed: spec.seed ?? 42, order: 'interleaved', trials },
    baseline: config.baseline,
    modes,
  };
}

/** analyzeRun's evidence worded as results.json stores it (what the front ends do, pipeline.ts). */
export function analyzeWorded(result: RunResult, options: AnalyzeOptions): Analysis {
  return wordAnalysis(analyzeRun(result, options));
}
