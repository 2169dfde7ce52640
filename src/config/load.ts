// Reads the config layers (preset, YAML file, flag/input overrides) and validates them once.
import { closeSync, createReadStream, constants as fsConstants, openSync, statSync } from 'node:fs';
import { type Document, isAlias, isMap, isScalar, isSeq, parseDocument, visit, type YAMLError } from 'yaml';
import { findPreset, PRESETS } from '../presets/index.ts';
import { EnvironmentError, messageOf, UsageError } from '../util/errors.ts';
import { didYouMean } from '../util/did-you-mean.ts';
import { mergeRaw } from './merge.ts';
import { registerConfigSecrets } from './public.ts';
import { OVERRIDES, parseOverrideValue, setPath } from './overrides.ts';
import { checkConfig, ConfigError, describeProblems, type Config, type ConfigProblem } from './validate.ts';
import { underOmitted } from './omit.ts';
import { MESH_KINDS } from './schema.ts';
import { istioSettingsSchema, pinnedWorkloadImage } from './sections/kubernetes.ts';
import { DEMO_LOAD, DEMO_MODES } from './demo-modes.ts';
import { formatLimit, LIMITS } from './limits.ts';
import { specialFileKind } from '../util/file-kind.ts';
import { quote } from '../util/quote.ts';
import { refuseKeyFlood } from './key-flood.ts';
import { armsFromBase, type ArmsFromBase, armsFromImages } from './arms-from-base.ts';
import { FORTIO_IMAGE } from '../tools/images.ts';

export interface ConfigSources {
  /** Path of the YAML file; undefined when there is none. */
  file?: string;
  /** Overrides by flag name (CLI) or input name (action), as raw strings. */
  overrides?: Record<string, string | undefined>;
  /** Where the overrides came from, for error messages: "flag" or "input". */
  overrideOrigin?: 'flag' | 'input';
  /** A raw object applied before the file (the demo's built-in config). */
  defaults?: Record<string, unknown>;
  /** With platform local and no modes anywhere, measure the demo's two modes (the action does). */
  localDemoModes?: boolean;
  /** How errors name the defaults layer, e.g. "the demo's built-in config". */
  defaultsLabel?: string;
  /** How errors name the file; default its path. */
  fileLabel?: string;
  /** Cancels reading the file (a FIFO with no writer would otherwise wait forever). */
  signal?: AbortSignal;
  /**
   * Checks after validation (files exist, machine limits, endpoints reachable); problems are
   * attributed like the rest and reported with them. They also run on a config whose other values
   * were refused, so that every problem shows in one run.
   */
  check?: (config: Config) => ConfigProblem[] | Promise<ConfigProblem[]>;
  /**
   * Another config (a PR's base commit's) to run A/B against: each mode whose arm-able settings
   * differ from the base's runs as two arms (config/arms-from-base.ts). `label` names it in messages.
   */
  abBase?: {
    file: string;
    label: string;
    /**
     * Copies of files the base names (server manifests) as they are at the base commit, where
     * they differ from the checkout's: path as the base names it → the copy and what to call it.
     */
    files?: Record<string, { copy: string; label: string }>;
  };
  /**
   * Two echo images to A/B outright (a PR that builds the app): every mode that can runs as two
   * arms, head with `head`, base with `base` (default: the image it runs now). Takes the place of
   * `abBase`. `names` are the flags or inputs that gave them, for messages.
   */
  abImages?: { base?: string; head: string; names: { base: string; head: string } };
}

/** One source of settings, for saying which one a bad value came from. */
interface Layer {
  label: string;
  /** The dotted config path this layer sets (overrides), or the raw object it contributes. */
  path?: string;
  raw?: unknown;
}

