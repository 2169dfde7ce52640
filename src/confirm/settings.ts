// What differs between the two runs of a change point, sorted by what a confirmation can do with
// it: the settings of the series' mode that two A/B arms of one run can carry (env, local hops /
// delay / jitter, url, grpc, namespace labels and annotations, the echo image, server manifests, an
// Istio revision on sidecar and waypoint modes), what cannot be an arm here (with a code saying
// why), and facts of the machine that say where the runs ran, not what they ran. Read from the two
// runs' stored results (their config and run.provenance). Pure.
import { ENROLMENT_KEYS } from '../config/arms.ts';
import { storedMeshOf } from '../config/fingerprint.ts';
import { diffFacts, type FactChange, provenanceMissing, runFacts } from '../results/facts.ts';
import type { RunResult } from '../results/types.ts';

type Raw = Record<string, unknown>;
const record = (value: unknown): Raw => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {});
const strings = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(record(value)).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** The settings of a mode that an A/B arm can hold, as the mode ran them (inherited run-wide values made explicit). */
export interface ArmSettings {
  env: Record<string, string>;
  /** local platform: the server chain. */
  local?: { hops: number; delay: string; jitter: string };
  /** endpoints platform. */
  url?: string;
  grpc?: string;
  /** kind, kubeconfig. */
  namespaceLabels?: Record<string, string>;
  namespaceAnnotations?: Record<string, string>;
  echoImage?: string;
  serverManifests?: { path: string; sha256?: string };
  /** An istio-sidecar or istio-waypoint mode's control plane. */
  istio?: { version: string; hub?: string; set: Record<string, string> };
}

/** One setting of the mode that differs, by its dotted path (env.X, local.delay, namespaceAnnotations.key, echoImage, istio). */
export interface SettingChange {
  path: string;
  before: string;
  after: string;
}

/** Why a difference cannot be one of two arms of a run on this platform. */
export type FixedReason =
  | 'platform'
  | 'tool'
  | 'k6'
  | 'node-runtime'
  | 'cluster'
  | 'mesh-version'
  | 'one-ztunnel'
  | 'linkerd-control-plane'
  | 'control-plane-image'
  | 'pod-image'
  | 'script'
  | 'load-profile'
  | 'resources'
  | 'mode-setting'
  | 'enrolment-key'
  | 'baseline-mode'
  | 'redacted'
  | 'manifests-unavailable';

export interface FixedChange extends FactChange {
  why: FixedReason;
}

export interface SettingsDiff {
  /** The series' mode: its name, its mesh, the platform. */
  mode: string;
  mesh?: string;
  platform: string;
  /** The mode's arm-able settings in each run. */
  before: ArmSettings;
  after: ArmSettings;
  /** Settings an arm can carry that differ. */
  carried: SettingChange[];
  /** Differences that cannot be arms here, each with why. */
  fixed: FixedChange[];
  /** Facts of where the runs ran that differ (runner class and image, CPU, kernel, commit): not settings. */
  environment: FactChange[];
  /** Facts one of the runs could not record (written before results v7). */
  unknown: number;
}

const REDACTED = '[redacted]';
const LOCAL_DEFAULTS = { hops: 0, delay: '0ms', jitter: '0ms' };

