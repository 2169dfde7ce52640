// One row per preset: it validates and plans, and its trial count and load settings are the ones
// its source benchmark document describes (../shared/seeds). The expected values are written out here from
// the source benchmarks, not computed from the presets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PRESETS, findPreset } from '../../src/presets/index.ts';
import { presetSummary, presetHeader, formatEstimate, formatPresetSummary } from '../../src/cli/preset-summary.ts';
import { validateConfig } from '../../src/config/validate.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { SOURCE_FORMATS } from '../../src/presets/format-names.ts';

interface Expected {
  source: string;
  modes: { name: string; mesh: string }[];
  profiles: {
    name: string;
    model: 'open' | 'closed';
    rate?: number;
    vus?: number;
    durationMs: number;
    repetitions: number;
    protocol?: string;
    method?: string;
    replicas?: number;
  }[];
  trials: number;
  replicas?: number;
  thresholds?: string[];
  ingress?: { replicas: number; tls: boolean };
}

const ambientModes = [
  { name: 'baseline', mesh: 'baseline' },
  { name: 'istio-sidecar', mesh: 'istio-sidecar' },
  { name: 'linkerd', mesh: 'linkerd' },
  { name: 'istio-ambient', mesh: 'istio-ambient' },
  { name: 'istio-waypoint', mesh: 'istio-waypoint' },
];
// 004: 20 and 50 rps for 5 minutes to 1, 10, 50 and 90 pods, in the source benchmark's order.
const udsScenario = (pods: number, rate: number) => ({
  name: `${pods}pod${pods === 1 ? '' : 's'}-${rate}rps`,
  model: 'open' as const,
  rate,
  durationMs: 300_000,
  repetitions: 1,
  replicas: pods,
});

const TABLE: Record<string, Expected> = {
  // 000: 500 VUs for 1 minute, GET and POST, with and without sidecar, tables average 2 runs.
  'kyma-sidecar': {
    source: '000',
    modes: [
      { name: 'no-sidecar', mesh: 'baseline' },
      { name: 'sidecar', mesh: 'istio-sidecar' },
    ],
    profiles: [
      { name: 'get', model: 'closed', vus: 500, durationMs: 60_000, repetitions: 2, method: 'GET' },
      { name: 'post', model: 'closed', vus: 500, durationMs: 60_000, repetitions: 2, method: 'POST' },
    ],
    trials: 2 * 2 * 2,
    thresholds: ['error_rate < 1%', 'p(95) < 250ms'],
    // Istio's ingress gateway at exactly 10 replicas, over HTTPS.
    ingress: { replicas: 10, tls: true },
  },
  // 001: 100 qps for 10 s, HTTP then gRPC, 10 runs, baseline / Linkerd2 / Istio, 2 echo servers.
  'istio-linkerd-fortio': {
    source: '001',
    modes: [
      { name: 'baseline', mesh: 'baseline' },
      { name: 'linkerd', mesh: 'linkerd' },
      { name: 'istio-sidecar', mesh: 'istio-sidecar' },
    ],
    profiles: [
      { name: 'http', model: 'open', rate: 100, durationMs: 10_000, repetitions: 10, protocol: 'http' },
      { name: 'grpc', model: 'open', rate: 100, durationMs: 10_000, repetitions: 10, protocol: 'grpc' },
    ],
    trials: 3 * 2 * 10,
    replicas: 2,
  },
  // 002: 1000 rps (and the graphed 400 qps scenario), both services meshed, 1 KB payload.
  'istio-synthetic': {
    source: '002',
    modes: [
      { name: 'baseline', mesh: 'baseline' },
      { name: 'istio-sidecar', mesh: 'istio-sidecar' },
    ],
    profiles: [{ name: '1000rps', model: 'open', rate: 1000, durationMs: 120_000, repetitions: 3, method: 'POST' }],
    trials: 2 * 3,
  },
  'istio-synthetic-400': {
    source: '002',
    modes: [
      { name: 'baseline', mesh: 'baseline' },
      { name: 'istio-sidecar', mesh: 'istio-sidecar' },
    ],
    profiles: [{ name: '400rps', model: 'open', rate: 400, durationMs: 120_000, repetitions: 3, method: 'POST' }],
    trials: 2 * 3,
  },
  // 003: five modes, one run each, 200 rps × 10 s (README) and 400 rps × 60 s (script default).
  'ambient-modes': {
    source: '003',
    modes: ambientModes,
    profiles: [{ name: '200rps', model: 'open', rate: 200, durationMs: 10_000, repetitions: 1 }],
    trials: 5,
  },
  'ambient-modes-400': {
    source: '003',
    modes: ambientModes,
    profiles: [{ name: '400rps', model: 'open', rate: 400, durationMs: 60_000, repetitions: 1 }],
    trials: 5,
  },
  // 003 long enough for CPU per 1000 rps (60 s: two kubelet refreshes of up to 30 s).
  'ambient-modes-cpu': {
    source: '003',
    modes: ambientModes,
    profiles: [{ name: '200rps', model: 'open', rate: 200, durationMs: 60_000, repetitions: 1 }],
    trials: 5,
  },
  // 003's default port naming (opaque TCP) as its own variant.
  'ambient-modes-tcp': {
    source: '003',
    modes: ambientModes,
    profiles: [{ name: '200rps', model: 'open', rate: 200, durationMs: 10_000, repetitions: 1 }],
    trials: 5,
  },
  // 004: eight scenarios in one job, through the tenant (ingress) gateway.
  'uds-scale': {
    source: '004',
    modes: [{ name: 'istio-sidecar', mesh: 'istio-sidecar' }],
    profiles: [1, 10, 50, 90].flatMap((pods) => [udsScenario(pods, 20), udsScenario(pods, 50)]),
    trials: 8,
    replicas: 1,
    ingress: { replicas: 1, tls: true },
  },
};