export async function loadConfig(sources: ConfigSources): Promise<Config> {
  const fileRaw: unknown = sources.file ? await readRawConfig(sources.file, fileLabel(sources), sources.signal) : {};
  const overrides = overrideEntries(sources.overrides ?? {}, sources.overrideOrigin ?? 'flag');
  const presetOverride = overrides.find((o) => o.path === 'preset');
  const filePreset = (fileRaw as Record<string, unknown>)?.preset;
  const presetName = presetOverride?.value ?? filePreset ?? sources.defaults?.preset;
  const presetOrigin = presetOverride ? presetOverride.label : filePreset !== undefined ? fileLabel(sources) : 'the built-in config';
  const presetRaw = withoutClusterSettings(
    typeof presetName === 'string' ? presetConfig(presetName, presetOrigin) : {},
    overrides.find((o) => o.path === 'platform')?.value ?? (fileRaw as Record<string, unknown>)?.platform ?? sources.defaults?.platform,
  );
  // Copies: overrides write into the merged object, which shares nested objects with its layers
  // (a preset's config is a module-level constant).
  const merged = structuredClone([sources.defaults ?? {}, presetRaw, fileRaw].reduce(mergeRaw, {})) as Record<string, unknown>;
  // Overrides apply to the merged layers, so `--duration 5s` sets the duration of every load
  // profile of a preset instead of replacing its list of profiles.
  for (const { path, value } of overrides) {
    if (path === 'load.rate' || path === 'load.vus') renameDerivedProfiles(merged, path === 'load.rate' ? 'rps' : 'vus');
    setPath(merged, path, value);
  }
  if (sources.localDemoModes && (merged.platform ?? 'local') === 'local' && merged.modes === undefined) {
    merged.modes = structuredClone(DEMO_MODES);
    if (merged.load === undefined) merged.load = { ...DEMO_LOAD };
  }
  let fromBase: ArmsFromBase | undefined;
  if (sources.abImages) {
    const { base, head, names } = sources.abImages;
    for (const [name, image] of [
      [names.base, base],
      [names.head, head],
    ] as const) {
      const checked = image === undefined ? undefined : pinnedWorkloadImage('an echo server').safeParse(image);
      if (checked && !checked.success) throw new UsageError(`${name} ${quote(image!)}: ${checked.error.issues[0]!.message}`);
    }
    const source = base === undefined ? names.head : `${names.base} / ${names.head}`;
    const images = { head, ...(base !== undefined ? { base } : {}) };
    const derived = armsFromImages(merged.modes, images, source, merged.platform ?? 'local', echoImageOf(merged));
    merged.modes = derived.modes;
    fromBase = derived.summary;
  } else if (sources.abBase) {
    const { file, label, files } = sources.abBase;
    const baseRaw = withBaseFiles((await readRawConfig(file, label, sources.signal)) as Record<string, unknown>, files);
    // The base's modes as it would run them: its preset's, then its file's.
    const basePresetName = typeof baseRaw?.preset === 'string' ? baseRaw.preset : (presetOverride?.value ?? sources.defaults?.preset);
    const basePreset = typeof basePresetName === 'string' ? presetConfig(basePresetName, label) : {};
    const baseMerged = [sources.defaults ?? {}, basePreset, baseRaw ?? {}].reduce(mergeRaw, {}) as Record<string, unknown>;
    const derived = armsFromBase(merged.modes, baseMerged.modes, label, {
      platform: merged.platform,
      echoImages: { base: echoImageOf(baseMerged), head: echoImageOf(merged) },
      istio: { base: istioOf(baseMerged), head: istioOf(merged) },
      servers: {
        base: serverManifestsOf(baseMerged),
        head: serverManifestsOf(merged),
        shown: Object.fromEntries(Object.values(files ?? {}).map((f) => [f.copy, f.label])),
      },
    });
    merged.modes = derived.modes;
    fromBase = derived.summary;
  }
  const layers: Layer[] = [
    ...overrides.map((o) => ({ label: o.label, path: o.path })),
    ...(sources.file ? [{ label: fileLabel(sources), raw: fileRaw }] : []),
    ...(typeof presetName === 'string' ? [{ label: `preset "${presetName}"`, raw: presetRaw }] : []),
    ...(sources.defaults ? [{ label: sources.defaultsLabel ?? 'the built-in config', raw: sources.defaults }] : []),
  ];
  const source = layers.find((l) => l.raw !== undefined)?.label ?? 'configuration';
  // Every problem at once: the schema's, the cross-field checks', and the checks before the load
  // (files, this machine, the endpoints' reachability) on what the schema accepted.
  const checked = checkConfig(merged);
  const config = checked.config;
  // After validation, which bounds the config's size and depth: its secrets are redacted from every output.
  if (config) registerConfigSecrets(config);
  if (config && fromBase) config.armsFromBase = fromBase;
  const later = config && sources.check ? (await sources.check(config)).filter((p) => !underOmitted(p.path, checked.omitted)) : [];
  const problems = [...checked.problems, ...later].map((p) => ({ ...p, origin: originOf(p.path, layers, source) }));
  if (problems.length === 0) return config!;
  // Only the environment at fault (an endpoint down): exit 3, as the run would be.
  if (problems.every((p) => p.environment)) throw new EnvironmentError(describeProblems(source, problems));
  throw new ConfigError(source, problems);
}

