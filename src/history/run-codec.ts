// The stored form of a run in a history store: what the report and a re-analysis need, each fact
// once. A run is split in two: its body (everything but the per-second timelines) and its
// timelines (history.keepTimelines drops them after a while; the body never changes again).
// In the body:
//  - repetitions are columns (one array per field, the same field of every repetition side by
//    side), so a field's values compress together;
//  - the plan's trials are not stored where the repetitions already say them (a trial is the
//    repetition with its index, mode, profile and block); only trials that never ran, or a plan
//    that does not follow that rule, are stored as they are;
//  - numbers are stored to 6 significant digits (as results were stored before: far below run
//    to run noise), integers as they are.
// Encoding is checked by decoding: whatever does not come back exactly is stored as it was, so the
// stored form never loses a field a future results schema adds. Pure: no I/O, no compression (see
// stored-run.ts); the browser's run page decodes with this same module.
import type { ModeResult, PlannedTrialRecord, Repetition, RunResult, TimelinePoint } from '../results/types.ts';
import { LATENCY_STATS } from '../results/types.ts';

/** A stored body is a JSON value whose schemaVersion is the results schema's (migrated on read). */
export interface StoredBody {
  schemaVersion: number;
  verdict: string;
  verdictReasons: string[];
  run: RunResult['run'];
  config: Record<string, unknown>;
  baseline: string;
  /**
   * trials absent: implied by the repetitions, plus `unrun` (trials with no repetition) and
   * `numbers` (per mode, each repetition's number when it is not its 1-based place).
   */
  plan: { seed: number; order: string; trials?: PlannedTrialRecord[]; unrun?: PlannedTrialRecord[]; numbers?: (number[] | null)[] };
  modes: StoredMode[];
  analysis?: unknown;
  /** Top-level fields this codec does not know (a newer results schema), kept as they were. */
  more?: Record<string, unknown>;
}

export interface StoredMode {
  name: string;
  profile: string;
  mesh?: string;
  target?: string;
  arm?: ModeResult['arm'];
  /** Repetitions as columns (see columnsOf), or as they were when columns could not hold them. */
  reps: RepetitionColumns | Repetition[];
}

/** Columns of one mode's repetitions: a field of every repetition, in order; a scalar when all are equal. */
export interface RepetitionColumns {
  n: number;
  [field: string]: unknown;
}

/** Fields a Repetition may leave out (the schema's optional ones): null in a column means absent. */
const OPTIONAL_FIELDS = new Set([
  'errorCauses',
  'failedLatencyMs',
  'iterationMs',
  'lateSends',
  'scriptThresholds',
  'resources',
  'instances',
  'path',
  'disruptions',
]);

/** Significant digits of a stored float: as results were always stored, far below run-to-run noise. */
export const STORED_DIGITS = 6;

/** A results value as stored (a copy, as JSON would carry it): floats to 6 significant digits, everything else as it is. */
export function storedNumbers<T>(value: T): T {
  return copyRounded(value) as T;
}

function copyRounded(v: unknown): unknown {
  if (typeof v === 'number') return !Number.isInteger(v) && Number.isFinite(v) ? Number(v.toPrecision(STORED_DIGITS)) : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : copyRounded(x)));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[key];
    if (x !== undefined && typeof x !== 'function') out[key] = copyRounded(x);
  }
  return out;
}

/** A stored body of the run with the given plan and modes: every other field as it is, those a newer schema adds under `more`. */
function bodyOf(result: RunResult, plan: StoredBody['plan'], modes: StoredMode[]): StoredBody {
  const { schemaVersion, verdict, verdictReasons, run, config, baseline, plan: _plan, modes: _modes, analysis, ...more } = result;
  const body: StoredBody = { schemaVersion, verdict, verdictReasons, run, config, baseline, plan, modes };
  if (analysis !== undefined) body.analysis = analysis;
  if (Object.keys(more).length > 0) body.more = more;
  return body;
}

/** The body of a run (timelines left out), checked to decode back to `result` without them. */
export function encodeBody(result: RunResult): StoredBody {
  const body = bodyOf(
    result,
    planOf(result),
    result.modes.map((m) => {
      // Mode fields other than the repetitions (mesh, target, arm, mtls, enrolment, and any a
      // newer schema adds) are stored as they are; decodeBody spreads them back.
      const { name, profile, repetitions, ...fields } = m;
      return { name, profile, ...fields, reps: columnsOrAsIs(repetitions, result.run.startedAt) } as StoredMode;
    }),
  );
  // Whatever the columns above cannot carry back exactly: store such runs whole.
  const decoded = decodeBody(body);
  return sameJson(decoded, withoutTimelines(result)) ? body : { ...wholeBody(result) };
}

