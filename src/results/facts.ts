// A run as a flat map of facts (name → value): its commit, tools, machine and runner image, the
// action that ran it, k6's binary, kind, the images of the control planes and of every mode's pods,
// the files it read, each mode's settings fingerprint, the platform's versions, and every setting
// of its config that can change what is measured. Two runs' maps side by side give every field that
// differed between them (a change point's "what changed", a confirmation's list of settings). Pure.
import type { RunResult } from './types.ts';

export type Facts = Record<string, string>;

/** One field that differs between two runs; "none" where a run had no value. */
export interface FactChange {
  key: string;
  before: string;
  after: string;
}

/** Fact families run.provenance holds: unknown, not absent, in a run written before it (v7). */
const PROVENANCE_FAMILIES = [
  'runner.imageOS',
  'runner.imageVersion',
  'runner.docker',
  'action.',
  'k6.',
  'kind.',
  'file.',
  'settings.',
  'image@',
];

/**
 * Config sections that say how the run is judged, reported or stored, not what it measures, and
 * per-profile fields derived from others (durationMs from duration) or about the run's length.
 */
const NOT_MEASURED = new Set(['out', 'suite', 'gates', 'history', 'github', 'calibrate', 'armsFromBase', 'baseline', 'plan']);
const PROFILE_DERIVED = new Set([
  'name',
  'durationMs',
  'warmupMs',
  'timeoutMs',
  'expectedLatencyMs',
  'pauseMs',
  'untilDecided',
  'repetitions',
]);

type Raw = Record<string, unknown>;
const record = (value: unknown): Raw => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Raw) : {});

export function runFacts(result: RunResult): Facts {
  const out: Facts = {};
  const put = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  };
  const { run } = result;
  put('commit', run.git.sha);
  put('platform', run.platform);
  for (const [tool, version] of Object.entries(run.tools)) put(`tools.${tool}`, version);
  put('runner.class', run.machine.runnerClass);
  put('runner.cpu', run.machine.cpuModel);
  put('runner.cores', run.machine.cores);
  put('runner.memoryMiB', run.machine.memoryMiB);
  put('runner.os', run.machine.os);
  const p = run.provenance;
  put('runner.imageOS', p?.runner?.imageOS);
  put('runner.imageVersion', p?.runner?.imageVersion);
  put('runner.docker', p?.runner?.docker);
  put('action.repository', p?.action?.repository);
  put('action.ref', p?.action?.ref);
  put('action.sha', p?.action?.sha);
  put('k6.sha256', p?.k6?.sha256);
  put('k6.source', p?.k6?.source);
  put('kind.version', p?.kind?.version);
  put('kind.nodeImage', p?.kind?.nodeImage);
  // A control plane's component image (recorded by provenance) and a mode's pods' (in the environment) are told apart by @ and /.
  for (const [component, image] of Object.entries(p?.images ?? {})) put(`image@${component}`, image);
  for (const [path, sha] of Object.entries(p?.files ?? {})) put(`file.${path}`, sha);
  for (const [mode, fingerprint] of Object.entries(p?.settings ?? {})) put(`settings.${mode}`, fingerprint);
  environmentFacts(run.environment, put);
  configFacts(result.config, put);
  return out;
}

function environmentFacts(environment: Raw, put: (key: string, value: unknown) => void): void {
  put('kubernetes.version', record(environment.kubernetes).version);
  const nodes = record(environment.nodes);
  put('kubernetes.nodes', nodes.count);
  const items = Array.isArray(nodes.items) ? nodes.items.map(record) : [];
  for (const field of ['kubelet', 'runtime', 'os', 'arch'] as const) {
    const values = [...new Set(items.map((n) => n[field]).filter((v): v is string => typeof v === 'string'))].sort();
    put(`kubernetes.node.${field}`, values.join(', '));
  }
  put('kubernetes.cni', environment.cni);
  for (const [mesh, info] of Object.entries(record(environment.meshes))) put(`mesh.${mesh}`, record(info).version);
  for (const [mode, containers] of Object.entries(record(record(environment.images).running)))
    for (const [container, image] of Object.entries(record(containers))) put(`image.${mode}/${container}`, image);
  put('echoServer', environment.echoServer);
}

/** Every leaf of the config that can change what is measured: modes and load profiles keyed by name, not position. */
function configFacts(config: Raw, put: (key: string, value: unknown) => void): void {
  const leaves = (prefix: string, value: unknown, skip?: Set<string>) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) if (!skip?.has(key)) leaves(`${prefix}.${key}`, child);
    } else put(prefix, value);
  };
  const cluster = config.platform === 'kind' || config.platform === 'kubeconfig';
  for (const [key, value] of Object.entries(config)) {
    // The kubernetes section's defaults are in every config; off a cluster they mean nothing.
    if (NOT_MEASURED.has(key) || (key === 'kubernetes' && !cluster)) continue;
    if (key === 'modes' && Array.isArray(value)) {
      for (const mode of value.map(record)) leaves(`config.modes.${String(mode.name)}`, mode, new Set(['name', 'arm']));
    } else if (key === 'profiles' && Array.isArray(value)) {
      for (const profile of value.map(record)) leaves(`config.load.${String(profile.name)}`, profile, PROFILE_DERIVED);
    } else leaves(`config.${key}`, value);
  }
  put('config.plan.order', record(config.plan).order);
}

/**
 * The fields that differ between two runs, in key order. A fact a run written before v7 could not
 * record (run.provenance) is left out rather than shown as changed; `unknown` counts those.
 */
export function diffFacts(
  before: Facts,
  after: Facts,
  migrated: { before?: boolean; after?: boolean } = {},
): { changes: FactChange[]; unknown: number } {
  const changes: FactChange[] = [];
  let unknown = 0;
  const provenance = (key: string) => PROVENANCE_FAMILIES.some((f) => (f.endsWith('.') || f.endsWith('@') ? key.startsWith(f) : key === f));
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const a = before[key];
    const b = after[key];
    if (a === b) continue;
    if (provenance(key) && ((a === undefined && migrated.before) || (b === undefined && migrated.after))) {
      unknown++;
      continue;
    }
    changes.push({ key, before: a ?? 'none', after: b ?? 'none' });
  }
  return { changes, unknown };
}

/** Whether a run was written before run.provenance existed (its facts from there are unknown, not absent). */
export function provenanceMissing(result: RunResult): boolean {
  return result.run.provenance === undefined || result.run.provenance.migratedFrom !== undefined;
}