/** kubernetes.images.echo of a raw (merged, unvalidated) config: what its modes run unless they name their own. */
function echoImageOf(raw: Record<string, unknown>): string {
  const kubernetes = raw.kubernetes as { images?: { echo?: unknown } } | undefined;
  const image = kubernetes?.images?.echo;
  return typeof image === 'string' ? image : FORTIO_IMAGE;
}

/** kubernetes.manifests.server of a raw config: the server of every mode without its own. */
function serverManifestsOf(raw: Record<string, unknown>): string | undefined {
  const server = (raw.kubernetes as { manifests?: { server?: unknown } } | undefined)?.manifests?.server;
  return typeof server === 'string' ? server : undefined;
}

/**
 * The base's raw config with each server manifests path it names (kubernetes.manifests.server,
 * modes[].serverManifests, their arms') pointing at the copy of that file as the base commit has
 * it, where one was made (github/pr-base-files.ts).
 */
function withBaseFiles(raw: Record<string, unknown>, files: Record<string, { copy: string }> | undefined): Record<string, unknown> {
  if (!files || typeof raw !== 'object' || raw === null) return raw;
  const copy = structuredClone(raw);
  const swap = (holder: unknown, key: string) => {
    if (typeof holder !== 'object' || holder === null) return;
    const record = holder as Record<string, unknown>;
    const value = record[key];
    if (typeof value === 'string' && files[value]) record[key] = files[value].copy;
  };
  swap((copy.kubernetes as Record<string, unknown> | undefined)?.manifests, 'server');
  for (const mode of Array.isArray(copy.modes) ? copy.modes : []) {
    swap(mode, 'serverManifests');
    const arms = (mode as { arms?: unknown } | null)?.arms;
    if (typeof arms === 'object' && arms !== null) for (const arm of Object.values(arms)) swap(arm, 'serverManifests');
  }
  return copy;
}

/** kubernetes.istio of a raw config with its defaults: what an Istio mode's control plane is unless it names its own. */
function istioOf(raw: Record<string, unknown>): Record<string, unknown> {
  const written = (raw.kubernetes as { istio?: unknown } | undefined)?.istio;
  const parsed = istioSettingsSchema.safeParse(written ?? {});
  // Invalid settings are reported by validation; compared as written meanwhile.
  return parsed.success ? parsed.data : typeof written === 'object' && written !== null ? (written as Record<string, unknown>) : {};
}

/**
 * A preset is written for a cluster and runs on local or endpoints as its approximation (its mesh
 * modes carry local hops). Its pod counts and ingress gateway mean nothing there and are left out;
 * the same settings written by the user on those platforms are refused (config/applicability.ts).
 */
function withoutClusterSettings(preset: Record<string, unknown>, platformOverride: unknown): Record<string, unknown> {
  const platform = platformOverride ?? preset.platform ?? 'local';
  if (platform === 'kind' || platform === 'kubeconfig') return preset;
  const copy = structuredClone(preset) as { load?: unknown; kubernetes?: Record<string, unknown> };
  for (const profile of Array.isArray(copy.load) ? copy.load : [copy.load]) {
    if (profile && typeof profile === 'object') delete (profile as Record<string, unknown>).replicas;
  }
  if (copy.kubernetes) delete copy.kubernetes.ingress;
  return copy;
}

