// RunResult values for the source-benchmark format tests. Two kinds:
// - source*Run(): built from the figures a source benchmark document published, so a renderer can be checked
//   against the source benchmark's own text (the source benchmark's numbers must come out exactly as the source benchmark prints them);
// - realistic*Run(): several repetitions, an invalid one, resource samples, seeded noise; their
//   rendered output is kept as golden files. Hand-built, not captured: captured results from a
//   real run are exercised by test/presets/local-e2e.test.ts.
import {
  RESULTS_SCHEMA_VERSION,
  type LatencyMs,
  type ModeResult,
  type Repetition,
  type ResourceUsage,
  type RunResult,
} from '../../src/results/types.ts';
import { seededRandom } from '../../src/util/random.ts';

export interface RepInput {
  trial?: number;
  block?: number;
  durationS?: number;
  targetRps?: number | null;
  requests: number;
  failures?: number;
  statusCounts?: Record<string, number>;
  bytesSent?: number;
  bytesReceived?: number;
  latencyMs: Partial<LatencyMs> & Pick<LatencyMs, 'p50'>;
  /** k6's iteration_duration, when the repetition recorded it. */
  iterationMs?: Partial<LatencyMs> & Pick<LatencyMs, 'p50'>;
  resources?: ResourceUsage[];
  invalidReasons?: string[];
}

export function rep(input: RepInput): Repetition {
  const durationS = input.durationS ?? 10;
  const failures = input.failures ?? 0;
  const l = input.latencyMs;
  const invalid = input.invalidReasons ?? [];
  return {
    trial: input.trial ?? 0,
    block: input.block ?? 1,
    round: 1,
    startedAt: '2025-07-08T03:00:00.000Z',
    durationS,
    targetRps: input.targetRps === undefined ? Math.round(input.requests / durationS) : input.targetRps,
    achievedRps: input.requests / durationS,
    droppedIterations: invalid.length > 0 ? 120 : 0,
    requests: input.requests,
    failures,
    errorRate: input.requests > 0 ? failures / input.requests : 0,
    statusCounts: input.statusCounts ?? { '200': input.requests - failures },
    bytesSent: input.bytesSent ?? 0,
    bytesReceived: input.bytesReceived ?? 0,
    latencyMs: {
      min: l.min ?? l.p50 * 0.6,
      mean: l.mean ?? l.p50 * 1.05,
      p50: l.p50,
      p75: l.p75 ?? l.p50 * 1.1,
      p90: l.p90 ?? l.p50 * 1.3,
      p95: l.p95 ?? l.p50 * 1.5,
      p99: l.p99 ?? l.p50 * 3,
      p999: l.p999 ?? l.p50 * 6,
      max: l.max ?? l.p50 * 12,
    },
    ...(input.iterationMs ? { iterationMs: fullLatency(input.iterationMs) } : {}),
    timeline: [],
    ...(input.resources ? { resources: input.resources } : {}),
    valid: invalid.length === 0,
    invalidReasons: invalid,
  };
}

function fullLatency(l: Partial<LatencyMs> & Pick<LatencyMs, 'p50'>): LatencyMs {
  return {
    min: l.min ?? l.p50 * 0.6,
    mean: l.mean ?? l.p50 * 1.05,
    p50: l.p50,
    p75: l.p75 ?? l.p50 * 1.1,
    p90: l.p90 ?? l.p50 * 1.3,
    p95: l.p95 ?? l.p50 * 1.5,
    p99: l.p99 ?? l.p50 * 3,
    p999: l.p999 ?? l.p50 * 6,
    max: l.max ?? l.p50 * 12,
  };
}

export function usage(group: string, scope: string, cpu: [number, number, number], mem: [number, number, number]): ResourceUsage {
  return {
    group,
    scope,
    cpuMillicores: { min: cpu[0], max: cpu[1], avg: cpu[2] },
    memoryMiB: { min: mem[0], max: mem[1], avg: mem[2] },
    samples: 30,
  };
}

export interface RunInput {
  suite: string;
  preset?: string;
  platform?: string;
  startedAt?: string;
  baseline?: string;
  profiles: Record<string, unknown>[];
  kubernetes?: Record<string, unknown>;
  /** mode name → profile name → repetitions */
  modes: Record<string, Record<string, Repetition[]>>;
}