/** A body that stores the run's modes as they are (still without timelines). */
function wholeBody(result: RunResult): StoredBody {
  const modes = withoutTimelines(result).modes.map((m) => ({ ...m, reps: m.repetitions, repetitions: undefined }) as unknown as StoredMode);
  return bodyOf(result, { ...result.plan }, modes);
}

/** The run document a body holds, every repetition's timeline empty (stored-run.ts adds them back). */
export function decodeBody(body: StoredBody): RunResult {
  const { schemaVersion, verdict, verdictReasons, run, config, baseline, plan, modes, analysis, more } = body;
  const outModes: ModeResult[] = (modes ?? []).map((m) => {
    const { name, profile, reps, mesh, target, arm, ...rest } = m as StoredMode & Record<string, unknown>;
    const mode: ModeResult = { name, profile, repetitions: Array.isArray(reps) ? reps : repetitionsOf(reps, run?.startedAt) };
    if (mesh !== undefined) mode.mesh = mesh;
    if (target !== undefined) mode.target = target;
    if (arm !== undefined) mode.arm = arm;
    delete (rest as { repetitions?: unknown }).repetitions;
    return Object.keys(rest).length > 0 ? { ...mode, ...rest } : mode;
  });
  const result = {
    ...(more ?? {}),
    schemaVersion,
    verdict,
    verdictReasons,
    run,
    config,
    plan: { seed: plan?.seed, order: plan?.order, trials: plan?.trials ?? impliedTrials(outModes, plan?.unrun ?? [], plan?.numbers ?? []) },
    baseline,
    modes: outModes,
  } as RunResult;
  if (analysis !== undefined) result.analysis = analysis as RunResult['analysis'];
  return result;
}

export function withoutTimelines(result: RunResult): RunResult {
  return { ...result, modes: result.modes.map((m) => ({ ...m, repetitions: m.repetitions.map((r) => ({ ...r, timeline: [] })) })) };
}

/** Every repetition's timeline, modes then repetitions in stored order. */
export function timelinesOf(result: RunResult): TimelinePoint[][] {
  return result.modes.flatMap((m) => m.repetitions.map((r) => r.timeline));
}

export function hasTimelines(result: RunResult): boolean {
  return result.modes.some((m) => m.repetitions.some((r) => r.timeline.length > 0));
}

/** Puts timelines (as timelinesOf lists them) back into a decoded body; undefined when their count does not match. */
export function withTimelines(result: RunResult, timelines: TimelinePoint[][]): RunResult | undefined {
  const count = result.modes.reduce((n, m) => n + m.repetitions.length, 0);
  if (timelines.length !== count) return undefined;
  let i = 0;
  return {
    ...result,
    modes: result.modes.map((m) => ({ ...m, repetitions: m.repetitions.map((r) => ({ ...r, timeline: timelines[i++]! })) })),
  };
}

/** The plan as stored: no trials when the repetitions imply them. */
function planOf(result: RunResult): StoredBody['plan'] {
  const { seed, order, trials } = result.plan;
  const byIndex = new Map(trials.map((t) => [t.index, t]));
  const ran = new Set(result.modes.flatMap((m) => m.repetitions.map((r) => r.trial)));
  const unrun = trials.filter((t) => !ran.has(t.index));
  const numbers = result.modes.map((m) => {
    const list = m.repetitions.map((r, i) => byIndex.get(r.trial)?.repetition ?? i + 1);
    return list.every((n, i) => n === i + 1) ? null : list;
  });
  const plan: StoredBody['plan'] = { seed, order };
  if (!sameJson(impliedTrials(result.modes, unrun, numbers), trials)) return { ...plan, trials };
  if (unrun.length > 0) plan.unrun = unrun;
  if (numbers.some((n) => n !== null)) plan.numbers = numbers;
  return plan;
}

/**
 * The trials the repetitions say: each repetition is the trial of its index, mode, profile and
 * block; its repetition number is its place among the mode's repetitions (1-based) unless
 * `numbers` holds the mode's. With the trials that never ran, in index order.
 */
function impliedTrials(
  modes: readonly ModeResult[],
  unrun: readonly PlannedTrialRecord[],
  numbers: readonly (number[] | null)[],
): PlannedTrialRecord[] {
  const trials: PlannedTrialRecord[] = [...unrun];
  modes.forEach((m, k) => {
    m.repetitions.forEach((r, i) => {
      trials.push({ index: r.trial, mode: m.name, profile: m.profile, repetition: numbers[k]?.[i] ?? i + 1, block: r.block });
    });
  });
  return trials.sort((a, b) => a.index - b.index);
}

