// The config of a confirmation run: the change point's later run's stored config, reduced to the
// series' mode and load profile, and that mode written once per group of settings under test as a
// mode with arms: base with the earlier run's values of every setting that differs, head with the
// later run's values of the group's settings (the earlier run's for the rest). Everything else is
// the later run's. A group whose arms would come out alike (the A/A of today's settings) gets an
// environment variable no script reads on each side, as bench/ab-local's A/A does. Only the A/B
// gate judges (regression, thresholds and the change-point gate off). Works on the stored config
// (results.json's `config`: validated and normalized) and returns a raw config that the one
// validation reads again. Pure.
import { requestsFor } from '../config/ab-checks.ts';
import { parseDurationMs } from '../config/duration.ts';
import { storedMeshOf } from '../config/fingerprint.ts';
import { REPETITION_DEFAULTS } from '../config/schema.ts';
import type { RunResult } from '../results/types.ts';
import type { ArmSettings, SeriesRef } from './settings.ts';
import { profileOf } from './settings.ts';

type Raw = Record<string, unknown>;
const record = (value: unknown): Raw => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {});

/** One mode with arms of a confirmation run: the settings its head takes from the later run. */
export interface ArmGroup {
  /** Paths of the settings the head arm takes from the later run (settings.ts SettingChange.path); empty for an A/A. */
  settings: string[];
  base: ArmSettings;
  head: ArmSettings;
}

export interface ConfirmRunOptions {
  /** Repetition length of the A/B (default: the A/B gate's, 6 s after 2 s of warm-up). */
  duration?: string;
  warmup?: string;
  /** Load time each confirmation run may spend (plan.budget.maxDuration). */
  maxDuration: string;
  /** Where server manifests of a given content are on this machine (a copy of the earlier run's file). */
  serverPath?: (manifests: { path: string; sha256?: string }) => string;
  /** Extra modes to measure beside the groups, as the later run ran them (a ratio series' baseline). */
  alongside?: string[];
  seed?: number;
}

/** Environment variable that tells two otherwise identical arms apart (no script reads it). */
export const AA_MARKER = 'MESH_PERF_CONFIRM_ARM';

/** Derived fields of a stored load profile (config/validate.ts normalize): the validation makes them again. */
const DERIVED_PROFILE = ['durationMs', 'warmupMs', 'timeoutMs', 'expectedLatencyMs', 'pauseMs', 'untilDecided', 'repetitions'];
/** Mode names hold at most 40 characters with their arm's "-base" / "-head". */
const MAX_GROUP_NAME = 35;

/** The mode name of group `index` of `count` (the series' own mode name for a single group). */
export function groupModeName(mode: string, index: number, count: number): string {
  if (count === 1) return mode.slice(0, MAX_GROUP_NAME).replace(/-+$/, '');
  const suffix = `-g${index + 1}`;
  return `${mode.slice(0, MAX_GROUP_NAME - suffix.length).replace(/-+$/, '')}${suffix}`;
}