export function run(input: RunInput): RunResult {
  const startedAt = input.startedAt ?? '2025-07-08T03:00:00.000Z';
  const modeNames = Object.keys(input.modes);
  const modes: ModeResult[] = [];
  for (const profile of input.profiles) {
    const name = String(profile.name);
    for (const mode of modeNames) {
      const reps = input.modes[mode]![name];
      if (reps) modes.push({ name: mode, profile: name, mesh: mode, repetitions: reps });
    }
  }
  const anyInvalid = modes.some((m) => m.repetitions.some((r) => !r.valid));
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    verdict: anyInvalid ? 'invalid' : 'pass',
    verdictReasons: [],
    run: {
      id: `${startedAt.slice(0, 10).replace(/-/g, '')}-fixture`,
      suite: input.suite,
      startedAt,
      finishedAt: startedAt,
      platform: input.platform ?? 'kind',
      git: {},
      tools: { k6: '1.8.1' },
      machine: { cpuModel: 'fixture', cores: 4, memoryMiB: 16000, os: 'linux', runnerClass: 'linux-x64-4c' },
      environment: {},
    },
    config: {
      suite: input.suite,
      ...(input.preset ? { preset: input.preset } : {}),
      platform: input.platform ?? 'kind',
      modes: modeNames.map((name) => ({ name })),
      profiles: input.profiles,
      kubernetes: { replicas: 1, ...input.kubernetes },
    },
    plan: { seed: 1, order: 'interleaved', trials: [] },
    baseline: input.baseline ?? modeNames[0]!,
    modes,
  };
}

// ---- Source benchmark 003: the CSV example in the ambient script's README (no Linkerd column). ----
export function sourceAmbientRun(): RunResult {
  const one = (p50: number, p90: number, p99: number, max: number) => [rep({ requests: 2000, latencyMs: { p50, p90, p99, max } })];
  return run({
    suite: 'ambient-modes',
    preset: 'ambient-modes',
    startedAt: '2022-07-11T07:35:26.000Z',
    profiles: [{ name: '200rps', model: 'open', rate: 200, duration: '10s', warmup: '5s', repetitions: 1 }],
    kubernetes: { servicePortName: 'tcp-enforcment' },
    modes: {
      baseline: { '200rps': one(0.999807, 1.20627, 5.14918, 31.6416) },
      'istio-sidecar': { '200rps': one(1.20141, 1.52237, 5.61587, 18.8078) },
      'istio-ambient': { '200rps': one(1.35635, 2.02035, 6.44147, 16.1807) },
      'istio-waypoint': { '200rps': one(1.63411, 2.86694, 21.0422, 77.7257) },
    },
  });
}

// ---- Source benchmark 004: the first two scenarios (20 and 50 rps to a single pod). ----
export function sourceUdsRun(): RunResult {
  const resources = (gw: number[], app: number[], cp: number[]) => [
    usage('gateway', 'istio-tenant-gateway', [gw[0]!, gw[1]!, gw[2]!], [gw[3]!, gw[4]!, gw[5]!]),
    usage('app', 'nginx', [app[0]!, app[1]!, app[2]!], [app[3]!, app[4]!, app[5]!]),
    usage('control-plane', 'istio-system', [cp[0]!, cp[1]!, cp[2]!], [cp[3]!, cp[4]!, cp[5]!]),
  ];
  return run({
    suite: 'uds-scale',
    preset: 'uds-scale',
    // The preset's profiles: each scenario carries its pod count (load[].replicas).
    profiles: [
      { name: '1pod-20rps', model: 'open', rate: 20, duration: '5m', repetitions: 1, replicas: 1 },
      { name: '1pod-50rps', model: 'open', rate: 50, duration: '5m', repetitions: 1, replicas: 1 },
      { name: '10pods-20rps', model: 'open', rate: 20, duration: '5m', repetitions: 1, replicas: 10 },
    ],
    modes: {
      'istio-sidecar': {
        '1pod-20rps': [
          rep({
            durationS: 300,
            requests: 6000,
            bytesReceived: 3690000,
            latencyMs: { min: 0.588001, mean: 1.0361, p50: 0.996513, p90: 1.3254, p95: 1.4702, p99: 1.8218, max: 21.0003 },
            // Unrounded averages whose rounded sum gives the source benchmark's TOTAL (the source benchmark summed raw samples).
            resources: resources([1, 8, 7.137, 47, 50, 48.38], [1, 9, 8.2065, 55, 55, 55], [1, 3, 1.19, 80, 90, 84.41]),
          }),
        ],
        '1pod-50rps': [
          rep({
            durationS: 300,
            requests: 15000,
            bytesReceived: 9225000,
            latencyMs: { min: 0.509695, mean: 0.879616, p50: 0.838414, p90: 1.1209, p95: 1.3151, p99: 1.737, max: 23.104 },
            resources: resources([1, 15, 13.434, 47, 48, 47.934], [1, 18, 15.7945, 55, 56, 55.244], [1, 3, 1.224, 80, 84, 81.984]),
          }),
        ],
        '10pods-20rps': [
          rep({
            durationS: 300,
            requests: 6000,
            bytesReceived: 3690000,
            latencyMs: { min: 0.642163, mean: 1.19, p50: 1.135, p90: 1.49, p95: 1.609, p99: 2.081, max: 25.016 },
            resources: resources([1, 9, 7.52, 48, 53, 51.69], [1, 193, 29.57, 55, 534, 503.74], [1, 32, 2.52, 84, 90, 89.28]),
          }),
        ],
      },
    },
  });
}