/** A config file's YAML as a raw object: read (bounded), refused when it floods keys, parsed. */
async function readRawConfig(file: string, label: string, signal?: AbortSignal): Promise<unknown> {
  const text = await readConfigFile(file, label, signal);
  refuseKeyFlood(text, label);
  return parseYaml(text, label);
}

function fileLabel(sources: ConfigSources): string {
  return sources.fileLabel ?? sources.file ?? 'configuration';
}

/**
 * A preset names its profiles after their rate ("200rps"); `--rate 50` must not leave a 50 rps
 * run called 200rps in the plan and the results, so such names are dropped and derived again.
 */
function renameDerivedProfiles(merged: Record<string, unknown>, unit: 'rps' | 'vus'): void {
  const field = unit === 'rps' ? 'rate' : 'vus';
  const list = Array.isArray(merged.load) ? merged.load : [merged.load];
  for (const profile of list) {
    if (!profile || typeof profile !== 'object') continue;
    const p = profile as Record<string, unknown>;
    if (p.name !== undefined && p.name === `${String(p[field])}${unit}`) delete p.name;
  }
}

/** The layer that set the value at a problem's path: the first (highest) layer holding it. */
function originOf(problemPath: string, layers: Layer[], fallback: string): string {
  const plain = problemPath.replace(/\[\d+\]/g, '');
  for (const layer of layers) {
    if (layer.path !== undefined) {
      if (plain === layer.path || plain.startsWith(`${layer.path}.`) || (layer.path === 'modes' && plain.startsWith('modes')))
        return layer.label;
      if (layer.path === 'baseline' && plain === 'baseline') return layer.label;
      continue;
    }
    if (problemPath !== '' && hasPath(layer.raw, problemPath)) return layer.label;
  }
  return fallback;
}

function hasPath(raw: unknown, path: string): boolean {
  let node = raw;
  for (const part of path.match(/[^.[\]]+/g) ?? []) {
    if (node === null || typeof node !== 'object') {
      // `load: {...}` in one layer is reported as load[0] when another layer made it a list.
      return false;
    }
    const key = /^\d+$/.test(part) && Array.isArray(node) ? Number(part) : part;
    if (!Array.isArray(node) && /^\d+$/.test(part)) continue; // load[0] of a single profile
    if (!Object.hasOwn(node, key)) return false;
    node = (node as Record<string | number, unknown>)[key];
  }
  return true;
}

async function readConfigFile(path: string, label: string, signal?: AbortSignal): Promise<string> {
  try {
    // A FIFO blocks in open() until a writer appears, where no AbortSignal reaches; racing the
    // read lets Ctrl-C and SIGTERM end the command (the entry point exits once main returns).
    // A FIFO is allowed (`--config <(generate-config)`); a device never ends, so it is refused.
    const special = existingSpecialFile(path);
    if (special) throw new UsageError(`config file ${label} is ${special}, expected a YAML file`);
    return await abortable(readLimited(path, label, signal), signal, () => releaseFifo(path));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (signal?.aborted) throw new EnvironmentError(`cancelled while reading config file ${label}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new UsageError(
        `config file ${label} does not exist; run \`mesh-perf init\` to write one, pass --config FILE, or run \`mesh-perf demo\` to try the tool without one`,
      );
    }
    if (code === 'EISDIR') throw new UsageError(`config file ${label} is a directory, expected a YAML file`);
    if (code === 'EACCES') throw new UsageError(`config file ${label} cannot be read: permission denied`);
    throw new UsageError(`cannot read config file ${label}: ${(error as Error).message}`);
  }
}

function existingSpecialFile(path: string): string | undefined {
  try {
    const kind = specialFileKind(statSync(path));
    return kind === 'a FIFO (named pipe)' ? undefined : kind;
  } catch {
    return undefined; // the read names what is wrong (missing, permission)
  }
}

