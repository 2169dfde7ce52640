// The per-suite index: one entry per run with what the dashboard draws and what base lookups
// filter on (branch, commit, event, runner class), plus the git blob id of the run's body so a
// publish can tell, without reading every run, which files changed since they were indexed.
// Stored in shards, one per month of run starts (layout.ts): a day's publish rewrites only the
// newest shard, one run per line so the rewrite is a one-line diff. The dashboard reads the same
// shards in the browser and draws from them. Pure.

import type { RunView, SummaryStat } from '../report/view.ts';
import type { Verdict } from '../results/types.ts';
import { monthOf } from './layout.ts';
import { jsonScript, parseJsonScript } from './store-scripts.ts';

/** 3: sharded by month, modes as arrays (INDEX_FIGURES), no achieved rps, no report path (the run page is one). */
export const INDEX_SCHEMA_VERSION = 3;
export const INDEX_KIND = 'mesh-perf-suite-index';
export const INDEX_CI_LEVEL = 0.95;
/** The statistics the dashboard can plot; the rest stay in the run files. */
export const INDEX_STATS = ['p50', 'p90', 'p95', 'p99', 'p999', 'max'] as const satisfies readonly SummaryStat[];
/** Figures of a mode with an interval, in the order a stored mode lists them; then the error rate. */
const INDEX_FIGURES = [...INDEX_STATS, 'ratio', 'cpu'] as const;

/** [median, low, high] over repetitions. */
export type Triple = [number, number, number];

export interface IndexModeEntry {
  /** Repetitions, and how many were valid. */
  n: number;
  valid: number;
  /**
   * Latency statistics (ms); `ratio`: p50 as a ratio to the same run's baseline; `cpu`: CPU
   * millicores per 1000 rps; `err`: error rate (a single value: [rate, rate, rate]).
   */
  s: Partial<Record<(typeof INDEX_FIGURES)[number] | 'err', Triple>>;
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
  /** The run's body file, relative to the store root (its page: layout.ts runPageHref). */
  file: string;
  /** Git blob id of the body file as stored. */
  blob: string;
  /** schemaVersion of the run (older runs are migrated on read). */
  v: number;
  startedAt: string;
  verdict: Verdict;
  sha?: string;
  branch?: string;
  event?: string;
  pr?: number;
  /** A PR's base commit (pull_request.base.sha). */
  baseSha?: string;
  baseRef?: string;
  repository?: string;
  platform: string;
  runnerClass?: string;
  invalidReps: number;
  baseline: string;
  env?: IndexEnvironment;
  /** profile → mode → figures. */
  modes: Record<string, Record<string, IndexModeEntry>>;
}

/** A suite's index in memory: every shard's entries together. */
export interface SuiteIndex {
  suite: string;
  ciLevel: number;
  runs: IndexEntry[];
}

export function emptyIndex(suite: string): SuiteIndex {
  return { suite, ciLevel: INDEX_CI_LEVEL, runs: [] };
}