export function confirmationConfig(after: RunResult, series: SeriesRef, groups: readonly ArmGroup[], options: ConfirmRunOptions): Raw {
  const stored = after.config;
  const platform = stored.platform;
  const cluster = platform === 'kind' || platform === 'kubeconfig';
  const written = (Array.isArray(stored.modes) ? stored.modes.map(record) : []).find((m) => m.name === series.mode) ?? {};
  const mesh = cluster ? storedMeshOf(written) : typeof written.mesh === 'string' ? written.mesh : undefined;
  const serverPath = options.serverPath ?? ((m: { path: string }) => m.path);
  const registry = record(record(record(stored.kubernetes).images)).registry;
  const asWritten = (image: string) => unmirrored(image, typeof registry === 'string' ? registry : undefined);
  const modes: Raw[] = groups.map((group, i) =>
    modeWithArms(groupModeName(series.mode, i, groups.length), mesh, group, serverPath, asWritten),
  );
  const alongside: string[] = [];
  for (const name of options.alongside ?? []) {
    const mode = (Array.isArray(stored.modes) ? stored.modes.map(record) : []).find((m) => m.name === name);
    if (mode) {
      modes.push(plainMode(mode));
      alongside.push(name);
    }
  }
  const raw: Raw = {
    platform,
    suite: after.run.suite,
    modes,
    // A ratio series' level is against its baseline, measured beside the arms; otherwise the first arm's base.
    baseline: alongside[0] ?? String(modes[0]!.name),
    load: loadOf(after, series.profile, series.metric, options),
    gates: gatesOf(stored, series.metric),
    plan: {
      order: 'interleaved',
      budget: { maxDuration: options.maxDuration },
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    },
  };
  if (cluster) raw.kubernetes = kubernetesOf(record(stored.kubernetes));
  return raw;
}

function modeWithArms(
  name: string,
  mesh: string | undefined,
  group: ArmGroup,
  serverPath: (m: { path: string; sha256?: string }) => string,
  asWritten: (image: string) => string,
): Raw {
  const mode: Raw = { name, ...(mesh ? { mesh } : {}) };
  const base: Raw = {};
  const head: Raw = {};
  // Maps: what both arms have alike is the mode's; each arm adds its own keys (an arm cannot remove one).
  for (const key of ['env', 'namespaceLabels', 'namespaceAnnotations'] as const) {
    const b = group.base[key];
    const h = group.head[key];
    if (b === undefined && h === undefined) continue;
    const common = Object.fromEntries(Object.entries(b ?? {}).filter(([k, v]) => h?.[k] === v));
    if (Object.keys(common).length > 0) mode[key] = common;
    const own = (m: Record<string, string> | undefined) => Object.fromEntries(Object.entries(m ?? {}).filter(([k]) => !(k in common)));
    if (Object.keys(own(b)).length > 0) base[key] = own(b);
    if (Object.keys(own(h)).length > 0) head[key] = own(h);
  }
  if (group.base.local || group.head.local) {
    const b = group.base.local!;
    const h = group.head.local!;
    const local: Raw = { hops: b.hops === h.hops ? b.hops : 0 };
    if (b.delay === h.delay) local.delay = b.delay;
    if (b.jitter === h.jitter) local.jitter = b.jitter;
    mode.local = local;
    for (const [arm, own] of [
      [base, b],
      [head, h],
    ] as const) {
      const override: Raw = {};
      if (b.hops !== h.hops) override.hops = own.hops;
      if (b.delay !== h.delay) override.delay = own.delay;
      if (b.jitter !== h.jitter) override.jitter = own.jitter;
      if (Object.keys(override).length > 0) arm.local = override;
    }
  }
  for (const key of ['url', 'grpc'] as const) {
    if (group.base[key] === group.head[key]) {
      if (group.base[key] !== undefined) mode[key] = group.base[key];
    } else {
      if (group.base[key] !== undefined) base[key] = group.base[key];
      if (group.head[key] !== undefined) head[key] = group.head[key];
    }
  }
  // The server: an echo image or server manifests, alike in both arms (the mode's) or each arm's own.
  const server = (s: ArmSettings): Raw =>
    s.serverManifests
      ? { serverManifests: serverPath(s.serverManifests) }
      : s.echoImage !== undefined
        ? { echoImage: asWritten(s.echoImage) }
        : {};
  const bs = server(group.base);
  const hs = server(group.head);
  if (JSON.stringify(bs) === JSON.stringify(hs)) Object.assign(mode, bs);
  else {
    Object.assign(base, bs);
    Object.assign(head, hs);
  }
  // An Istio control plane per arm only where the two differ; alike, both run under the run's.
  if (JSON.stringify(group.base.istio) !== JSON.stringify(group.head.istio)) {
    if (group.base.istio) base.istio = istioOverride(group.base.istio);
    if (group.head.istio) head.istio = istioOverride(group.head.istio);
  }
  if (groupIsAa(group)) {
    base.env = { ...record(base.env), [AA_MARKER]: 'base' };
    head.env = { ...record(head.env), [AA_MARKER]: 'head' };
  }
  mode.arms = { base, head };
  return mode;
}