/** The file's text, refused past LIMITS.fileBytes (a pipe that never ends would fill the memory). */
async function readLimited(path: string, label: string, signal?: AbortSignal): Promise<string> {
  const stream = createReadStream(path, signal ? { signal } : {});
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMITS.fileBytes) {
      stream.destroy();
      throw new UsageError(
        `config file ${label} is larger than ${formatLimit(LIMITS.fileBytes)} bytes; a mesh-perf config is a few kilobytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A read of a FIFO with no writer sits in open() on a libuv worker thread, and the process cannot
 * exit until that thread returns. Opening the FIFO for writing (non-blocking: it succeeds because
 * our reader is waiting) and closing it again lets the read end with EOF.
 */
function releaseFifo(path: string): void {
  try {
    if (!statSync(path).isFIFO()) return;
    closeSync(openSync(path, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK));
  } catch {
    // No reader waiting (ENXIO) or the path is gone: nothing holds the thread.
  }
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal, onCancel?: () => void): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(new Error('aborted'));
      onCancel?.();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Deeper than any real config; stops recursion (merging, validation) far below the stack's limit. */
const MAX_DEPTH = 32;

export function parseYaml(text: string, source: string): unknown {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what marks a binary file
  const binary = /[\u0000-\u0008\u000e-\u001f\ufffd]/.exec(text);
  if (binary) {
    const line = text.slice(0, binary.index).split('\n').length;
    throw new UsageError(
      `${source} is not a YAML text file: it holds a binary byte at line ${line} (0x${binary[0].charCodeAt(0).toString(16).padStart(2, '0')})`,
    );
  }
  // merge: YAML 1.1 merge keys (`<<: *defaults`) work as users of other YAML tools expect.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: false, merge: true });
  if (doc.errors.length > 0) throw new UsageError(`${source} is not valid YAML${yamlProblem(doc.errors[0]!)}`);
  const duplicate = firstDuplicateKey(doc.contents, text);
  if (duplicate)
    throw new UsageError(
      `${source}${duplicate.key === '__proto__' || duplicate.key === 'null' ? ',' : ' is not valid YAML at'} line ${duplicate.line}: key ${duplicate.key === 'null' ? 'null' : quote(duplicate.key)} ${duplicate.reason}`,
    );
  const unresolved = unresolvedAlias(doc);
  if (unresolved)
    throw new UsageError(
      `${source} is not valid YAML at line ${text.slice(0, unresolved.offset).split('\n').length}: alias *${unresolved.name} names no anchor (an anchor &${unresolved.name} must come before it)`,
    );
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  } catch (error) {
    throw new UsageError(
      `${source}: its YAML aliases (*name) expand to too much data (${messageOf(error).replace(/\.$/, '')}); write the values out instead`,
    );
  }
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new UsageError(
      `${source}: expected a YAML mapping (key: value) at the top level, got ${Array.isArray(value) ? 'a list' : typeof value}`,
    );
  }
  const deep = deepestPath(value, MAX_DEPTH);
  if (deep)
    throw new UsageError(`${source}: nests more than ${MAX_DEPTH} levels deep at ${deep}; a mesh-perf config is at most a few levels deep`);
  return value ?? {};
}

function yamlProblem(error: YAMLError): string {
  const where = error.linePos?.[0] ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
  // The library's message repeats the location and, for a second document, names its own API.
  let message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?\s*$/, '');
  if (error.code === 'MULTIPLE_DOCS') message = 'it holds more than one YAML document (a "---" separator); mesh-perf reads one';
  else if (error.code === 'DUPLICATE_KEY') message = 'a key appears twice in the same mapping';
  else if (/Maximum call stack/i.test(message)) message = `it nests too deeply (a mesh-perf config is at most a few levels deep)`;
  return `${where}: ${message}`;
}

/**
 * The library's own duplicate-key check compares every pair of keys (100k keys took 68 s); this
 * one keeps a set per mapping. Iterative: deep documents are refused later, not overflowed here.
 */
function firstDuplicateKey(root: unknown, text: string): { key: string; line: number; reason: string } | undefined {
  const lineOf = (node: unknown) => text.slice(0, isScalar(node) ? (node.range?.[0] ?? 0) : 0).split('\n').length;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (pair.key === null || (isScalar(pair.key) && pair.key.value === null)) {
          // JavaScript would see the key as "" and the message would name an empty key.
          return {
            key: 'null',
            line: lineOf(pair.key ?? pair.value),
            reason: "is a YAML null, which names no mesh-perf setting (write the setting's name before the colon)",
          };
        }
        const key = isScalar(pair.key) ? String(pair.key.value) : JSON.stringify(pair.key);
        if (key === '__proto__') {
          // Would set the prototype of the parsed object instead of being a key of it.
          return {
            key,
            line: lineOf(pair.key),
            reason: "is not allowed (it is no mesh-perf setting, and JavaScript treats it as the object's prototype)",
          };
        }
        if (seen.has(key) && key !== '<<') {
          return { key, line: lineOf(pair.key), reason: 'appears twice in the same mapping' };
        }
        seen.add(key);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) stack.push(...node.items);
  }
  return undefined;
}

/**
 * The first alias (*name) with no anchor before it: toJS would only say the data is too large.
 * One pass in document order (Alias.resolve searches the whole document for each alias: a list
 * of 1,000 aliases took a second).
 */
function unresolvedAlias(doc: Document): { name: string; offset: number } | undefined {
  const anchors = new Set<string>();
  let found: { name: string; offset: number } | undefined;
  visit(doc, (_, node) => {
    if (isAlias(node)) {
      if (anchors.has(node.source)) return undefined;
      found = { name: node.source, offset: node.range?.[0] ?? 0 };
      return visit.BREAK;
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.add(anchor);
    return undefined;
  });
  return found;
}

/** The path where nesting passes `limit`, or undefined; iterative, so it cannot overflow itself. */
function deepestPath(root: unknown, limit: number): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value: root, depth: 0, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= limit) return path || '(top level)';
    for (const [key, child] of Object.entries(value)) {
      stack.push({ value: child, depth: depth + 1, path: Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}

function presetConfig(name: string, origin: string): Record<string, unknown> {
  const preset = findPreset(name);
  if (!preset) {
    const names = PRESETS.map((p) => p.name);
    const guess = didYouMean(name, names);
    throw new UsageError(
      `${/^(flag|input) /.test(origin) ? origin : `${origin}: preset`}: unknown preset "${name}"${guess ? `; did you mean "${guess}"?` : ''} (expected one of: ${names.join(', ') || 'none available'})`,
    );
  }
  return preset.config;
}

function overrideEntries(
  overrides: Record<string, string | undefined>,
  origin: 'flag' | 'input',
): { path: string; value: unknown; label: string }[] {
  const entries: { path: string; value: unknown; label: string }[] = [];
  for (const override of OVERRIDES) {
    const key = origin === 'flag' ? override.flag : override.input;
    const text = overrides[key];
    if (text === undefined || text === '') continue;
    const label = origin === 'flag' ? `--${key}` : `input ${key}`;
    let value = parseOverrideValue(override, text, label);
    if (override.path === 'modes') value = parseModes(String(value), label);
    entries.push({ path: override.path, value, label: origin === 'flag' ? `flag --${key}` : `input ${key}` });
  }
  return entries;
}

/** `modes` as an override: a YAML list, or "baseline,istio-ambient" as shorthand. */
function parseModes(text: string, label: string): unknown {
  if (/^[a-z0-9-]+(\s*,\s*[a-z0-9-]+)*$/.test(text.trim())) {
    return text.split(',').map((name) => {
      const trimmed = name.trim();
      return (MESH_KINDS as readonly string[]).includes(trimmed) ? { name: trimmed, mesh: trimmed } : { name: trimmed };
    });
  }
  return (parseYaml(`modes:\n${text.replace(/^/gm, '  ')}`, label) as { modes: unknown }).modes;
}
