// A suite's settled months, summed up in one small file beside its change points
// (runs/<suite>/settled.<suite>.js), so a day's publish reads that file and the recent shards
// instead of every shard. Months before `before` are settled: a daily publish adds nothing to them
// and their runs' timelines are already dropped. The file holds what a publish needs of them:
//  - `tail`: the runs that are among the newest ANALYSED_RUNS points of some change-point series
//    (their figures only), so change points come out as if every shard had been read;
//  - `trend`: per branch, how many runs and points per series the settled months hold (a series'
//    "missing" count), `summary`: what the marker says of the suite (runs, profiles, modes, ...);
//  - `shards` (the blob id of each settled month's shard) and `files` (a digest of the settled
//    months' run and timelines files with their blob ids, a file's month read from its name) as
//    they were written: if anything there changed since (by hand, or a publish of an older
//    mesh-perf), the publish reads every shard as before, checking them all. The recent months'
//    files are checked against their shards at every publish, as before.
// Nothing in it changes while its months stay settled, so it is rewritten about once a month (a
// daily rewrite of its ~0.5 MiB would cost git a full copy every few dozen versions). Pure.
import { createHash } from 'node:crypto';
import { ANALYSED_RUNS, CHANGE_POINT_METRICS, countSeriesPoints, seriesPoints, trendRuns } from './change-points.ts';
import { monthOf, suiteRoot } from './layout.ts';
import type { SuiteSummaryInfo } from './marker.ts';
import { jsonScript, parseJsonScript } from './store-scripts.ts';
import { type IndexEntry, type IndexEnvironment, sortEntries } from './suite-index.ts';

export const SETTLED_SCHEMA_VERSION = 1;
export const SETTLED_KIND = 'mesh-perf-settled-months';

export function settledPath(suite: string): string {
  return `${suiteRoot(suite)}/settled.${suite}.js`;
}

/**
 * What suiteSummaryOf says of the settled runs (merged with the recent ones'): the marker's suite
 * summary without its name, modes in order of first appearance (oldest run first), every month.
 */
export interface SettledSummary extends Omit<SuiteSummaryInfo, 'name' | 'months'> {
  months: string[];
  /** Runs not from a pull request, per branch (the change-points file's main branch). */
  nonPr: Record<string, number>;
}

export interface SettledTrend {
  runs: number;
  /** "profile␀mode␀metric" → points. */
  points: Record<string, number>;
}

export interface Settled {
  suite: string;
  /** First month that is not settled ("2025-11"). */
  before: string;
  shards: Record<string, string>;
  files: string;
  summary: SettledSummary;
  trend: Record<string, SettledTrend>;
  /** Runs of the settled months kept for change points, as index entries holding only those figures. */
  tail: IndexEntry[];
  /** Every settled run's id (a publish that brings one again reads every shard). */
  ids: string[];
}

/** A tail run as stored: its change-point figures per profile and mode, [valid, ...CHANGE_POINT_METRICS]. */
type StoredTailRun = Pick<IndexEntry, 'id' | 'file' | 'startedAt' | 'sha' | 'branch' | 'repository' | 'runnerClass'> & {
  env?: IndexEnvironment;
  f: Record<string, Record<string, (number | null)[]>>;
};

/** Digest of the run and timelines files of months before `before`: sorted "path blob" lines. */
export function filesDigest(files: ReadonlyMap<string, string>, before: string): string {
  const hash = createHash('sha1');
  for (const path of [...files.keys()].sort()) {
    const month = fileMonth(path);
    if (month !== undefined && month < before) hash.update(`${path} ${files.get(path)}\n`);
  }
  return hash.digest('hex');
}

/** The month a run or timelines file's name starts with ("…/20250115T030000Z-x.js" → "2025-01"), if it does. */
export function fileMonth(path: string): string | undefined {
  const match = /^(\d{4})(\d{2})\d{2}T\d{6}Z/.exec(path.slice(path.lastIndexOf('/') + 1));
  return match ? `${match[1]}-${match[2]}` : undefined;
}

/** The month before "2025-03" ("2025-02"). */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/**
 * Where settled months end after a publish: the month before the newest, or the oldest month still
 * holding timelines when that is earlier (a publish must read those to drop them in time).
 */
export function settledBoundary(months: readonly string[], timelineMonths: readonly string[]): string | undefined {
  if (months.length === 0) return undefined;
  const newest = [...months].sort().at(-1)!;
  return [previousMonth(newest), ...timelineMonths].sort()[0]!;
}

/** The empty summary of no settled months. */
export function emptySettled(suite: string, before: string): Settled {
  return {
    suite,
    before,
    shards: {},
    files: '',
    summary: { runs: 0, profiles: [], modes: [], branches: [], months: [], nonPr: {} },
    trend: {},
    tail: [],
    ids: [],
  };
}

/**
 * `settled` extended by the runs of the months it now covers (every one older than the new
 * boundary, and newer than everything it already holds), the tail trimmed to what change points need.
 */
