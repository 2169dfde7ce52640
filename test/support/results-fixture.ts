// Builds realistic RunResult values (the shape src/results/types.ts defines) for history, report
// and dashboard tests and for the dashboard benchmark. Latencies follow per-mode scales loosely
// matching the ambient seed (no mesh < ambient < sidecar < waypoint) with seeded noise, so
// every chart has something non-trivial to draw. Nothing here is a captured measurement.
import { seededRandom, type Random } from '../../src/util/random.ts';
import {
  RESULTS_SCHEMA_VERSION,
  type LatencyMs,
  type ModeResult,
  type Repetition,
  type ResourceUsage,
  type RunResult,
  type TimelinePoint,
} from '../../src/results/types.ts';

export interface FixtureOptions {
  suite?: string;
  id?: string;
  seed?: number;
  startedAt?: Date;
  modes?: string[];
  profiles?: string[];
  repetitions?: number;
  /** Seconds of timeline per repetition. */
  durationS?: number;
  targetRps?: number;
  sha?: string;
  branch?: string;
  event?: string;
  baseSha?: string;
  baseRef?: string;
  pullRequest?: number;
  repository?: string;
  /** Mark these (mode, repetition index) pairs invalid with a dropped-iterations reason. */
  invalid?: { mode: string; repetition: number; profile?: string }[];
  /** Add Kubernetes-style resource usage to every repetition. */
  resources?: boolean;
  /** Multiplies every latency (simulates a regression). */
  latencyFactor?: number;
}

/** Relative latency scale per mode, so the charts show the expected ordering. */
const MODE_SCALE: Record<string, number> = {
  baseline: 1,
  'istio-ambient': 1.25,
  'istio-sidecar': 1.45,
  'istio-waypoint': 1.7,
  linkerd: 1.3,
};

export const DEFAULT_MODES = ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint', 'linkerd'];

export function buildRunResult(options: FixtureOptions = {}): RunResult {
  const seed = options.seed ?? 1;
  const random = seededRandom(seed);
  const modes = options.modes ?? DEFAULT_MODES;
  const profiles = options.profiles ?? ['1000rps'];
  const reps = options.repetitions ?? 3;
  const durationS = options.durationS ?? 30;
  const targetRps = options.targetRps ?? 1000;
  const startedAt = options.startedAt ?? new Date(Date.UTC(2025, 0, 15, 3, 0, 0));
  const factor = options.latencyFactor ?? 1;
  const suite = options.suite ?? 'default';
  const id = options.id ?? `${startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${(seed >>> 0).toString(36)}`;

  const trials: RunResult['plan']['trials'] = [];
  const modeResults: ModeResult[] = [];
  let trial = 0;
  let clock = startedAt.getTime();
  const byKey = new Map<string, Repetition[]>();
  for (const profile of profiles) {
    for (let block = 0; block < reps; block++) {
      for (const mode of modes) {
        const invalid = options.invalid?.find(
          (x) => x.mode === mode && x.repetition === block && (x.profile === undefined || x.profile === profile),
        );
        const scale = (MODE_SCALE[mode] ?? 1.1) * factor * (1 + profiles.indexOf(profile) * 0.15);
        const repetition = buildRepetition({
          random,
          trial,
          block,
          startedAt: new Date(clock),
          durationS,
          targetRps,
          scale,
          invalid: invalid !== undefined,
          resources: options.resources ?? false,
          mode,
        });
        trials.push({ index: trial, mode, profile, repetition: block, block });
        const key = `${profile}\u0000${mode}`;
        if (!byKey.has(key)) byKey.set(key, []);
        byKey.get(key)!.push(repetition);
        trial++;
        clock += (durationS + 5) * 1000;
      }
    }
  }
  for (const profile of profiles) {
    for (const mode of modes) {
      modeResults.push({
        name: mode,
        profile,
        mesh: mode,
        target: `http://echo.${mode}.svc:8080/`,
        repetitions: byKey.get(`${profile}\u0000${mode}`)!,
      });
    }
  }
  const anyInvalid = modeResults.some((m) => m.repetitions.some((r) => !r.valid));
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    verdict: anyInvalid ? 'invalid' : 'pass',
    verdictReasons: anyInvalid ? ['one or more repetitions are invalid (dropped iterations)'] : [],
    run: {
      id,
      suite,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date(clock).toISOString(),
      platform: 'kind',
      git: {
        sha: options.sha ?? hex(random, 40),
        ref: `refs/heads/${options.branch ?? 'main'}`,
        branch: options.branch ?? 'main',
        event: options.event ?? 'schedule',
        ...(options.baseRef ? { baseRef: options.baseRef } : {}),
        ...(options.baseSha ? { baseSha: options.baseSha } : {}),
        ...(options.pullRequest ? { pullRequest: options.pullRequest } : {}),
        repository: options.repository ?? 'example/mesh-app',
      },
      tools: { k6: '1.8.1', kind: '0.27.0', istioctl: '1.26.2', linkerd: 'edge-25.5.1', 'mesh-perf': '0.1.0' },
      machine: { cpuModel: 'AMD EPYC 7763 64-Core Processor', cores: 4, memoryMiB: 15990, os: 'linux', runnerClass: 'linux-x64-4c' },
      environment: { kubernetesVersion: 'v1.33.1', nodes: 2, cni: 'kindnet', istio: '1.26.2', linkerd: 'edge-25.5.1' },
    },
    config: { suite, platform: 'kind', modes: modes.map((name) => ({ name })), load: profiles.map((name) => ({ name, rate: targetRps })) },
    plan: { seed, order: 'interleaved', trials },
    baseline: modes[0]!,
    modes: modeResults,
  };
}