/** A mode's arm-able settings as it ran in a run of `config` (its stored config), with `files` the content hashes run.provenance recorded. */
export function armSettingsOf(config: Raw, modeName: string, files: Record<string, string> = {}): ArmSettings | undefined {
  const mode = (Array.isArray(config.modes) ? config.modes.map(record) : []).find((m) => m.name === modeName);
  if (!mode) return undefined;
  const out: ArmSettings = { env: strings(mode.env) };
  const platform = config.platform;
  if (platform === 'local') {
    const local = record(mode.local);
    out.local = {
      hops: typeof local.hops === 'number' ? local.hops : LOCAL_DEFAULTS.hops,
      delay: typeof local.delay === 'string' ? local.delay : LOCAL_DEFAULTS.delay,
      jitter: typeof local.jitter === 'string' ? local.jitter : LOCAL_DEFAULTS.jitter,
    };
  } else if (platform === 'endpoints') {
    if (typeof mode.url === 'string') out.url = mode.url;
    if (typeof mode.grpc === 'string') out.grpc = mode.grpc;
  } else {
    const kubernetes = record(config.kubernetes);
    out.namespaceLabels = strings(mode.namespaceLabels);
    out.namespaceAnnotations = strings(mode.namespaceAnnotations);
    const server = typeof mode.serverManifests === 'string' ? mode.serverManifests : record(kubernetes.manifests).server;
    if (typeof server === 'string') out.serverManifests = { path: server, ...(files[server] ? { sha256: files[server] } : {}) };
    else if (typeof (mode.echoImage ?? record(kubernetes.images).echo) === 'string')
      out.echoImage = (mode.echoImage ?? record(kubernetes.images).echo) as string;
    const mesh = storedMeshOf(mode);
    if (mesh === 'istio-sidecar' || mesh === 'istio-waypoint') {
      const run = record(kubernetes.istio);
      const own = record(mode.istio);
      const hub = own.hub ?? run.hub;
      out.istio = {
        version: String(own.version ?? run.version),
        ...(typeof hub === 'string' ? { hub } : {}),
        set: strings(own.set ?? run.set),
      };
    }
  }
  return out;
}

/** Each setting as a dotted path and its value as text ("none" where unset). */
export function settingPaths(settings: ArmSettings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings.env)) out[`env.${k}`] = v;
  if (settings.local) for (const [k, v] of Object.entries(settings.local)) out[`local.${k}`] = String(v);
  if (settings.url !== undefined) out.url = settings.url;
  if (settings.grpc !== undefined) out.grpc = settings.grpc;
  for (const [k, v] of Object.entries(settings.namespaceLabels ?? {})) out[`namespaceLabels.${k}`] = v;
  for (const [k, v] of Object.entries(settings.namespaceAnnotations ?? {})) out[`namespaceAnnotations.${k}`] = v;
  if (settings.echoImage !== undefined) out.echoImage = settings.echoImage;
  if (settings.serverManifests)
    out.serverManifests = `${settings.serverManifests.path}${settings.serverManifests.sha256 ? ` (sha256 ${settings.serverManifests.sha256.slice(0, 12)})` : ''}`;
  if (settings.istio) out.istio = JSON.stringify(settings.istio);
  return out;
}

/** `base` with the settings at `paths` taken from `from` (a path `from` lacks is removed): the head arm of a group. */
export function withSettings(base: ArmSettings, from: ArmSettings, paths: readonly string[]): ArmSettings {
  const out: ArmSettings = structuredClone(base);
  for (const path of paths) {
    const dot = path.indexOf('.');
    const root = (dot < 0 ? path : path.slice(0, dot)) as keyof ArmSettings;
    const key = dot < 0 ? undefined : path.slice(dot + 1);
    if (root === 'env' || root === 'namespaceLabels' || root === 'namespaceAnnotations') {
      const map = { ...(out[root] ?? {}) };
      const value = from[root]?.[key!];
      if (value === undefined) delete map[key!];
      else map[key!] = value;
      out[root] = map;
    } else if (root === 'local') {
      out.local = { ...(out.local ?? LOCAL_DEFAULTS), [key!]: (from.local ?? LOCAL_DEFAULTS)[key as keyof typeof LOCAL_DEFAULTS] };
    } else if (root === 'echoImage' || root === 'serverManifests') {
      // One of the two names an arm's server: taking either takes both.
      delete out.echoImage;
      delete out.serverManifests;
      if (from.echoImage !== undefined) out.echoImage = from.echoImage;
      if (from.serverManifests) out.serverManifests = { ...from.serverManifests };
    } else if (from[root] === undefined) delete out[root];
    else (out as unknown as Raw)[root] = structuredClone(from[root]);
  }
  return out;
}

export interface SeriesRef {
  profile: string;
  mode: string;
  metric: string;
}

