// Reads the config layers (preset, YAML file, flag/input overrides) and validates them once.
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { findPreset, PRESETS } from '../presets/index.ts';
import { UsageError } from '../util/errors.ts';
import { didYouMean } from '../util/did-you-mean.ts';
import { mergeRaw } from './merge.ts';
import { OVERRIDES, parseOverrideValue, setPath } from './overrides.ts';
import { validateConfig, type Config } from './validate.ts';
import { MESH_KINDS } from './schema.ts';
import { DEMO_LOAD, DEMO_MODES } from './demo-modes.ts';

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
}

export async function loadConfig(sources: ConfigSources): Promise<Config> {
  let fileRaw: unknown = {};
  if (sources.file) fileRaw = parseYaml(await readConfigFile(sources.file), sources.file);
  const overrides = overrideEntries(sources.overrides ?? {}, sources.overrideOrigin ?? 'flag');
  const presetOverride = overrides.find((o) => o.path === 'preset')?.value;
  const presetName = presetOverride ?? (fileRaw as Record<string, unknown>)?.preset ?? sources.defaults?.preset;
  const presetRaw = typeof presetName === 'string' ? presetConfig(presetName) : {};
  const merged = [sources.defaults ?? {}, presetRaw, fileRaw].reduce(mergeRaw, {}) as Record<string, unknown>;
  // Overrides apply to the merged layers, so `--duration 5s` sets the duration of every load
  // profile of a preset instead of replacing its list of profiles.
  for (const { path, value } of overrides) setPath(merged, path, value);
  if (sources.localDemoModes && (merged.platform ?? 'local') === 'local' && merged.modes === undefined) {
    merged.modes = structuredClone(DEMO_MODES);
    if (merged.load === undefined) merged.load = { ...DEMO_LOAD };
  }
  return validateConfig(merged, sources.file ?? 'configuration');
}

async function readConfigFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new UsageError(`config file ${path} does not exist; pass --config FILE, or run \`mesh-perf demo\` to try the tool without one`);
    }
    throw new UsageError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
}

export function parseYaml(text: string, source: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const where = first.linePos?.[0] ? ` at line ${first.linePos[0].line}, column ${first.linePos[0].col}` : '';
    throw new UsageError(`${source} is not valid YAML${where}: ${first.message.split('\n')[0]}`);
  }
  const value = doc.toJS() as unknown;
  if (value !== null && value !== undefined && (typeof value !== 'object' || Array.isArray(value))) {
    throw new UsageError(`${source}: expected a YAML mapping (key: value) at the top level, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  }
  return value ?? {};
}

function presetConfig(name: string): Record<string, unknown> {
  const preset = findPreset(name);
  if (!preset) {
    const names = PRESETS.map((p) => p.name);
    const guess = didYouMean(name, names);
    throw new UsageError(
      `preset: unknown preset "${name}"${guess ? `; did you mean "${guess}"?` : ''} (expected one of: ${names.join(', ') || 'none available'})`,
    );
  }
  return preset.config;
}

function overrideEntries(overrides: Record<string, string | undefined>, origin: 'flag' | 'input'): { path: string; value: unknown }[] {
  const entries: { path: string; value: unknown }[] = [];
  for (const override of OVERRIDES) {
    const key = origin === 'flag' ? override.flag : override.input;
    const text = overrides[key];
    if (text === undefined || text === '') continue;
    const label = origin === 'flag' ? `--${key}` : `input ${key}`;
    let value = parseOverrideValue(override, text, label);
    if (override.path === 'modes') value = parseModes(String(value), label);
    entries.push({ path: override.path, value });
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