test('every preset is in the table and every table row is a preset', () => {
  assert.deepEqual(PRESETS.map((p) => p.name).sort(), Object.keys(TABLE).sort());
});

for (const [name, expected] of Object.entries(TABLE)) {
  test(`preset ${name} matches source benchmark ${expected.source}`, () => {
    const preset = findPreset(name);
    assert.ok(preset, `preset ${name} exists`);
    assert.equal(preset.source, expected.source);
    const config = validateConfig(preset.config, `preset ${name}`);
    assert.deepEqual(
      config.modes.map((m) => ({ name: m.name, mesh: m.mesh })),
      expected.modes,
    );
    assert.equal(config.baseline, expected.modes[0]!.name);
    assert.equal(config.profiles.length, expected.profiles.length);
    expected.profiles.forEach((want, i) => {
      const got = config.profiles[i]!;
      assert.equal(got.name, want.name);
      assert.equal(got.model, want.model);
      assert.equal(got.rate, want.rate);
      assert.equal(got.vus, want.vus);
      assert.equal(got.durationMs, want.durationMs);
      assert.equal(got.repetitions, want.repetitions);
      if (want.protocol) assert.equal(got.protocol, want.protocol);
      if (want.method) assert.equal(got.method, want.method);
      assert.equal(got.replicas, want.replicas);
    });
    assert.deepEqual(config.kubernetes.ingress, expected.ingress);
    if (expected.replicas !== undefined) assert.equal(config.kubernetes.replicas, expected.replicas);
    assert.equal(config.kubernetes.serviceProtocol, name === 'ambient-modes-tcp' ? 'tcp' : 'http');
    if (expected.thresholds) assert.deepEqual(config.gates.thresholds, expected.thresholds);
    const plan = buildPlan(config, 42);
    assert.equal(plan.trials.length, expected.trials);
    // Interleaving: each block holds one repetition of every mode.
    const perBlock = new Map<string, number>();
    for (const t of plan.trials) perBlock.set(`${t.profile.name}/${t.block}`, (perBlock.get(`${t.profile.name}/${t.block}`) ?? 0) + 1);
    for (const count of perBlock.values()) assert.equal(count, expected.modes.length);
    const summary = presetSummary(preset);
    assert.equal(summary.trials, expected.trials);
    const perTrial = expected.profiles.map((p) => (p.durationMs + config.profiles.find((c) => c.name === p.name)!.warmupMs) / 1000);
    const estimate = perTrial.reduce((sum, s, i) => sum + s * expected.modes.length * expected.profiles[i]!.repetitions, 0);
    assert.equal(summary.estimateSeconds, estimate);
    // Every mode also says how the local platform approximates it.
    for (const mode of config.modes) assert.ok(mode.local, `mode ${mode.name} has a local approximation`);
    for (const format of preset.formats) assert.equal(SOURCE_FORMATS[format].source, expected.source);
  });
}