interface RepetitionInput {
  random: Random;
  trial: number;
  block: number;
  startedAt: Date;
  durationS: number;
  targetRps: number;
  scale: number;
  invalid: boolean;
  resources: boolean;
  mode: string;
}

function buildRepetition(input: RepetitionInput): Repetition {
  const { random, scale, durationS, targetRps } = input;
  const noise = () => 1 + (random() - 0.5) * 0.08;
  const base = 0.9 * scale * noise();
  const latencyMs: LatencyMs = {
    min: round(base * 0.35),
    mean: round(base * 1.1),
    p50: round(base),
    p75: round(base * 1.12),
    p90: round(base * 1.28 * noise()),
    p95: round(base * 1.5 * noise()),
    p99: round(base * 3.2 * (1 + (random() - 0.5) * 0.5)),
    p999: round(base * 7 * (1 + (random() - 0.5) * 0.6)),
    max: round(base * 14 * (1 + random())),
  };
  const timeline: TimelinePoint[] = [];
  for (let t = 1; t <= durationS; t++) {
    const p50 = round(latencyMs.p50 * noise());
    timeline.push({
      t,
      requests: Math.round(targetRps * noise()),
      failures: 0,
      p50,
      p90: round(latencyMs.p90 * noise()),
      p99: round(latencyMs.p99 * noise()),
      max: round(latencyMs.p99 * (1.5 + random())),
    });
  }
  const achievedRps = input.invalid ? round(targetRps * 0.93) : round(targetRps * (0.998 + random() * 0.002));
  const requests = Math.round(achievedRps * durationS);
  const dropped = input.invalid ? Math.round(targetRps * durationS * 0.07) : 0;
  const repetition: Repetition = {
    trial: input.trial,
    block: input.block,
    round: 1,
    startedAt: input.startedAt.toISOString(),
    durationS,
    targetRps,
    achievedRps,
    droppedIterations: dropped,
    requests,
    failures: 0,
    errorRate: 0,
    statusCounts: { '200': requests },
    bytesSent: requests * 120,
    bytesReceived: requests * 310,
    latencyMs,
    timeline,
    valid: !input.invalid,
    invalidReasons: input.invalid
      ? [`${dropped} dropped iterations; achieved ${achievedRps} rps is under 99% of the ${targetRps} rps target`]
      : [],
  };
  if (input.resources) repetition.resources = buildResources(random, input.mode, achievedRps);
  return repetition;
}

function buildResources(random: Random, mode: string, rps: number): ResourceUsage[] {
  const groups: [string, number, number][] = [
    ['app', 120, 35],
    ['client', 300, 60],
  ];
  if (mode === 'istio-sidecar') groups.push(['sidecar', 210, 62]);
  if (mode.startsWith('istio-ambient') || mode === 'istio-waypoint') groups.push(['ztunnel', 70, 14]);
  if (mode === 'istio-waypoint') groups.push(['waypoint', 250, 60]);
  if (mode === 'linkerd') groups.push(['sidecar', 150, 25]);
  if (mode.startsWith('istio')) groups.push(['control-plane', 15, 80]);
  return groups.map(([group, cpu, mem]) => {
    const avg = round(cpu * (0.9 + random() * 0.2));
    const memAvg = round(mem * (0.95 + random() * 0.1));
    return {
      group,
      scope: group === 'control-plane' ? 'istio-system' : mode,
      cpuMillicores: { min: round(avg * 0.8), max: round(avg * 1.2), avg },
      memoryMiB: { min: round(memAvg * 0.97), max: round(memAvg * 1.03), avg: memAvg },
      cpuPer1000Rps: round((avg / rps) * 1000),
      memoryMiBPer1000Rps: round((memAvg / rps) * 1000),
      samples: 6,
    };
  });
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function hex(random: Random, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(random() * 16).toString(16);
  return out;
}

/** A series of daily runs, oldest first, for history and dashboard tests. */
export function buildDailyRuns(count: number, options: FixtureOptions & { start?: Date } = {}): RunResult[] {
  const start = options.start ?? new Date(Date.UTC(2025, 0, 1, 3, 0, 0));
  const out: RunResult[] = [];
  for (let day = 0; day < count; day++) {
    const startedAt = new Date(start.getTime() + day * 86_400_000);
    out.push(buildRunResult({ ...options, seed: (options.seed ?? 7) * 100_003 + day, startedAt, id: undefined }));
  }
  return out;
}
