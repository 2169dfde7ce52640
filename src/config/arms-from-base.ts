// A/B from two configs: a PR's base commit's mesh-perf.yaml and its head's. Each mode of the head
// whose settings differ from the base's mode of the same name in what an arm can hold (url, grpc,
// env, local hops/delay/jitter, namespace labels and annotations) runs as two arms: base with the
// base's values, head as written. A mode that is new, unchanged, or changed in a way two arms of
// one run cannot hold is compared with history as before, and the summary says which and why.
// On kind/kubeconfig two arms are two namespaces of one cluster: they can differ in env, in
// namespace labels and annotations (Linkerd's per-workload proxy settings) and in the echo server
// image (a mode's echoImage, or kubernetes.images.echo for every mode), an istio-sidecar or
// istio-waypoint mode also in its Istio control plane (its istio, or kubernetes.istio for every
// Istio mode: each arm its own revision), in its server manifests (a mode's serverManifests or
// kubernetes.manifests.server, compared by content at each commit), and never for an
// istio-ambient mode (one ztunnel per node). armsFromImages makes the same arms from two images given outright
// (a PR that builds the app: inputs ab-base-image / ab-head-image). Works on the raw (merged, not
// yet validated) objects; validation follows as for any config. Pure.
import { clusterArmsRefusal } from './arms.ts';
import { ISTIO_HUB } from './istio-revisions.ts';
import type { ModeSpec } from './schema.ts';

/** What `plan`, `run` and results say about the derivation. */
export interface ArmsFromBase {
  /** Where the base came from, e.g. "--ab-base-config base.yaml". */
  source: string;
  /** Modes run as two arms, with the settings that differ. */
  armed: {
    mode: string;
    differs: string[];
    /** Per differing setting, its value in the base arm and in the head arm, as short JSON ("none": unset). */
    values?: { base: string; head: string }[];
  }[];
  /** Modes compared with history instead, each with why. */
  history: { mode: string; reason: string }[];
  /**
   * Set when there was no base to derive arms from (a PR's base commit without the config, or with
   * one that does not validate): why, naming the file and the commit. Every mode is compared with
   * history.
   */
  unavailable?: string;
}

/** Mode fields an arm can override on local and endpoints (config/schema.ts armOverridesSchema). */
const ARMABLE = ['url', 'grpc', 'env', 'local', 'namespaceLabels', 'namespaceAnnotations'] as const;
/** Maps an arm merges key by key over its mode: it can add or change keys, not remove them. */
const MERGED_MAPS = new Set(['env', 'namespaceLabels', 'namespaceAnnotations']);
const LOCAL_DEFAULTS: Record<string, unknown> = { hops: 0, delay: '0ms', jitter: '0ms' };

type Raw = Record<string, unknown>;

/** Why a mode that already has arms is left as written. */
const OWN_ARMS = 'it has arms of its own (modes[].arms), which are run as written';

/** What two arms can differ in on Kubernetes: their namespaces, the echo image or server manifests, the Istio revision and the k6 env (config/arms.ts). */
const ARMABLE_IN_CLUSTER = ['env', 'namespaceLabels', 'namespaceAnnotations', 'echoImage', 'serverManifests', 'istio'] as const;

/** Each side's kubernetes.images.echo as it runs (the default when unset): what a mode without its own echoImage runs. */
export interface EchoImages {
  base: string;
  head: string;
}

/** Each side's kubernetes.istio as it runs (version, hub, set; defaults filled): what an Istio mode's control plane is. */
export interface IstioSettings {
  base: Raw;
  head: Raw;
}

/** Each side's kubernetes.manifests.server (unset: the built-in echo server), and names to show for copies. */
export interface ServerManifests {
  base: string | undefined;
  head: string | undefined;
  /**
   * A file the base names whose content at the base commit differs from the checkout's is read
   * into a copy, and the base's paths point there (github/pr-base-files.ts): so a PR that edits a
   * manifests file in place arms its modes. Maps each copy to what to call it ("x.yaml at abc1234").
   */
  shown?: Record<string, string>;
}

/** What the head and the base run with beyond their modes: the platform and each side's run-wide settings. */
export interface BaseSides {
  platform?: unknown;
  echoImages?: EchoImages;
  istio?: IstioSettings;
  servers?: ServerManifests;
}