// ---- Source benchmark 000: Kyma's two runs (2025-07-08 and 2025-07-09). ----
export function sourceKymaRuns(): RunResult[] {
  const kyma = (date: string, sidecar: [number, number], noSidecar: [number, number]) => {
    // Kyma's second table is k6's iteration duration; request durations are not published.
    const reps = (requests: number, received: number, sent: number, [p50, p95]: [number, number]) =>
      [1, 2].map((block) =>
        rep({
          block,
          durationS: 60,
          targetRps: null,
          requests,
          bytesReceived: received,
          bytesSent: sent,
          latencyMs: { p50: p50 * 0.9, p95: p95 * 0.9 },
          iterationMs: { p50, p95 },
        }),
      );
    return run({
      suite: 'kyma-sidecar',
      preset: 'kyma-sidecar',
      startedAt: `${date}T03:00:00.000Z`,
      profiles: [{ name: 'post', model: 'closed', vus: 500, duration: '1m', repetitions: 2 }],
      modes: {
        'no-sidecar': { post: reps(402166, 553.67e6, 31.26e6, noSidecar) },
        sidecar: { post: reps(312444, 291.78e6, 24.35e6, sidecar) },
      },
    });
  };
  return [kyma('2025-07-08', [84.66, 172.01], [67.83, 139.31]), kyma('2025-07-09', [89.22, 181.55], [66.37, 143.61])];
}

// ---- Realistic runs for the golden files. ----
const SCALE: Record<string, number> = {
  baseline: 1,
  'istio-sidecar': 1.45,
  linkerd: 1.3,
  'istio-ambient': 1.2,
  'istio-waypoint': 1.75,
  'no-sidecar': 1,
  sidecar: 1.3,
};

function noisyLatency(random: () => number, p50: number): RepInput['latencyMs'] {
  const n = (spread: number) => 1 + (random() - 0.5) * spread;
  const base = p50 * n(0.06);
  return {
    min: base * 0.42,
    mean: base * 1.12 * n(0.04),
    p50: base,
    p75: base * 1.14 * n(0.04),
    p90: base * 1.32 * n(0.08),
    p95: base * 1.55 * n(0.1),
    p99: base * 3.1 * n(0.5),
    p999: base * 6.5 * n(0.6),
    max: base * 14 * n(0.8),
  };
}

interface RealisticInput {
  suite: string;
  preset: string;
  modes: string[];
  profiles: Record<string, unknown>[];
  repetitions: number;
  durationS: number;
  p50: number;
  /** (mode, profile, block) made invalid by dropped iterations. */
  invalid?: { mode: string; profile: string; block: number };
  resources?: (mode: string, rps: number, random: () => number) => ResourceUsage[];
  kubernetes?: Record<string, unknown>;
  failures?: { mode: string; profile: string; block: number; status: string; count: number };
  bytesPerRequest?: [number, number];
  /** Record k6's iteration duration too (derived from the request latency, no extra randomness). */
  iterations?: boolean;
  seed: number;
}