function columnsOrAsIs(reps: readonly Repetition[], runStart: string): RepetitionColumns | Repetition[] {
  const columns = columnsOf(reps, runStart);
  const back = repetitionsOf(columns, runStart);
  const strip = (list: readonly Repetition[]) => list.map((r) => ({ ...r, timeline: [] }));
  return sameJson(back, strip(reps)) ? columns : strip(reps);
}

/**
 * One mode's repetitions as columns. startedAt becomes milliseconds after the run's start when
 * every one reads back the same; latency statistics become one column per statistic.
 */
function columnsOf(reps: readonly Repetition[], runStart: string): RepetitionColumns {
  const columns: RepetitionColumns = { n: reps.length };
  const fields = new Set<string>();
  for (const r of reps) for (const key of Object.keys(r)) if (key !== 'timeline') fields.add(key);
  const start = Date.parse(runStart);
  const offsets = reps.map((r) => Date.parse(r.startedAt) - start);
  if (reps.every((r, i) => Number.isFinite(offsets[i]) && new Date(start + offsets[i]!).toISOString() === r.startedAt)) {
    columns.startMs = column(offsets);
    fields.delete('startedAt');
  }
  if (reps.every((r) => r.latencyMs === null || isLatency(r.latencyMs))) {
    columns.latency = Object.fromEntries(LATENCY_STATS.map((s) => [s, column(reps.map((r) => r.latencyMs?.[s] ?? null))]));
    fields.delete('latencyMs');
  }
  // Status counts that say only "every successful request was a 200" are implied by the counts.
  if (reps.every((r) => sameJson(r.statusCounts, okStatuses(r)))) {
    columns.statusCounts200 = true;
    fields.delete('statusCounts');
  }
  for (const field of fields) {
    columns[field] = column(reps.map((r) => (r as unknown as Record<string, unknown>)[field] ?? null));
  }
  return columns;
}

function repetitionsOf(columns: RepetitionColumns, runStart: string | undefined): Repetition[] {
  const n = columns.n;
  const start = runStart === undefined ? NaN : Date.parse(runStart);
  const { n: _n, startMs, latency, statusCounts200, ...fields } = columns;
  const out: Record<string, unknown>[] = Array.from({ length: n }, () => ({}));
  for (const [field, col] of Object.entries(fields)) {
    const values = expand(col, n);
    values.forEach((v, i) => {
      if (v === null && OPTIONAL_FIELDS.has(field)) return;
      out[i]![field] = v;
    });
  }
  if (startMs !== undefined) expand(startMs, n).forEach((ms, i) => (out[i]!.startedAt = new Date(start + (ms as number)).toISOString()));
  if (latency !== undefined) {
    const stats = latency as Record<string, unknown>;
    const byStat = LATENCY_STATS.map((s) => expand(stats[s], n));
    for (let i = 0; i < n; i++) {
      out[i]!.latencyMs = byStat[0]![i] === null ? null : Object.fromEntries(LATENCY_STATS.map((s, k) => [s, byStat[k]![i] as number]));
    }
  }
  if (statusCounts200 === true) for (const r of out) r.statusCounts = okStatuses(r as { requests?: unknown; failures?: unknown });
  for (const r of out) r.timeline = [];
  return out as unknown as Repetition[];
}

/** {"200": requests − failures}, or {} when none succeeded: the status counts of a repetition whose every success was a 200. */
function okStatuses(r: { requests?: unknown; failures?: unknown }): Record<string, number> {
  const ok = Number(r.requests) - Number(r.failures);
  return ok > 0 ? { '200': ok } : {};
}

function isLatency(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const keys = Object.keys(value);
  return keys.length === LATENCY_STATS.length && LATENCY_STATS.every((s) => typeof (value as Record<string, unknown>)[s] === 'number');
}

/** A column: its values, or the one value when all are the same number, string, boolean or null. */
function column(values: unknown[]): unknown {
  const first = values[0];
  const scalar = first === null || ['number', 'string', 'boolean'].includes(typeof first);
  return values.length > 1 && scalar && values.every((v) => v === first) ? { all: first } : values;
}

function expand(col: unknown, n: number): unknown[] {
  if (Array.isArray(col)) return col;
  if (typeof col === 'object' && col !== null && 'all' in col) return Array.from({ length: n }, () => (col as { all: unknown }).all);
  return Array.from({ length: n }, () => null);
}

/** Whether two values are the same JSON document, whatever the order of their keys (undefined keys are absent). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i] ?? null, y[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  for (const k of keys) if (!sameJson(x[k], y[k])) return false;
  return true;
}

/** JSON with keys sorted at every level: compares two documents regardless of key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}