/**
 * The difference between a change point's runs as a confirmation sees it. `series` names the mode
 * (and the profile whose load both arms run); a ratio series also reads its baseline's settings.
 */
export function settingsDiff(before: RunResult, after: RunResult, series: SeriesRef): SettingsDiff {
  const platform = String(after.config.platform ?? after.run.platform);
  const modeConfig = (Array.isArray(after.config.modes) ? after.config.modes.map(record) : []).find((m) => m.name === series.mode) ?? {};
  const mesh = storedMeshOf(modeConfig);
  const b = armSettingsOf(before.config, series.mode, before.run.provenance?.files) ?? { env: {} };
  const a = armSettingsOf(after.config, series.mode, after.run.provenance?.files) ?? { env: {} };
  const bp = settingPaths(b);
  const ap = settingPaths(a);
  const cluster = platform === 'kind' || platform === 'kubeconfig';
  const carried: SettingChange[] = [];
  const fixed: FixedChange[] = [];
  for (const path of [...new Set([...Object.keys(bp), ...Object.keys(ap)])].sort()) {
    if (bp[path] === ap[path]) continue;
    const change = { path, before: bp[path] ?? 'none', after: ap[path] ?? 'none' };
    const key = path.slice(path.indexOf('.') + 1);
    if (change.before.includes(REDACTED) || change.after.includes(REDACTED)) fixed.push({ key: path, ...change, why: 'redacted' });
    else if (cluster && mesh === 'istio-ambient') fixed.push({ key: path, ...change, why: 'one-ztunnel' });
    else if ((path.startsWith('namespaceLabels.') || path.startsWith('namespaceAnnotations.')) && key in ENROLMENT_KEYS)
      fixed.push({ key: path, ...change, why: 'enrolment-key' });
    else carried.push(change);
  }
  const context = { series, platform, mesh, carried: new Set(carried.map((c) => c.path.split('.')[0]!)), before, after };
  const { changes, unknown } = diffFacts(runFacts(before), runFacts(after), {
    before: provenanceMissing(before),
    after: provenanceMissing(after),
  });
  const environment: FactChange[] = [];
  for (const change of changes) {
    const kind = classify(change.key, context);
    if (kind === 'environment') environment.push(change);
    else if (kind !== 'ignore' && kind !== 'explained') fixed.push({ ...change, why: kind });
  }
  return { mode: series.mode, ...(mesh ? { mesh } : {}), platform, before: b, after: a, carried, fixed, environment, unknown };
}

interface Context {
  series: SeriesRef;
  platform: string;
  mesh: string | undefined;
  /** Setting families (env, local, echoImage, istio, …) carried by the arms. */
  carried: Set<string>;
  before: RunResult;
  after: RunResult;
}

/** Config leaves of a cluster that change nothing measured (how long to wait, what to call things). */
const CLUSTER_BOOKKEEPING = new Set(['readyTimeout', 'sampleInterval', 'namespacePrefix', 'kind.keep', 'kind.clusterName']);
/** The mode setting families settingsDiff compares itself. */
const ARM_FAMILIES = new Set([
  'env',
  'local',
  'url',
  'grpc',
  'namespaceLabels',
  'namespaceAnnotations',
  'echoImage',
  'serverManifests',
  'istio',
]);