export function realisticRun(input: RealisticInput): RunResult {
  const random = seededRandom(input.seed);
  const modes: Record<string, Record<string, Repetition[]>> = Object.fromEntries(input.modes.map((m) => [m, {}]));
  let trial = 0;
  for (const profile of input.profiles) {
    const name = String(profile.name);
    const rate = typeof profile.rate === 'number' ? profile.rate : undefined;
    for (let block = 1; block <= input.repetitions; block++) {
      for (const mode of input.modes) {
        const invalid = input.invalid && input.invalid.mode === mode && input.invalid.profile === name && input.invalid.block === block;
        const fail =
          input.failures && input.failures.mode === mode && input.failures.profile === name && input.failures.block === block
            ? input.failures
            : undefined;
        const target = rate ?? 6000;
        const achieved = invalid ? target * 0.93 : target * (0.999 + random() * 0.001);
        const requests = Math.round(achieved * input.durationS);
        const failures = fail?.count ?? 0;
        const [sent, received] = input.bytesPerRequest ?? [110, 640];
        const latencyMs = noisyLatency(random, input.p50 * (SCALE[mode] ?? 1.1) * (1 + input.profiles.indexOf(profile) * 0.2));
        const r = rep({
          trial: trial++,
          block,
          durationS: input.durationS,
          targetRps: rate ?? null,
          requests,
          failures,
          statusCounts: fail ? { '200': requests - failures, [fail.status]: failures } : { '200': requests },
          bytesSent: requests * sent,
          bytesReceived: requests * received,
          latencyMs,
          ...(input.iterations
            ? {
                iterationMs: {
                  ...Object.fromEntries(Object.entries(latencyMs).map(([k, v]) => [k, v! * 1.01 + 0.2])),
                  p50: latencyMs.p50 * 1.01 + 0.2,
                },
              }
            : {}),
          ...(input.resources ? { resources: input.resources(mode, achieved, random) } : {}),
          ...(invalid
            ? {
                invalidReasons: [
                  `${Math.round(target * input.durationS * 0.07)} dropped iterations; achieved ${achieved.toFixed(1)} rps is under 99% of ${target} rps`,
                ],
              }
            : {}),
        });
        (modes[mode]![name] ??= []).push(r);
      }
    }
  }
  return run({
    suite: input.suite,
    preset: input.preset,
    profiles: input.profiles,
    modes,
    ...(input.kubernetes ? { kubernetes: input.kubernetes } : {}),
  });
}

/** Resource usage the Kubernetes sampler reports, by container role, for one mode. */
export function meshResources(mode: string, rps: number, random: () => number): ResourceUsage[] {
  const around = (avg: number, spreadMin: number, spreadMax: number): [number, number, number] => {
    const a = avg * (0.9 + random() * 0.2);
    return [a * spreadMin, a * spreadMax, a];
  };
  const scaled = (perRps: number) => (perRps * rps) / 1000;
  const out = [
    usage('gateway', 'istio-tenant-gateway', around(scaled(60), 0.2, 1.4), around(50, 0.96, 1.04)),
    usage('app', mode, around(scaled(120), 0.3, 1.3), around(55, 0.98, 1.02)),
    usage('client', mode, around(scaled(300), 0.5, 1.2), around(90, 0.9, 1.1)),
  ];
  if (mode === 'istio-sidecar' || mode === 'sidecar')
    out.push(usage('sidecar', mode, around(scaled(200), 0.3, 1.3), around(60, 0.97, 1.03)));
  if (mode === 'linkerd') out.push(usage('sidecar', mode, around(scaled(140), 0.3, 1.3), around(24, 0.97, 1.03)));
  if (mode === 'istio-ambient' || mode === 'istio-waypoint')
    out.push(usage('ztunnel', 'istio-system', around(scaled(60), 0.3, 1.3), around(12, 0.97, 1.03)));
  if (mode === 'istio-waypoint') out.push(usage('waypoint', mode, around(scaled(250), 0.3, 1.3), around(60, 0.97, 1.03)));
  if (mode !== 'baseline' && mode !== 'no-sidecar')
    out.push(usage('control-plane', mode === 'linkerd' ? 'linkerd' : 'istio-system', around(4, 0.25, 3), around(85, 0.95, 1.1)));
  return out;
}