const groupIsAa = (group: ArmGroup) => group.settings.length === 0;

function istioOverride(istio: NonNullable<ArmSettings['istio']>): Raw {
  return { version: istio.version, ...(istio.hub ? { hub: istio.hub } : {}), set: istio.set };
}

/** A stored mode as written for a new run (an arm's name and link dropped). */
function plainMode(mode: Raw): Raw {
  const { arm: _arm, ...rest } = mode;
  return rest;
}

/** The series' load profile as the later run ran it, measured until decided, with the A/B's repetition length unless given. */
function loadOf(after: RunResult, profile: string, metric: string, options: ConfirmRunOptions): Raw {
  const stored = profileOf(after, profile);
  const out: Raw = Object.fromEntries(Object.entries(stored).filter(([k]) => !DERIVED_PROFILE.includes(k)));
  delete out.duration;
  delete out.warmup;
  if (options.duration) out.duration = options.duration;
  if (options.warmup) out.warmup = options.warmup;
  // A p99 gate needs repetitions that hold its quantile (config/ab-checks.ts): as long as that takes at this rate.
  const rate = typeof out.rate === 'number' ? out.rate : undefined;
  if (metric === 'p99' && rate && out.model !== 'closed') {
    const seconds = Math.ceil(requestsFor('p99') / rate);
    const given = (parseDurationMs(typeof out.duration === 'string' ? out.duration : REPETITION_DEFAULTS.abDuration) ?? 0) / 1000;
    if (given < seconds) out.duration = `${seconds}s`;
  }
  out.repetitions = 'auto';
  return out;
}

/** The A/B gate on the series' statistic at the change-point gate's practical minimum; nothing else judges. */
function gatesOf(stored: Raw, metric: string): Raw {
  const gates = record(stored.gates);
  const regression = record(gates.regression);
  const ab = record(gates.ab);
  const statistic = metric === 'p99' ? 'p99' : 'p50';
  const raised = typeof regression.minEffectPct === 'number' ? regression.minEffectPct : 5;
  // A tail's own practical minimum where the config gives one (a p99 at 5 % mostly ends inconclusive).
  const own = ab.minEffectPct && typeof ab.minEffectPct === 'object' ? (ab.minEffectPct as Record<string, unknown>)[statistic] : undefined;
  return {
    thresholds: [],
    overhead: [],
    regression: { enabled: false },
    changePoint: 'off',
    ab: {
      ...ab,
      statistics: [statistic],
      minEffectPct: Math.max(raised, typeof own === 'number' ? own : 0),
    },
  };
}

/**
 * The stored kubernetes section as a new run reads it: pods per mode left to the default with arms
 * (at least 2 each) unless more were run; the images back as written, not mirrored a second time.
 */
function kubernetesOf(stored: Raw): Raw {
  const out = structuredClone(stored);
  if (typeof out.replicas === 'number' && out.replicas < 2) delete out.replicas;
  const images = record(out.images);
  const registry = typeof images.registry === 'string' ? images.registry : undefined;
  for (const key of ['echo', 'client']) if (typeof images[key] === 'string') images[key] = unmirrored(images[key] as string, registry);
  return out;
}

/** An image as written before the registry mirror was applied to it (config/image-mirror.ts), so that validation applies it once. */
function unmirrored(image: string, registry: string | undefined): string {
  const prefix = registry ? `${registry.replace(/\/+$/, '')}/` : undefined;
  return prefix && image.startsWith(prefix) ? image.slice(prefix.length) : image;
}