export function settle(settled: Settled, entries: readonly IndexEntry[], before: string): Settled {
  const moved = sortEntries(entries.filter((e) => monthOf(e.startedAt) < before));
  // Most days no month becomes settled: the same tail (and its text, tailTexts) again.
  if (moved.length === 0) return { ...settled, before };
  const summary: SettledSummary = {
    ...settled.summary,
    profiles: [...settled.summary.profiles],
    modes: [...settled.summary.modes],
    branches: [...settled.summary.branches],
    months: [...settled.summary.months],
    nonPr: { ...settled.summary.nonPr },
  };
  const profiles = new Set(summary.profiles);
  const modes = new Set(summary.modes);
  const branches = new Set(summary.branches);
  const months = new Set(summary.months);
  for (const run of moved) {
    summary.runs++;
    summary.first ??= run.startedAt;
    summary.last = run.startedAt;
    for (const [profile, byMode] of Object.entries(run.modes)) {
      profiles.add(profile);
      for (const mode of Object.keys(byMode)) modes.add(mode);
    }
    if (run.branch) branches.add(run.branch);
    months.add(monthOf(run.startedAt));
    if (run.pr === undefined) summary.nonPr[run.branch ?? ''] = (summary.nonPr[run.branch ?? ''] ?? 0) + 1;
  }
  summary.profiles = [...profiles].sort();
  summary.modes = [...modes];
  summary.branches = [...branches].sort();
  summary.months = [...months].sort();

  const trend: Record<string, SettledTrend> = {};
  for (const [branch, t] of Object.entries(settled.trend)) trend[branch] = { runs: t.runs, points: { ...t.points } };
  const movedTrend = trendRuns(moved);
  for (const run of movedTrend) {
    const t = (trend[run.branch ?? ''] ??= { runs: 0, points: {} });
    t.runs++;
    for (const key of seriesPoints(run)) t.points[key] = (t.points[key] ?? 0) + 1;
  }
  return {
    ...settled,
    before,
    summary,
    trend,
    tail: trimTail([...settled.tail, ...movedTrend]),
    ids: [...settled.ids, ...moved.map((e) => e.id)],
  };
}

/** The runs that are among the newest ANALYSED_RUNS points of at least one series of their branch. */
function trimTail(runs: IndexEntry[]): IndexEntry[] {
  const sorted = sortEntries(runs);
  const seen = new Map<string, number>();
  const kept: IndexEntry[] = [];
  for (let i = sorted.length - 1; i >= 0; i--) {
    const run = sorted[i]!;
    let needed = false;
    for (const key of seriesPoints(run)) {
      const full = `${run.branch ?? ''}\u0000${key}`;
      const n = seen.get(full) ?? 0;
      if (n < ANALYSED_RUNS) needed = true;
      seen.set(full, n + 1);
    }
    if (needed) kept.push(run);
  }
  return kept.reverse();
}

/** Offsets to add to the runs and points counted in `tail` to get the settled months' (a series' "missing"). */
export function trendOffsets(settled: Settled): { runs: Map<string, number>; points: Map<string, number> } {
  const runs = new Map<string, number>();
  const points = new Map<string, number>();
  for (const [branch, t] of Object.entries(settled.trend)) {
    runs.set(branch, t.runs);
    for (const [key, n] of Object.entries(t.points)) points.set(`${branch}\u0000${key}`, n);
  }
  for (const run of settled.tail) runs.set(run.branch ?? '', (runs.get(run.branch ?? '') ?? 0) - 1);
  for (const [key, n] of countSeriesPoints(settled.tail)) points.set(key, (points.get(key) ?? 0) - n);
  return { runs, points };
}

/** The tail as it was read (its text in the file), reused when it is stored again unchanged. */
const tailTexts = new WeakMap<readonly IndexEntry[], string>();
const TAIL_OPEN = '\n"tail":[';

export function serializeSettled(settled: Settled): string {
  const { suite, before, shards, files, summary, trend, tail, ids } = settled;
  const head = JSON.stringify({ schemaVersion: SETTLED_SCHEMA_VERSION, kind: SETTLED_KIND, suite, before, files, summary, trend, ids });
  const shardLines = Object.keys(shards)
    .sort()
    .map((m) => `${JSON.stringify(m)}:${JSON.stringify(shards[m])}`);
  let tailText = tailTexts.get(tail);
  if (tailText === undefined) {
    const lines = tail.map((run) => JSON.stringify(storeTailRun(run)));
    tailText = lines.length ? `\n${lines.join(',\n')}\n` : '';
  }
  return jsonScript('settled', `${head.slice(0, -1)},\n"shards":{\n${shardLines.join(',\n')}\n},${TAIL_OPEN}${tailText}]}`);
}

export type SettledParse = { ok: true; settled: Settled } | { ok: false; reason: string } | { ok: 'other-version'; version: unknown };

