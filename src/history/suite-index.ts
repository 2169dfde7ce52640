// The compact per-suite index: one line per run with what the dashboard draws and what base
// lookups filter on (branch, commit, event, runner class), plus the git blob id of the run file
// so a publish can tell, without reading every run, which files changed since they were indexed.
// Runs are kept oldest first, one per line, so each publish appends a line and git deltas stay
// small. Pure.
import type { Verdict } from '../results/types.ts';
import type { RunView, SummaryStat } from '../report/view.ts';

/** 2: modes carry the overhead ratio, CPU per 1000 rps and error rate; runs their versions (change points). */
export const INDEX_SCHEMA_VERSION = 2;
export const INDEX_KIND = 'mesh-perf-suite-index';
export const INDEX_CI_LEVEL = 0.95;
/** The statistics the dashboard can plot; the rest stay in the run files. */
export const INDEX_STATS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max'] as const satisfies readonly SummaryStat[];

/** [median, low, high] over repetitions. */
export type Triple = [number, number, number];

export interface IndexModeEntry {
  /** Repetitions, and how many were valid. */
  n: number;
  valid: number;
  /**
   * Latency statistics (ms) and achieved rps; `ratio`: p50 as a ratio to the same run's baseline;
   * `cpu`: CPU millicores per 1000 rps; `err`: error rate (a single value: [rate, rate, rate]).
   */
  s: Partial<Record<SummaryStat | 'rps' | 'ratio' | 'cpu' | 'err', Triple>>;
}

/** What a change point lists as changed between two runs. */
export interface IndexEnvironment {
  /** Kubernetes server version. */
  k8s?: string;
  /** mesh → version. */
  mesh?: Record<string, string>;
}

export interface IndexEntry {
  id: string;
  /** Run file, relative to the store root. */
  file: string;
  /** Run report, relative to the store root. */
  report: string;
  /** Git blob id of the run file as stored. */
  blob: string;
  /** schemaVersion of the run file (older files are migrated on read). */
  v: number;
  startedAt: string;
  verdict: Verdict;
  sha?: string;
  branch?: string;
  event?: string;
  pr?: number;
  /** A PR's base commit (pull_request.base.sha); entries written before schema 5 call it mergeBase. */
  baseSha?: string;
  baseRef?: string;
  repository?: string;
  platform: string;
  runnerClass?: string;
  invalidReps: number;
  /** False once the per-second timelines were dropped from the stored run (timeline retention). */
  tl?: boolean;
  baseline: string;
  env?: IndexEnvironment;
  /** profile → mode → figures. */
  modes: Record<string, Record<string, IndexModeEntry>>;
}

export interface SuiteIndex {
  schemaVersion: number;
  kind: typeof INDEX_KIND;
  suite: string;
  ciLevel: number;
  runs: IndexEntry[];
}

export function emptyIndex(suite: string): SuiteIndex {
  return { schemaVersion: INDEX_SCHEMA_VERSION, kind: INDEX_KIND, suite, ciLevel: INDEX_CI_LEVEL, runs: [] };
}

/** The dashboard's entry of one run, from the run's view (the one the report beside it renders). */
export function indexEntryFor(view: RunView, file: string, report: string, blob: string): IndexEntry {
  const modes: IndexEntry['modes'] = {};
  const triple = (f: { value: number; low: number; high: number }): Triple => [sig(f.value), sig(f.low), sig(f.high)];
  for (const row of view.modes) {
    const s: IndexModeEntry['s'] = {};
    for (const stat of INDEX_STATS) {
      const figure = row.latency[stat];
      if (figure) s[stat] = triple(figure);
    }
    if (row.achievedRps) s.rps = triple(row.achievedRps);
    const ratio = row.overhead.p50?.ratio;
    if (ratio) s.ratio = triple(ratio);
    if (row.cpuPer1000Rps) s.cpu = triple(row.cpuPer1000Rps);
    if (row.errors.rate !== undefined) s.err = [sig(row.errors.rate), sig(row.errors.rate), sig(row.errors.rate)];
    (modes[row.profile] ??= {})[row.mode] = { n: row.repetitions, valid: row.valid, s };
  }
  const git = view.run.git;
  const entry: IndexEntry = {
    id: view.run.id,
    file,
    report,
    blob,
    v: view.schemaVersion,
    startedAt: view.run.startedAt,
    verdict: view.verdict,
    platform: view.run.platform,
    invalidReps: view.invalid.length,
    tl: hasTimelines(view),
    baseline: view.baseline,
    modes,
  };
  if (git.sha) entry.sha = git.sha;
  if (git.branch) entry.branch = git.branch;
  if (git.event) entry.event = git.event;
  if (git.pullRequest !== undefined) entry.pr = git.pullRequest;
  if (git.baseSha) entry.baseSha = git.baseSha;
  if (git.baseRef) entry.baseRef = git.baseRef;
  if (git.repository) entry.repository = git.repository;
  if (view.run.machine.runnerClass) entry.runnerClass = view.run.machine.runnerClass;
  const env = environmentOf(view.run.environment);
  if (env.k8s || env.mesh) entry.env = env;
  return entry;
}