export function armsFromBase(
  headModes: unknown,
  baseModes: unknown,
  source: string,
  sides: BaseSides = {},
): { modes: unknown; summary: ArmsFromBase } {
  const { platform, echoImages, istio, servers } = sides;
  const summary: ArmsFromBase = { source, armed: [], history: [] };
  const kubernetes = platform === 'kind' || platform === 'kubeconfig';
  const armable: readonly string[] = kubernetes ? ARMABLE_IN_CLUSTER : ARMABLE;
  if (!Array.isArray(headModes)) return { modes: headModes, summary };
  // On a cluster a mode runs its own echoImage or else its side's kubernetes.images.echo: compared
  // as that, a PR that bumps kubernetes.images.echo arms every mode (base arm: the base's image).
  // (Not under server manifests, which name their own images.)
  const withImage = (mode: Raw, image: string | undefined): Raw =>
    kubernetes && image !== undefined && mode.echoImage === undefined && mode.serverManifests === undefined
      ? { ...mode, echoImage: image }
      : mode;
  // Likewise an Istio mode's control plane is its side's kubernetes.istio under the mode's own istio:
  // a PR that upgrades Istio (version, hub or values) arms every istio-sidecar and istio-waypoint
  // mode, each arm its own revision, and sends istio-ambient modes to history with the reason.
  const withIstio = (mode: Raw, settings: Raw | undefined): Raw =>
    kubernetes && settings && isIstioMode(mode) ? { ...mode, istio: effectiveIstio(mode.istio, settings) } : mode;
  // And its server is its own serverManifests or else its side's kubernetes.manifests.server.
  const withServer = (mode: Raw, server: string | undefined): Raw =>
    kubernetes && server !== undefined && mode.serverManifests === undefined ? { ...mode, serverManifests: server } : mode;
  const side = (mode: Raw, which: 'base' | 'head') =>
    withIstio(withImage(withServer(mode, servers?.[which]), echoImages?.[which]), istio?.[which]);
  const shown = (value: unknown) => show(typeof value === 'string' && servers?.shown?.[value] ? servers.shown[value] : value);
  const bases = (Array.isArray(baseModes) ? baseModes.filter(isRecord) : []).map((b) => side(b, 'base'));
  const modes = headModes.map((written) => {
    if (!isRecord(written) || typeof written.name !== 'string') return written;
    const name = written.name;
    const head = side(written, 'head');
    if (head.arms !== undefined) {
      summary.history.push({ mode: name, reason: OWN_ARMS });
      return written;
    }
    const base = bases.find((b) => b.name === name);
    if (!base) {
      summary.history.push({ mode: name, reason: `it is new: ${source} has no mode "${name}"` });
      return written;
    }
    const keys = [...new Set([...Object.keys(head), ...Object.keys(base)])].filter((k) => k !== 'arms' && !same(head[k], base[k]));
    const fixed = keys.filter((k) => !armable.includes(k));
    if (fixed.length > 0) {
      summary.history.push({
        mode: name,
        reason: `its ${fixed.join(', ')} changed (${fixed.map((k) => `${shown(base[k])} → ${shown(head[k])}`).join('; ')}), which two arms of one run cannot differ in`,
      });
      return written;
    }
    if (keys.length === 0) return written; // unchanged: history, as every mode without arms
    const refusal = kubernetes ? clusterArmsRefusal({ name, mesh: head.mesh as ModeSpec['mesh'] }) : undefined;
    if (refusal) {
      summary.history.push({ mode: name, reason: refusal });
      return written;
    }
    const overrides: Raw = {};
    for (const key of keys) {
      const problem = baseOverride(key, head[key], base[key], overrides);
      if (problem) {
        summary.history.push({ mode: name, reason: problem });
        return written;
      }
    }
    const differs = differingPaths(keys, head, base);
    summary.armed.push({
      mode: name,
      differs,
      values: differs.map((path) => ({ base: shown(at(base, path)), head: shown(at(head, path)) })),
    });
    return { ...written, arms: { base: overrides, head: {} } };
  });
  return { modes, summary };
}

/**
 * Arms from two echo images given outright (inputs ab-base-image / ab-head-image, flags
 * --ab-base-image / --ab-head-image): every mode that can hold two arms runs the head image in its
 * head arm and the base image (default: what the mode runs now) in its base arm.
 */