/** The dashboard's entry of one run, from the run's view (the one its page renders). */
export function indexEntryFor(view: RunView, file: string, blob: string): IndexEntry {
  const modes: IndexEntry['modes'] = {};
  const triple = (f: { value: number; low: number; high: number }): Triple => [sig(f.value), sig(f.low), sig(f.high)];
  for (const row of view.modes) {
    const s: IndexModeEntry['s'] = {};
    for (const stat of INDEX_STATS) {
      const figure = row.latency[stat];
      if (figure) s[stat] = triple(figure);
    }
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
    blob,
    v: view.schemaVersion,
    startedAt: view.run.startedAt,
    verdict: view.verdict,
    platform: view.run.platform,
    invalidReps: view.invalid.length,
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

/** Entries by the month their run started in, months in order. */
export function byMonth(entries: readonly IndexEntry[]): Map<string, IndexEntry[]> {
  const months = new Map<string, IndexEntry[]>();
  for (const entry of entries) {
    const month = monthOf(entry.startedAt);
    let list = months.get(month);
    if (!list) months.set(month, (list = []));
    list.push(entry);
  }
  return new Map([...months].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A stored mode: [n, valid, then each of INDEX_FIGURES as median, low, high (or one null), then the error rate or null]. */
type StoredMode = (number | null)[];

function storeMode(mode: IndexModeEntry): StoredMode {
  const out: StoredMode = [mode.n, mode.valid];
  for (const figure of INDEX_FIGURES) {
    const t = mode.s[figure];
    if (t) out.push(t[0], t[1], t[2]);
    else out.push(null);
  }
  out.push(mode.s.err ? mode.s.err[0] : null);
  return out;
}

function readMode(stored: StoredMode): IndexModeEntry | undefined {
  if (!Array.isArray(stored) || typeof stored[0] !== 'number' || typeof stored[1] !== 'number') return undefined;
  const s: IndexModeEntry['s'] = {};
  let at = 2;
  for (const figure of INDEX_FIGURES) {
    const value = stored[at];
    if (value === null) {
      at += 1;
      continue;
    }
    const [low, high] = [stored[at + 1], stored[at + 2]];
    if (typeof value !== 'number' || typeof low !== 'number' || typeof high !== 'number') return undefined;
    s[figure] = [value, low, high];
    at += 3;
  }
  const err = stored[at];
  if (err === undefined || (err !== null && typeof err !== 'number') || at + 1 !== stored.length) return undefined;
  if (typeof err === 'number') s.err = [err, err, err];
  return { n: stored[0], valid: stored[1], s };
}

/** An index shard: the runs of one month of a suite, oldest first, one per line. */
export function serializeShard(suite: string, month: string, entries: readonly IndexEntry[], ciLevel = INDEX_CI_LEVEL): string {
  const head = JSON.stringify({ schemaVersion: INDEX_SCHEMA_VERSION, kind: INDEX_KIND, suite, month, ciLevel });
  const lines = sortEntries([...entries]).map((e) => {
    const { modes, ...rest } = e;
    const stored: Record<string, Record<string, StoredMode>> = {};
    for (const [profile, byMode] of Object.entries(modes)) {
      stored[profile] = Object.fromEntries(Object.entries(byMode).map(([mode, m]) => [mode, storeMode(m)]));
    }
    return JSON.stringify({ ...rest, modes: stored });
  });
  return jsonScript('index', `${head.slice(0, -1)},"runs":[${lines.length ? `\n${lines.join(',\n')}\n` : ''}]}`);
}

export type ShardParse = { ok: true; entries: IndexEntry[]; ciLevel: number } | { ok: false; reason: string };

/** Validates a shard; a newer schemaVersion is an error (we would lose what we cannot read). */
export function parseShard(text: string, suite: string, month: string): ShardParse {
  const parsed = parseJsonScript(text, 'index');
  return parsed.ok ? readShard(parsed.value, suite, month) : parsed;
}

/** A shard's document (as its script hands it to a page, or parsed from its text), checked and decoded. */
export function readShard(raw: unknown, suite: string, month: string): ShardParse {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'is not a JSON object' };
  const doc = raw as Record<string, unknown>;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, reason: `has no valid schemaVersion (got ${JSON.stringify(version)}, expected ${INDEX_SCHEMA_VERSION})` };
  }
  if (version > INDEX_SCHEMA_VERSION) {
    return {
      ok: false,
      reason: `has schemaVersion ${version}, newer than this mesh-perf understands (${INDEX_SCHEMA_VERSION}); upgrade mesh-perf`,
    };
  }
  if (version < INDEX_SCHEMA_VERSION) return { ok: false, reason: `has schemaVersion ${version}; shards start at ${INDEX_SCHEMA_VERSION}` };
  if (doc.kind !== INDEX_KIND) return { ok: false, reason: `has kind ${JSON.stringify(doc.kind)}, expected "${INDEX_KIND}"` };
  if (doc.suite !== suite) return { ok: false, reason: `belongs to suite ${JSON.stringify(doc.suite)}, expected "${suite}"` };
  if (doc.month !== month) return { ok: false, reason: `is for month ${JSON.stringify(doc.month)}, expected "${month}" (its file name)` };
  if (!Array.isArray(doc.runs)) return { ok: false, reason: 'has no "runs" list' };
  const entries: IndexEntry[] = [];
  for (const [i, run] of doc.runs.entries()) {
    const r = run as Partial<IndexEntry> & { modes?: Record<string, Record<string, StoredMode>> };
    const malformed = { ok: false as const, reason: `has a malformed entry at runs[${i}] (expected id, file, blob, startedAt, modes)` };
    if (
      !r ||
      typeof r.id !== 'string' ||
      typeof r.file !== 'string' ||
      typeof r.blob !== 'string' ||
      typeof r.startedAt !== 'string' ||
      Number.isNaN(Date.parse(r.startedAt)) ||
      typeof r.modes !== 'object' ||
      r.modes === null
    ) {
      return malformed;
    }
    if (monthOf(r.startedAt) !== month)
      return { ok: false, reason: `lists run ${r.id}, which started in ${monthOf(r.startedAt)}, not ${month}` };
    const modes: IndexEntry['modes'] = {};
    for (const [profile, byMode] of Object.entries(r.modes)) {
      if (typeof byMode !== 'object' || byMode === null) return malformed;
      modes[profile] = {};
      for (const [mode, stored] of Object.entries(byMode)) {
        const entry = readMode(stored);
        if (!entry) return { ok: false, reason: `has a malformed mode ${profile} · ${mode} at runs[${i}]` };
        modes[profile]![mode] = entry;
      }
    }
    entries.push({ ...(r as IndexEntry), modes });
  }
  return { ok: true, entries, ciLevel: typeof doc.ciLevel === 'number' ? doc.ciLevel : INDEX_CI_LEVEL };
}

/** Five significant digits: far below run-to-run noise, and the index stays small. */
export function sig(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(5));
}
