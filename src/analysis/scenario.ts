// The scenario key says when two measurements are comparable: same suite, mode, load profile,
// workload, platform and runner class. History is filtered by it, and `compare` refuses to
// compare results whose keys differ, naming the fields.
import type { RunResult } from '../results/types.ts';
import { findMode } from '../results/modes.ts';

export interface ScenarioKey {
  suite: string;
  mode: string;
  profile: string;
  /** Arrival model, rate or VUs, measured duration. */
  load: string;
  /** What each request is and what serves it: protocol, method, path, payload, script, target. */
  workload: string;
  platform: string;
  runnerClass: string;
}

export const SCENARIO_FIELDS = ['suite', 'mode', 'profile', 'load', 'workload', 'platform', 'runnerClass'] as const;
export type ScenarioField = (typeof SCENARIO_FIELDS)[number];

export interface KeyDifference {
  field: ScenarioField;
  a: string;
  b: string;
}

type Loose = Record<string, unknown>;

export function scenarioKey(result: RunResult, mode: string, profile: string): ScenarioKey {
  const config = (result.config ?? {}) as Loose;
  const profileConfig = findProfile(config, profile);
  const modeConfig = modeConfigOf(config, mode);
  const modeResult = findMode(result, mode, profile);
  return {
    suite: String(result.run?.suite ?? config.suite ?? 'default'),
    mode,
    profile,
    load: describeLoad(profileConfig),
    workload: describeWorkload(profileConfig, modeConfig, modeResult?.mesh),
    platform: String(result.run?.platform ?? config.platform ?? 'unknown'),
    runnerClass: String(result.run?.machine?.runnerClass ?? 'unknown'),
  };
}

export function sameScenario(a: ScenarioKey, b: ScenarioKey): boolean {
  return SCENARIO_FIELDS.every((f) => a[f] === b[f]);
}

export function diffScenarioKeys(a: ScenarioKey, b: ScenarioKey): KeyDifference[] {
  return SCENARIO_FIELDS.filter((f) => a[f] !== b[f]).map((field) => ({ field, a: a[field], b: b[field] }));
}

export interface ScenarioComparison {
  /** (mode, profile) pairs present in both with equal keys: these can be compared. */
  comparable: { mode: string; profile: string }[];
  /** (mode, profile) pairs present in both whose keys differ, with the differing fields. */
  mismatched: { mode: string; profile: string; differences: KeyDifference[] }[];
  onlyInA: { mode: string; profile: string }[];
  onlyInB: { mode: string; profile: string }[];
}

/** Which modes of two runs can be compared, and which key fields differ for the others. */
export function compareScenarios(a: RunResult, b: RunResult): ScenarioComparison {
  const namesA = a.modes.map((m) => ({ mode: m.name, profile: m.profile }));
  const namesB = b.modes.map((m) => ({ mode: m.name, profile: m.profile }));
  const has = (list: typeof namesA, x: { mode: string; profile: string }) => list.some((y) => y.mode === x.mode && y.profile === x.profile);
  const out: ScenarioComparison = { comparable: [], mismatched: [], onlyInA: [], onlyInB: [] };
  for (const entry of namesA) {
    if (!has(namesB, entry)) {
      out.onlyInA.push(entry);
      continue;
    }
    const differences = diffScenarioKeys(scenarioKey(a, entry.mode, entry.profile), scenarioKey(b, entry.mode, entry.profile));
    if (differences.length === 0) out.comparable.push(entry);
    else out.mismatched.push({ ...entry, differences });
  }
  out.onlyInB = namesB.filter((x) => !has(namesA, x));
  return out;
}

function findProfile(config: Loose, name: string): Loose | undefined {
  const profiles = Array.isArray(config.profiles)
    ? config.profiles
    : Array.isArray(config.load)
      ? config.load
      : config.load
        ? [config.load]
        : [];
  const list = profiles.filter((p): p is Loose => typeof p === 'object' && p !== null);
  return list.find((p) => p.name === name) ?? (list.length === 1 ? list[0] : undefined);
}

function modeConfigOf(config: Loose, name: string): Loose | undefined {
  const modes = Array.isArray(config.modes) ? config.modes : [];
  return modes.find((m): m is Loose => typeof m === 'object' && m !== null && (m as Loose).name === name);
}

function describeLoad(profile: Loose | undefined): string {
  if (!profile) return 'unknown';
  const model = String(profile.model ?? 'open');
  const size = model === 'closed' ? `${profile.vus ?? '?'} VUs` : `${profile.rate ?? 'script'} rps`;
  return `${model} ${size} × ${String(profile.duration ?? '?')}`;
}

function describeWorkload(profile: Loose | undefined, mode: Loose | undefined, mesh: string | undefined): string {
  const parts: string[] = [];
  if (profile) {
    parts.push(`${String(profile.protocol ?? 'http')} ${String(profile.method ?? 'GET')} ${String(profile.path ?? '/')}`);
    if (typeof profile.payloadBytes === 'number') parts.push(`payload ${profile.payloadBytes} B`);
    else if (typeof profile.body === 'string') parts.push(`body ${profile.body.length} B`);
    if (typeof profile.script === 'string') parts.push(`script ${profile.script}`);
  }
  const target = mode?.mesh ?? mesh;
  if (target) parts.push(`mesh ${String(target)}`);
  const local = mode?.local as Loose | undefined;
  if (local)
    parts.push(`local hops ${String(local.hops ?? 0)} delay ${String(local.delay ?? '0s')} jitter ${String(local.jitter ?? '0s')}`);
  return parts.length > 0 ? parts.join(', ') : 'unknown';
}
