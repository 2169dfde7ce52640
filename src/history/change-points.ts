// The series a suite's history holds, and their change points: per branch (pull-request runs
// left out), load profile, mode and figure: p50 as a ratio to the same run's baseline (cancels
// runner drift), p50, p99, error rate and CPU per 1000 rps. Each change point says what differed
// between the last run before it and the first after: commits, mesh and Kubernetes versions,
// runner class. Read from the suite index only, so it costs no run file reads. Pure.
import { DEFAULT_DETECT_OPTIONS, type DetectOptions, detectChangePoints } from '../analysis/change-points/detect.ts';
import type { FactChange } from '../results/facts.ts';
import { type IndexEntry, type IndexModeEntry, sortEntries } from './suite-index.ts';

export const CHANGE_POINT_METRICS = ['ratio', 'p50', 'p99', 'err', 'cpu'] as const;
export type ChangePointMetric = (typeof CHANGE_POINT_METRICS)[number];

export const METRIC_LABEL: Record<ChangePointMetric, string> = {
  ratio: 'p50 ratio to baseline',
  p50: 'p50',
  p99: 'p99',
  err: 'error rate',
  cpu: 'CPU per 1000 rps',
};

/** Error rates move in absolute points (0.5 pt); the rest multiplicatively (2%). */
export function detectOptionsFor(metric: ChangePointMetric): Partial<DetectOptions> {
  return metric === 'err' ? { scale: 'linear', minMagnitude: 0.005 } : { scale: 'log', minMagnitude: DEFAULT_DETECT_OPTIONS.minMagnitude };
}

export interface SegmentInfo {
  /** First and last run of the segment. */
  from: string;
  to: string;
  runs: number;
  median: number;
  low: number;
  high: number;
  coverage: number;
}

export interface WhatChanged {
  /** Commits of the last run before and the first after (the range between them). */
  commits?: [string, string];
  repository?: string;
  k8s?: [string, string];
  /** mesh → [before, after]. */
  mesh?: Record<string, [string, string]>;
  runnerClass?: [string, string];
  /**
   * Every other field that differed (history/changed-fields.ts): settings, images, the k6 binary,
   * the runner's image, files; read from the two runs' files, so absent where they are gone.
   */
  fields?: FactChange[];
  /** Fields left out of `fields` (it lists at most MAX_FIELDS). */
  more?: number;
  /** Fields a run written before v7 could not record, so not compared. */
  unknown?: number;
}

/** The fields of a change between two runs as a change point keeps them. */
export type ChangedFields = Pick<WhatChanged, 'fields' | 'more' | 'unknown'>;

/** Two runs as the key of their changed fields in a change-points file (a step moves many series at the same pair). */
export const pairKey = (before: string, after: string) => `${before} ${after}`;

/** The change points with their pair's changed fields in `changed` again (the file stores them once per pair of runs). */
export function withFields(list: unknown[], fields: Record<string, unknown> | undefined): unknown[] {
  if (!fields || typeof fields !== 'object') return list;
  return list.map((cp) => {
    const c = cp as { before?: unknown; after?: unknown; changed?: unknown };
    const extra = fields[pairKey(String(c?.before), String(c?.after))];
    return extra && typeof extra === 'object' && c.changed && typeof c.changed === 'object'
      ? { ...c, changed: { ...c.changed, ...extra } }
      : cp;
  });
}

export interface SeriesKey {
  branch: string;
  profile: string;
  mode: string;
  metric: ChangePointMetric;
}

export interface SuiteChangePoint extends SeriesKey {
  /** Last run before the change and first run after it. */
  before: string;
  after: string;
  afterStartedAt: string;
  /** Relative change (0.1 = +10%), or absolute for error rates; with its 95% interval. */
  size: number;
  sizeLow: number;
  sizeHigh: number;
  p: number;
  /** Higher is worse for every figure here: latency, ratio, errors, CPU. */
  slower: boolean;
  segments: [SegmentInfo, SegmentInfo];
  changed: WhatChanged;
}