export function armsFromImages(
  modes: unknown,
  images: { base?: string; head: string },
  source: string,
  platform: unknown,
  /** kubernetes.images.echo as the run has it: what a base arm without ab-base-image runs. */
  runImage: string,
): { modes: unknown; summary: ArmsFromBase } {
  const summary: ArmsFromBase = { source, armed: [], history: [] };
  if (platform !== 'kind' && platform !== 'kubeconfig') {
    summary.unavailable = `an echo image is deployed only on the kind and kubeconfig platforms, not on "${String(platform ?? 'local')}"`;
    return { modes, summary };
  }
  if (!Array.isArray(modes)) return { modes, summary };
  const armed = modes.map((mode) => {
    if (!isRecord(mode) || typeof mode.name !== 'string') return mode;
    if (mode.arms !== undefined) {
      summary.history.push({ mode: mode.name, reason: OWN_ARMS });
      return mode;
    }
    const refusal = clusterArmsRefusal({ name: mode.name, mesh: mode.mesh as ModeSpec['mesh'] });
    if (refusal) {
      summary.history.push({ mode: mode.name, reason: refusal });
      return mode;
    }
    summary.armed.push({
      mode: mode.name,
      differs: ['echoImage'],
      values: [{ base: show(images.base ?? mode.echoImage ?? runImage), head: show(images.head) }],
    });
    return { ...mode, arms: { base: images.base === undefined ? {} : { echoImage: images.base }, head: { echoImage: images.head } } };
  });
  return { modes: armed, summary };
}

/** Whether a raw mode runs in Istio (its mesh, or its name when that is a mesh mode). */
function isIstioMode(mode: Raw): boolean {
  const mesh = typeof mode.mesh === 'string' ? mode.mesh : mode.name;
  return mesh === 'istio-sidecar' || mesh === 'istio-ambient' || mesh === 'istio-waypoint';
}

/** A mode's Istio control plane as it would run: its own istio's fields over its side's kubernetes.istio (the name aside). */
function effectiveIstio(own: unknown, settings: Raw): Raw {
  const mode = isRecord(own) ? own : {};
  return { version: mode.version ?? settings.version, hub: mode.hub ?? settings.hub ?? null, set: mode.set ?? settings.set ?? {} };
}

/** Sets the base arm's override of `key` into `out`, or says why an arm cannot express it. */
function baseOverride(key: string, head: unknown, base: unknown, out: Raw): string | undefined {
  if (key === 'istio') {
    // The base arm's own revision with the base's settings; a hub only the head names is Istio's own (ISTIO_HUB) for the base.
    const b = isRecord(base) ? base : {};
    const headHub = isRecord(head) ? head.hub : null;
    const hub = b.hub ?? (headHub !== null ? ISTIO_HUB : null);
    out.istio = { version: b.version, set: b.set, ...(hub !== null ? { hub } : {}) };
    return undefined;
  }
  if (key === 'local') {
    const h = isRecord(head) ? head : {};
    const b = isRecord(base) ? base : {};
    const local: Raw = {};
    for (const k of new Set([...Object.keys(h), ...Object.keys(b)])) {
      if (same(h[k], b[k])) continue;
      if (!(k in LOCAL_DEFAULTS)) return `its local.${k} changed, which two arms of one run cannot differ in`;
      local[k] = b[k] ?? LOCAL_DEFAULTS[k];
    }
    out.local = local;
    return undefined;
  }
  if (MERGED_MAPS.has(key)) {
    const h = isRecord(head) ? head : {};
    const b = isRecord(base) ? base : {};
    const removed = Object.keys(h).filter((k) => !(k in b));
    if (removed.length > 0)
      return `its ${key} gained ${removed.join(', ')}, which the base lacks: an arm can add or change ${key} keys, not remove them`;
    out[key] = b;
    return undefined;
  }
  // url, grpc: the base arm takes the base's value; a base without one cannot unset the head's.
  if (base === undefined) return `its ${key} is new (${show(head)}), and an arm cannot unset it`;
  out[key] = base;
  return undefined;
}

/** The dotted settings that differ, for the summary (`local.delay`, `env.RATE`, `url`). */
function differingPaths(keys: string[], head: Raw, base: Raw): string[] {
  return keys.flatMap((key) => {
    const h = head[key];
    const b = base[key];
    if (!isRecord(h) && !isRecord(b)) return [key];
    const hm = isRecord(h) ? h : {};
    const bm = isRecord(b) ? b : {};
    return [...new Set([...Object.keys(hm), ...Object.keys(bm)])].filter((k) => !same(hm[k], bm[k])).map((k) => `${key}.${k}`);
  });
}

/** The value at a differing path: `local.delay` is two levels; a map key may hold dots (`config.linkerd.io/x`). */
function at(mode: Raw, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot < 0) return mode[path];
  const key = path.slice(0, dot);
  const outer = mode[key];
  const value = isRecord(outer) ? outer[path.slice(dot + 1)] : undefined;
  // An unset local setting is what the arm runs with: the base arm gets the default (baseOverride).
  return value === undefined && key === 'local' ? LOCAL_DEFAULTS[path.slice(dot + 1)] : value;
}

function isRecord(value: unknown): value is Raw {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  return value;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return 'none';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