export function parseSettled(text: string, suite: string): SettledParse {
  const parsed = parseJsonScript(text, 'settled');
  if (!parsed.ok) return parsed;
  const doc = parsed.value as Record<string, unknown> | null;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { ok: false, reason: 'is not a JSON object' };
  if (doc.kind !== SETTLED_KIND) return { ok: false, reason: `is not a ${SETTLED_KIND} document (kind ${JSON.stringify(doc.kind)})` };
  if (doc.schemaVersion !== SETTLED_SCHEMA_VERSION) return { ok: 'other-version', version: doc.schemaVersion };
  if (doc.suite !== suite) return { ok: false, reason: `is for suite ${JSON.stringify(doc.suite)}, not ${JSON.stringify(suite)}` };
  const bad = (field: string, expected: string) => ({ ok: false as const, reason: `has an invalid "${field}" (expected ${expected})` });
  if (typeof doc.before !== 'string' || !/^\d{4}-\d{2}$/.test(doc.before)) return bad('before', 'a month such as "2025-11"');
  if (typeof doc.files !== 'string') return bad('files', 'a digest');
  const shards = doc.shards as Record<string, unknown>;
  if (typeof shards !== 'object' || shards === null || Object.values(shards).some((b) => typeof b !== 'string'))
    return bad('shards', 'month → blob id');
  const summary = doc.summary as SettledSummary;
  if (
    typeof summary !== 'object' ||
    summary === null ||
    typeof summary.runs !== 'number' ||
    ![summary.profiles, summary.modes, summary.branches, summary.months].every(Array.isArray) ||
    typeof summary.nonPr !== 'object'
  )
    return bad('summary', 'runs, profiles, modes, branches, months, nonPr');
  const trend = doc.trend as Record<string, SettledTrend>;
  if (
    typeof trend !== 'object' ||
    trend === null ||
    Object.values(trend).some((t) => typeof t?.runs !== 'number' || typeof t.points !== 'object' || t.points === null)
  )
    return bad('trend', 'branch → runs and points');
  if (!Array.isArray(doc.ids) || doc.ids.some((id) => typeof id !== 'string')) return bad('ids', 'a list of run ids');
  if (!Array.isArray(doc.tail)) return bad('tail', 'a list of runs');
  const tail: IndexEntry[] = [];
  for (const [i, raw] of (doc.tail as unknown[]).entries()) {
    const run = readTailRun(raw);
    if (!run) return bad(`tail[${i}]`, 'a run with id, file, startedAt and figures');
    tail.push(run);
  }
  // serializeSettled wrote the tail last: its text runs from TAIL_OPEN to the closing "]});".
  const at = text.lastIndexOf(TAIL_OPEN);
  if (at >= 0 && text.endsWith(']});\n')) tailTexts.set(tail, text.slice(at + TAIL_OPEN.length, -']});\n'.length));
  return {
    ok: true,
    settled: {
      suite,
      before: doc.before,
      files: doc.files,
      shards: shards as Record<string, string>,
      summary,
      trend,
      tail,
      ids: doc.ids as string[],
    },
  };
}

function storeTailRun(run: IndexEntry): StoredTailRun {
  const f: StoredTailRun['f'] = {};
  for (const [profile, byMode] of Object.entries(run.modes)) {
    f[profile] = {};
    for (const [mode, m] of Object.entries(byMode)) f[profile]![mode] = [m.valid, ...CHANGE_POINT_METRICS.map((k) => m.s[k]?.[0] ?? null)];
  }
  const out: StoredTailRun = { id: run.id, file: run.file, startedAt: run.startedAt, f };
  for (const key of ['sha', 'branch', 'repository', 'runnerClass'] as const) if (run[key] !== undefined) out[key] = run[key];
  if (run.env) out.env = run.env;
  return out;
}

function readTailRun(raw: unknown): IndexEntry | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as StoredTailRun;
  if (typeof r.id !== 'string' || typeof r.file !== 'string' || typeof r.startedAt !== 'string' || typeof r.f !== 'object' || r.f === null)
    return undefined;
  const modes: IndexEntry['modes'] = {};
  for (const [profile, byMode] of Object.entries(r.f)) {
    if (typeof byMode !== 'object' || byMode === null) return undefined;
    modes[profile] = {};
    for (const [mode, values] of Object.entries(byMode)) {
      if (!Array.isArray(values) || values.length !== CHANGE_POINT_METRICS.length + 1) return undefined;
      const s: IndexEntry['modes'][string][string]['s'] = {};
      CHANGE_POINT_METRICS.forEach((k, i) => {
        const v = values[i + 1];
        if (typeof v === 'number') s[k] = [v, v, v];
      });
      modes[profile]![mode] = { n: 0, valid: Number(values[0]), s };
    }
  }
  const entry: IndexEntry = {
    id: r.id,
    file: r.file,
    blob: '',
    v: 0,
    startedAt: r.startedAt,
    verdict: 'pass',
    platform: '',
    invalidReps: 0,
    baseline: '',
    modes,
  };
  for (const key of ['sha', 'branch', 'repository', 'runnerClass'] as const) if (typeof r[key] === 'string') entry[key] = r[key];
  if (r.env) entry.env = r.env;
  return entry;
}