export interface SeriesResult extends SeriesKey {
  /** Runs analysed (the newest ANALYSED_RUNS with the figure). */
  runs: number;
  /** Runs of this branch that had no value for this figure (missing statistic, mode not valid). */
  missing: number;
  /** Why no change point could be looked for, when none could. */
  skipped?: string;
  changePoints: SuiteChangePoint[];
}

export interface SuiteChangePoints {
  series: SeriesResult[];
  /** Newest first. */
  changePoints: SuiteChangePoint[];
  /** Set when the store has no such history at all (a git store's branch that does not exist): why. */
  absent?: string;
}

function figureOf(mode: IndexModeEntry | undefined, metric: ChangePointMetric): number | undefined {
  if (!mode || mode.valid === 0) return undefined;
  return mode.s[metric]?.[0];
}

/** Runs that belong in a trend: valid, not from a pull request, one per run id (the newest file). */
export function trendRuns(entries: readonly IndexEntry[]): IndexEntry[] {
  const byId = new Map<string, IndexEntry>();
  for (const e of sortEntries([...entries])) if (e.verdict !== 'invalid' && e.pr === undefined) byId.set(e.id, e);
  // Map keeps first-insertion order: re-inserting a later duplicate keeps its earlier slot, so sort once more.
  return byId.size === entries.length ? [...byId.values()] : sortEntries([...byId.values()]);
}

/**
 * The newest runs of a series that are analysed: a year of daily runs. The merge step re-tests
 * segments as long as the series, so its cost grows with the square of the length; at 3 years ×
 * 20 scenarios the whole history cost a publish 4 s of CPU, a year of it about a second. Older
 * change points are not listed (the dashboard says over how many runs it looked).
 */
export const ANALYSED_RUNS = 365;

/** "branch␀profile␀mode␀metric": one series. */
export function seriesKeyOf(key: SeriesKey): string {
  return `${key.branch}\u0000${key.profile}\u0000${key.mode}\u0000${key.metric}`;
}

/** "profile␀mode␀metric" of every series a run has a point in (what suiteChangePoints gathers). */
export function seriesPoints(run: IndexEntry): string[] {
  const keys: string[] = [];
  for (const profile in run.modes) {
    const modes = run.modes[profile]!;
    for (const mode in modes) {
      for (const metric of CHANGE_POINT_METRICS) {
        const v = figureOf(modes[mode], metric);
        if (v !== undefined && Number.isFinite(v) && (metric === 'err' || v > 0)) keys.push(`${profile}\u0000${mode}\u0000${metric}`);
      }
    }
  }
  return keys;
}

/**
 * Points per series ("branch␀profile␀mode␀metric") that `runs` hold, each run counted as seriesPoints
 * counts it; counted in nested maps and keyed once per series, not once per point (a publish counts
 * the settled months' tail of every suite: hundreds of runs × a hundred series).
 */
export function countSeriesPoints(runs: readonly IndexEntry[]): Map<string, number> {
  const byBranch = new Map<string, Map<string, Map<string, number[]>>>();
  for (const run of runs) {
    const branch = run.branch ?? '';
    let byProfile = byBranch.get(branch);
    if (!byProfile) byBranch.set(branch, (byProfile = new Map()));
    for (const profile in run.modes) {
      let byMode = byProfile.get(profile);
      if (!byMode) byProfile.set(profile, (byMode = new Map()));
      const modes = run.modes[profile]!;
      for (const mode in modes) {
        let counts = byMode.get(mode);
        if (!counts) byMode.set(mode, (counts = CHANGE_POINT_METRICS.map(() => 0)));
        for (let m = 0; m < CHANGE_POINT_METRICS.length; m++) {
          const metric = CHANGE_POINT_METRICS[m]!;
          const v = figureOf(modes[mode], metric);
          if (v !== undefined && Number.isFinite(v) && (metric === 'err' || v > 0)) counts[m]!++;
        }
      }
    }
  }
  const out = new Map<string, number>();
  for (const [branch, byProfile] of byBranch)
    for (const [profile, byMode] of byProfile)
      for (const [mode, counts] of byMode)
        counts.forEach((n, m) => {
          if (n > 0) out.set(`${branch}\u0000${profile}\u0000${mode}\u0000${CHANGE_POINT_METRICS[m]}`, n);
        });
  return out;
}