test('variants name the preset they vary and share its source benchmark', () => {
  for (const preset of PRESETS.filter((p) => p.variantOf)) {
    const base = findPreset(preset.variantOf!);
    assert.ok(base, `${preset.name} varies ${preset.variantOf}`);
    assert.equal(base.source, preset.source);
    assert.ok(preset.name.startsWith(`${base.name}-`), `${preset.name} is named <preset>-<variant>`);
  }
});

test('uds-scale runs the source benchmark’s eight scenarios in one job, scaling three times on the way up', () => {
  const summary = presetSummary(findPreset('uds-scale')!);
  assert.deepEqual(
    summary.profiles.map((p) => `${p.load}×${p.replicas}`),
    ['20 rps×1', '50 rps×1', '20 rps×10', '50 rps×10', '20 rps×50', '50 rps×50', '20 rps×90', '50 rps×90'],
  );
  assert.equal(summary.scalingSteps, 3);
  // 20 s per step, plus 0.5 s per pod started: 9, 40 and 40 pods.
  assert.equal(summary.scalingSeconds, 3 * 20 + 0.5 * (9 + 40 + 40));
  const header = formatPresetSummary(summary);
  assert.match(header, /ingress: Istio gateway \(Gateway API, gatewayClassName istio\), 1 pod, HTTPS/);
  assert.match(header, /90pods-50rps: 90 echo pods, open model, 50 rps/);
  assert.match(header, /plus 3 scaling steps between profiles, ~1m 45s \(estimated\): ~42m 25s in all/);
});

test('a user field overrides the preset (preset < file)', async () => {
  const { mergeRaw } = await import('../../src/config/merge.ts');
  const merged = mergeRaw(findPreset('ambient-modes')!.config, { platform: 'local', load: { rate: 50, duration: '2s', repetitions: 2 } });
  const config = validateConfig(merged);
  assert.equal(config.platform, 'local');
  assert.equal(config.profiles[0]!.rate, 50);
  assert.equal(config.modes.length, 5);
});

test('plan header names the preset, its trials and estimate; unknown names give undefined', () => {
  const header = presetHeader('ambient-modes-400', PRESETS)!;
  assert.match(header, /^preset ambient-modes-400 \(source benchmark 003\)/);
  assert.match(header, /5 trials \(5 modes × 1 profile × repetitions\), ~5m 25s of load/);
  assert.match(header, /400rps: open model, 400 rps, http GET, 1m measured after 5s warm-up, 1 repetition per mode/);
  assert.equal(presetHeader('ambient-mode', PRESETS), undefined);
});

test('formatEstimate', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [45, '45s'],
    [60, '1m'],
    [520, '8m 40s'],
    [3600, '1h'],
    [3720, '1h 2m'],
  ];
  for (const [seconds, text] of cases) assert.equal(formatEstimate(seconds), text);
});
