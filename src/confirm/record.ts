// What a confirmation found, as `mesh-perf confirm` writes it (confirmation.json) and a history
// store keeps it with the change point (runs/<suite>/confirmations.<suite>.js): the change point it
// answers (series and its two runs), the verdict and its reason as a code, the words once
// (report/confirm-words.ts), what differed, each run it made with each A/B gate's figures, the
// setting it named. Parsing checks what a reader relies on; a newer schema is refused. Pure.
import type { FactChange } from '../results/facts.ts';
import type { Verdict } from '../results/types.ts';
import type { Culprit, GroupDecision } from './bisect.ts';
import type { FixedChange, SettingChange } from './settings.ts';

export const CONFIRMATION_KIND = 'mesh-perf-confirmation';
export const CONFIRMATION_SCHEMA_VERSION = 1;

/**
 * confirmed: the A/B of the two runs' settings fails the same direction; withdrawn: it says within
 * the practical minimum (or, with nothing to carry, today's level is back where it was);
 * environment: nothing recorded that an arm can carry differs and today's level stayed where the
 * step took it (the runner moved); cannot-rerun: what changed cannot be an arm here (or the runs
 * are gone); inconclusive / invalid: the confirmation run could not tell (the alert stays, never
 * withdrawn); not-run: the day's budget of confirmations was spent.
 */
export const CONFIRM_VERDICTS = ['confirmed', 'withdrawn', 'environment', 'cannot-rerun', 'inconclusive', 'invalid', 'not-run'] as const;
export type ConfirmVerdict = (typeof CONFIRM_VERDICTS)[number];

/** Why the verdict is what it is (worded by report/confirm-words.ts). */
export type ConfirmReason =
  | 'ab-fail'
  | 'ab-within'
  | 'ab-within-fixed'
  | 'ab-inconclusive'
  | 'level-persists'
  | 'level-back'
  | 'fixed-only'
  | 'runs-gone'
  | 'metric'
  | 'not-in-config'
  | 'refused'
  | 'secrets'
  | 'run-invalid'
  | 'aa-failed'
  | 'budget';

/** One mode with arms of a confirmation run: the settings its head took from the later run, and its A/B gate. */
export interface ConfirmGroupResult {
  settings: string[];
  decision: GroupDecision;
  /** head ÷ base − 1 with the gate's interval, when the gate decided on blocks. */
  change?: { value: number; low: number; high: number };
  /** The practical minimum in force (relative). */
  minimum?: number;
  blocks: number;
  /** The A/B gate's reason code (results/evidence.ts AbReason). */
  reason?: string;
}

export interface ConfirmRound {
  /** ab: the settings of both runs; aa: today's settings against themselves; bisect: groups of the differing settings. */
  purpose: 'ab' | 'aa' | 'bisect';
  runId: string;
  verdict: Verdict;
  groups: ConfirmGroupResult[];
  elapsedS: number;
  /** Why the run was invalid, when it was. */
  invalid?: string[];
}

/** Today's level of the series' figure (the A/A, or the head arm) beside the change point's two segments. */
export interface LevelCheck {
  statistic: string;
  today: number;
  before: number;
  after: number;
  /** True when today's level is nearer the later segment's than the earlier's (on a log scale). */
  moved: boolean;
}

/** The change point a record answers: its series and two runs (`before`, `after`), its size (relative) when it was confirmed. */
export interface ConfirmationRecord extends Omit<ChangePointRef, 'segments'> {
  kind: typeof CONFIRMATION_KIND;
  schemaVersion: number;
  suite: string;
  verdict: ConfirmVerdict;
  reason: ConfirmReason;
  /** The verdict in one line, and what supports it (worded once, report/confirm-words.ts). */
  line: string;
  details: string[];
  startedAt: string;
  finishedAt: string;
  /** Settings of the mode that differed and arms carried. */
  settings: SettingChange[];
  /** Differences that could not be arms, each with why. */
  fixed: FixedChange[];
  /** Facts of where the runs ran that differed (runner class and image, kernel, commit). */
  environment: FactChange[];
  rounds: ConfirmRound[];
  /** The setting(s) named as the cause. */
  culprits?: Culprit[];
  /** Sets of settings the bisection could not narrow, and why. */
  unresolved?: { settings: string[]; why: string }[];
  level?: LevelCheck;
  /** Set when the verdict was refused (a config the validation rejected): its message. */
  problem?: string;
  /** Where the confirmation ran (runner class) and with which mesh-perf. */
  runner: string;
  tool: string;
}

/** What a confirmation needs of a change point (history/change-points.ts SuiteChangePoint has it all). */
export interface ChangePointRef {
  branch: string;
  profile: string;
  mode: string;
  metric: string;
  before: string;
  after: string;
  size: number;
  /** The two segments' medians (the series' levels before and after the step). */
  segments: readonly [{ median: number }, { median: number }];
}

/** Verdicts that settle an alert: the change-point gate passes on them (the rest leave it raised). */
export function clearsAlert(verdict: ConfirmVerdict): boolean {
  return verdict === 'withdrawn' || verdict === 'environment';
}

export type RecordParse = { ok: true; record: ConfirmationRecord } | { ok: false; reason: string };

/** A confirmation record read from a file: the fields every reader relies on, checked. */
export function readConfirmation(raw: unknown): RecordParse {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, reason: 'is not a JSON object' };
  const r = raw as Partial<ConfirmationRecord>;
  if (r.kind !== CONFIRMATION_KIND) return { ok: false, reason: `has kind ${JSON.stringify(r.kind)}, expected "${CONFIRMATION_KIND}"` };
  if (typeof r.schemaVersion !== 'number' || r.schemaVersion > CONFIRMATION_SCHEMA_VERSION)
    return {
      ok: false,
      reason: `has schemaVersion ${JSON.stringify(r.schemaVersion)}; this mesh-perf reads ${CONFIRMATION_SCHEMA_VERSION} (upgrade it to read a newer one)`,
    };
  for (const key of ['suite', 'branch', 'profile', 'mode', 'metric', 'before', 'after', 'line', 'startedAt', 'finishedAt'] as const)
    if (typeof r[key] !== 'string') return { ok: false, reason: `has no ${key} (expected a string)` };
  if (!CONFIRM_VERDICTS.includes(r.verdict as ConfirmVerdict))
    return { ok: false, reason: `has verdict ${JSON.stringify(r.verdict)}, expected one of ${CONFIRM_VERDICTS.join(', ')}` };
  for (const key of ['details', 'settings', 'fixed', 'environment', 'rounds'] as const)
    if (!Array.isArray(r[key])) return { ok: false, reason: `has no ${key} list` };
  if (typeof r.size !== 'number') return { ok: false, reason: 'has no size (expected a number)' };
  return { ok: true, record: r as ConfirmationRecord };
}

/** The change point a record answers: its mode's series at its two runs (any figure of that mode there). */
export function confirmationKey(r: Pick<ConfirmationRecord, 'branch' | 'profile' | 'mode' | 'before' | 'after'>): string {
  return `${r.branch}\u0000${r.profile}\u0000${r.mode}\u0000${r.before}\u0000${r.after}`;
}