export interface ChangePointOptions {
  branch?: string;
  /** Only these series (seriesKeyOf). */
  only?: ReadonlySet<string>;
  /**
   * Runs (per branch) and points (per "branch␀profile␀mode␀metric") of the history that `entries`
   * leaves out (settled months, settled.ts): counted in a series' "missing", never analysed.
   */
  offsets?: { runs: ReadonlyMap<string, number>; points: ReadonlyMap<string, number> };
}

export function suiteChangePoints(entries: readonly IndexEntry[], options: ChangePointOptions = {}): SuiteChangePoints {
  const runs = trendRuns(entries);
  const branches = new Map<string, IndexEntry[]>();
  for (const run of runs) {
    const branch = run.branch ?? '';
    if (options.branch !== undefined && branch !== options.branch) continue;
    let list = branches.get(branch);
    if (!list) branches.set(branch, (list = []));
    list.push(run);
  }
  const series: SeriesResult[] = [];
  for (const [branch, list] of [...branches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // One pass over the runs gathers every series of the branch, in run order (nested maps: no
    // string keys built per point, which was most of the time at 3 years × 20 scenarios).
    const byProfile = new Map<string, Map<string, { run: IndexEntry; v: number }[][]>>();
    for (const run of list) {
      for (const profile in run.modes) {
        let byMode = byProfile.get(profile);
        if (!byMode) byProfile.set(profile, (byMode = new Map()));
        const modes = run.modes[profile]!;
        for (const mode in modes) {
          let perMetric = byMode.get(mode);
          if (!perMetric) byMode.set(mode, (perMetric = CHANGE_POINT_METRICS.map(() => [])));
          const entry = modes[mode]!;
          for (let m = 0; m < CHANGE_POINT_METRICS.length; m++) {
            const metric = CHANGE_POINT_METRICS[m]!;
            const v = figureOf(entry, metric);
            // A figure no run of this series has (the baseline's ratio, CPU without a cluster) is no series.
            if (v !== undefined && Number.isFinite(v) && (metric === 'err' || v > 0)) perMetric[m]!.push({ run, v });
          }
        }
      }
    }
    const gathered = new Map<string, { run: IndexEntry; v: number }[]>();
    for (const [profile, byMode] of byProfile)
      for (const [mode, perMetric] of byMode)
        CHANGE_POINT_METRICS.forEach((metric, m) => gathered.set(`${profile}\u0000${mode}\u0000${metric}`, perMetric[m]!));
    for (const key of [...gathered.keys()].sort()) {
      const points = gathered.get(key)!;
      if (points.length === 0) continue;
      const [profile, mode, metric] = key.split('\u0000') as [string, string, ChangePointMetric];
      if (options.only && !options.only.has(seriesKeyOf({ branch, profile, mode, metric }))) continue;
      const recent = points.slice(-ANALYSED_RUNS);
      const left = options.offsets
        ? (options.offsets.runs.get(branch) ?? 0) - (options.offsets.points.get(`${branch}\u0000${key}`) ?? 0)
        : 0;
      series.push(seriesChangePoints({ branch, profile, mode, metric }, recent, list.length - points.length + left));
    }
  }
  const all = series.flatMap((s) => s.changePoints);
  all.sort((a, b) => (a.afterStartedAt < b.afterStartedAt ? 1 : a.afterStartedAt > b.afterStartedAt ? -1 : 0));
  return { series, changePoints: all };
}

function seriesChangePoints(key: SeriesKey, points: { run: IndexEntry; v: number }[], missing: number): SeriesResult {
  const base: SeriesResult = { ...key, runs: points.length, missing, changePoints: [] };
  const found = detectChangePoints(
    points.map((p) => p.v),
    detectOptionsFor(key.metric),
  );
  if (!found.ok) return { ...base, skipped: found.reason };
  const segmentInfo = (s: { from: number; to: number; median: number; low: number; high: number; coverage: number }): SegmentInfo => ({
    from: points[s.from]!.run.id,
    to: points[s.to - 1]!.run.id,
    runs: s.to - s.from,
    median: s.median,
    low: s.low,
    high: s.high,
    coverage: s.coverage,
  });
  base.changePoints = found.changePoints.map((cp) => {
    const before = points[cp.index - 1]!.run;
    const after = points[cp.index]!.run;
    return {
      ...key,
      before: before.id,
      after: after.id,
      afterStartedAt: after.startedAt,
      size: cp.size,
      sizeLow: cp.sizeLow,
      sizeHigh: cp.sizeHigh,
      p: cp.p,
      slower: cp.size > 0,
      segments: [segmentInfo(cp.before), segmentInfo(cp.after)],
      changed: whatChanged(before, after),
    };
  });
  return base;
}

export function whatChanged(before: IndexEntry, after: IndexEntry): WhatChanged {
  const out: WhatChanged = {};
  if (before.sha && after.sha && before.sha !== after.sha) out.commits = [before.sha, after.sha];
  if (after.repository) out.repository = after.repository;
  const k8s = [before.env?.k8s, after.env?.k8s];
  if (k8s[0] !== k8s[1]) out.k8s = [k8s[0] ?? 'unknown', k8s[1] ?? 'unknown'];
  for (const name of new Set([...Object.keys(before.env?.mesh ?? {}), ...Object.keys(after.env?.mesh ?? {})])) {
    const pair: [string, string] = [before.env?.mesh?.[name] ?? 'none', after.env?.mesh?.[name] ?? 'none'];
    if (pair[0] !== pair[1]) (out.mesh ??= {})[name] = pair;
  }
  if ((before.runnerClass ?? '') !== (after.runnerClass ?? ''))
    out.runnerClass = [before.runnerClass ?? 'unknown', after.runnerClass ?? 'unknown'];
  return out;
}

/** One line for terminals, logs and annotations. */
export function describeChangePoint(cp: SuiteChangePoint): string {
  const size =
    cp.metric === 'err'
      ? `${signed(cp.size * 100, 2)} pt [${signed(cp.sizeLow * 100, 2)}, ${signed(cp.sizeHigh * 100, 2)}]`
      : `${signed(cp.size * 100, 1)}% [${signed(cp.sizeLow * 100, 1)}%, ${signed(cp.sizeHigh * 100, 1)}%]`;
  const where = `${cp.profile} · ${cp.mode} · ${METRIC_LABEL[cp.metric]}${cp.branch ? ` on ${cp.branch}` : ''}`;
  const changed = describeChanges(cp.changed);
  return `${where}: ${size} between runs ${cp.before} and ${cp.after}${changed ? `; changed: ${changed}` : '; nothing recorded changed'}`;
}

export function describeChanges(changed: WhatChanged): string {
  const parts: string[] = [];
  if (changed.commits) parts.push(`commits ${changed.commits[0].slice(0, 7)}..${changed.commits[1].slice(0, 7)}`);
  for (const [mesh, [a, b]] of Object.entries(changed.mesh ?? {})) parts.push(`${mesh} ${a} → ${b}`);
  if (changed.k8s) parts.push(`Kubernetes ${changed.k8s[0]} → ${changed.k8s[1]}`);
  if (changed.runnerClass) parts.push(`runner ${changed.runnerClass[0]} → ${changed.runnerClass[1]}`);
  for (const f of changed.fields ?? []) parts.push(`${f.key} ${f.before} → ${f.after}`);
  if (changed.more) parts.push(`${changed.more} more`);
  return parts.join(', ');
}

function signed(v: number, digits: number): string {
  return `${v >= 0 ? '+' : ''}${v.toFixed(digits)}`;
}