/** What one differing fact means for a confirmation: a fixed change (its reason), the environment, explained by a carried setting, or nothing to do with the series' mode. */
function classify(key: string, c: Context): FixedReason | 'environment' | 'explained' | 'ignore' {
  const istioMode = c.mesh?.startsWith('istio-') ?? false;
  const serverFamily = c.carried.has('echoImage') || c.carried.has('serverManifests') || c.carried.has('istio');
  if (key === 'commit' || key.startsWith('runner.')) return 'environment';
  if (key === 'platform' || key === 'config.platform') return 'platform';
  if (key === 'tools.mesh-perf' || key.startsWith('action.')) return 'tool';
  if (key === 'tools.k6' || key.startsWith('k6.')) return 'k6';
  if (key === 'tools.node' || key === 'echoServer') return c.platform === 'local' ? 'node-runtime' : 'environment';
  if (key.startsWith('tools.')) return 'environment';
  if (key.startsWith('kind.') || key.startsWith('kubernetes.')) return 'cluster';
  if (key === 'mesh.istio')
    return !istioMode ? 'ignore' : c.carried.has('istio') ? 'explained' : c.mesh === 'istio-ambient' ? 'one-ztunnel' : 'mesh-version';
  if (key === 'mesh.linkerd') return c.mesh === 'linkerd' ? 'linkerd-control-plane' : 'ignore';
  if (key.startsWith('mesh.')) return 'ignore';
  if (key.startsWith('image@')) {
    const component = key.slice('image@'.length);
    if (istioMode && !component.startsWith('linkerd'))
      return component.startsWith('istiod') && c.carried.has('istio') ? 'explained' : 'control-plane-image';
    if (c.mesh === 'linkerd' && component.startsWith('linkerd')) return 'linkerd-control-plane';
    return 'ignore';
  }
  if (key.startsWith('image.')) {
    const mode = key.slice('image.'.length, key.indexOf('/'));
    return mode !== c.series.mode ? 'ignore' : serverFamily ? 'explained' : 'pod-image';
  }
  if (key.startsWith('settings.')) return 'ignore';
  if (key.startsWith('file.')) {
    const path = key.slice('file.'.length);
    const server = [c.before, c.after].some((r) => armSettingsOf(r.config, c.series.mode)?.serverManifests?.path === path);
    if (server) return 'explained';
    const profile = [c.before, c.after].some((r) => profileOf(r, c.series.profile).script === path);
    if (profile) return 'script';
    return record(record(record(c.after.config).kubernetes).manifests).client === path ? 'k6' : 'ignore';
  }
  if (key.startsWith('config.modes.')) {
    const rest = key.slice('config.modes.'.length);
    const mode = modeNameIn(rest, [c.before, c.after]);
    if (mode === undefined) return 'ignore';
    const field = rest.slice(mode.length + 1);
    if (mode !== c.series.mode) return c.series.metric === 'ratio' && mode === String(c.after.baseline) ? 'baseline-mode' : 'ignore';
    return ARM_FAMILIES.has(field.split('.')[0]!) ? 'explained' : 'mode-setting';
  }
  if (key.startsWith('config.load.')) {
    const rest = key.slice('config.load.'.length);
    if (!rest.startsWith(`${c.series.profile}.`)) return 'ignore';
    return rest === `${c.series.profile}.script` ? 'script' : 'load-profile';
  }
  if (key.startsWith('config.kubernetes.')) {
    const field = key.slice('config.kubernetes.'.length);
    if (CLUSTER_BOOKKEEPING.has(field)) return 'ignore';
    if (field === 'images.echo' || field === 'manifests.server') return serverFamily ? 'explained' : 'ignore';
    if (field === 'images.client' || field === 'manifests.client') return 'k6';
    if (field.startsWith('istio.'))
      return !istioMode ? 'ignore' : c.mesh === 'istio-ambient' ? 'one-ztunnel' : c.carried.has('istio') ? 'explained' : 'ignore';
    if (field.startsWith('linkerd.')) return c.mesh === 'linkerd' ? 'linkerd-control-plane' : 'ignore';
    if (field.startsWith('resources.')) return 'resources';
    return 'cluster';
  }
  if (key === 'config.plan.order') return 'ignore';
  return 'mode-setting';
}

/** The longest mode name of either run that `rest` ("<mode>.<field>") starts with: mode names may hold dots. */
function modeNameIn(rest: string, runs: RunResult[]): string | undefined {
  const names = runs.flatMap((r) => (Array.isArray(r.config.modes) ? r.config.modes.map((m) => String(record(m).name)) : []));
  return names.filter((n) => rest.startsWith(`${n}.`)).sort((x, y) => y.length - x.length)[0];
}

/** A run's stored load profile by name. */
export function profileOf(result: RunResult, name: string): Raw {
  return (Array.isArray(result.config.profiles) ? result.config.profiles.map(record) : []).find((p) => p.name === name) ?? {};
}