/** The versions a platform recorded (Kubernetes: kubernetes.version, meshes.<name>.version). */
function environmentOf(environment: Record<string, unknown>): IndexEnvironment {
  const out: IndexEnvironment = {};
  const k8s = (environment.kubernetes as { version?: unknown } | undefined)?.version;
  if (typeof k8s === 'string' && k8s !== 'unknown') out.k8s = k8s;
  const meshes = environment.meshes;
  if (meshes && typeof meshes === 'object') {
    for (const [name, info] of Object.entries(meshes as Record<string, { version?: unknown }>)) {
      if (typeof info?.version === 'string') (out.mesh ??= {})[name] = info.version;
    }
  }
  return out;
}

/**
 * Oldest first; ties broken by id so the order is deterministic across writers. Compared as
 * instants, not strings: "2025-11-02T10:00:00+02:00" is earlier than "2025-11-02T09:00:00Z".
 */
export function sortEntries(entries: IndexEntry[]): IndexEntry[] {
  // Each start parsed once (a comparator parsing dates was a visible share of a large publish).
  const decorated = entries.map((e) => {
    const t = Date.parse(e.startedAt);
    return { e, t: Number.isNaN(t) ? Infinity : t };
  });
  decorated.sort((a, b) => a.t - b.t || (a.e.id < b.e.id ? -1 : a.e.id > b.e.id ? 1 : 0));
  return decorated.map((d) => d.e);
}

/** One run per line: appends stay one-line diffs. */
export function serializeIndex(index: SuiteIndex): string {
  const head = JSON.stringify({ schemaVersion: index.schemaVersion, kind: index.kind, suite: index.suite, ciLevel: index.ciLevel });
  const runs = sortEntries(index.runs).map((r) => JSON.stringify(r));
  return `${head.slice(0, -1)},"runs":[${runs.length ? `\n${runs.join(',\n')}\n` : ''}]}\n`;
}

export type IndexParse = { ok: true; index: SuiteIndex; storedVersion: number } | { ok: false; reason: string };

/** Validates an index file; a newer schemaVersion is an error (we would lose what we cannot read). */
export function parseIndex(text: string, expectedSuite: string): IndexParse {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `is not valid JSON (${(error as Error).message})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'is not a JSON object' };
  const doc = raw as Record<string, unknown>;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, reason: `has no valid schemaVersion (got ${JSON.stringify(version)}, expected 1..${INDEX_SCHEMA_VERSION})` };
  }
  if (version > INDEX_SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `has schemaVersion ${version}, newer than this mesh-perf understands (${INDEX_SCHEMA_VERSION}); upgrade mesh-perf`,
    };
  }
  if (doc.kind !== INDEX_KIND) return { ok: false, reason: `has kind ${JSON.stringify(doc.kind)}, expected "${INDEX_KIND}"` };
  if (doc.suite !== expectedSuite)
    return { ok: false, reason: `belongs to suite ${JSON.stringify(doc.suite)}, expected "${expectedSuite}"` };
  if (!Array.isArray(doc.runs)) return { ok: false, reason: 'has no "runs" list' };
  for (const [i, run] of doc.runs.entries()) {
    const r = run as Partial<IndexEntry> | null;
    if (
      !r ||
      typeof r.id !== 'string' ||
      typeof r.file !== 'string' ||
      typeof r.blob !== 'string' ||
      typeof r.startedAt !== 'string' ||
      typeof r.modes !== 'object'
    ) {
      return { ok: false, reason: `has a malformed entry at runs[${i}] (expected id, file, blob, startedAt, modes)` };
    }
  }
  return { ok: true, index: { ...(doc as unknown as SuiteIndex), schemaVersion: INDEX_SCHEMA_VERSION }, storedVersion: version };
}

/** Five significant digits: far below run-to-run noise, and the index stays small. */
export function sig(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(5));
}

function hasTimelines(view: RunView): boolean {
  return view.modes.some((m) => m.records.some((r) => r.timeline.length > 0));
}
