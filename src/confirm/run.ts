// Confirms one change point: the settings of its earlier run against those of its later run, as
// the two arms of one A/B run on this machine (confirmed when the A/B gate fails the same way,
// withdrawn when it says within the practical minimum), then, when several settings differ, a
// bisection that names the one (or the ones acting together) that moved it. With nothing an arm
// can carry, an A/A of today's settings says whether today's level stayed where the step took it
// (environment: the runner moved) or came back (withdrawn). What cannot be an arm is named with why
// (cannot re-run). The runs go through the pipeline (deps.runRound); the rest is decided here.
import { ConfigError, validateConfig, type Config } from '../config/validate.ts';
import type { RunResult } from '../results/types.ts';
import { messageOf } from '../util/errors.ts';
import { REDACTED } from '../util/redact.ts';
import { restoreSecrets } from './secrets.ts';
import { type ArmGroup, confirmationConfig, groupModeName } from './arms-config.ts';
import { afterRound, type BisectState, type GroupDecision, nextGroups, startBisect, stopBisect } from './bisect.ts';
import {
  type ChangePointRef,
  CONFIRMATION_KIND,
  CONFIRMATION_SCHEMA_VERSION,
  type ConfirmationRecord,
  type ConfirmGroupResult,
  type ConfirmReason,
  type ConfirmRound,
  type ConfirmVerdict,
  type LevelCheck,
} from './record.ts';
import { type ArmSettings, armSettingsOf, type FixedChange, profileOf, type SettingsDiff, settingsDiff, withSettings } from './settings.ts';

export interface ConfirmOptions {
  /** Load time each confirmation run may spend (plan.budget.maxDuration). */
  maxDuration: string;
  /** Repetition length (default the A/B gate's). */
  duration?: string;
  warmup?: string;
  /** Most bisection runs after the A/B (each halves the suspects). */
  maxBisectRuns: number;
  seed?: number;
}

export interface ConfirmDeps {
  /** Runs one confirmation run (index 0 first) and returns its results. */
  runRound(config: Config, index: number): Promise<RunResult>;
  /**
   * A path on this machine holding server manifests with this content (the earlier run's file, from
   * its commit), or undefined when it cannot be had.
   */
  resolveManifests?(manifests: { path: string; sha256?: string }, commit: string | undefined): Promise<string | undefined>;
  now(): Date;
  /** Where the confirmation runs (runner class) and the tool's version, for the record. */
  runner: string;
  tool: string;
}

export interface ConfirmInput {
  changePoint: ChangePointRef;
  suite: string;
  /** The change point's two runs from the store; undefined when retention removed one. */
  before: RunResult | undefined;
  after: RunResult | undefined;
  /** Today's config as loaded (credentials in clear): where the stored runs' masked values come from. */
  current?: Record<string, unknown>;
}

/** A confirmation as decided, before report/confirm-words.ts words it (the front end does, as the pipeline words an analysis). */
export type ConfirmationDraft = Omit<ConfirmationRecord, 'line' | 'details'>;
type Draft = ConfirmationDraft;

export async function confirmChangePoint(input: ConfirmInput, options: ConfirmOptions, deps: ConfirmDeps): Promise<ConfirmationDraft> {
  const cp = input.changePoint;
  const draft = newDraft(cp, input.suite, deps, deps.now().toISOString());
  const done = (verdict: ConfirmVerdict, reason: ConfirmReason, extra: Partial<Draft> = {}): Draft => ({
    ...draft,
    ...extra,
    verdict,
    reason,
    finishedAt: deps.now().toISOString(),
  });
  if (!input.before || !input.after) return done('cannot-rerun', 'runs-gone');
  if (cp.metric === 'err' || cp.metric === 'cpu') return done('cannot-rerun', 'metric');
  if (Object.keys(profileOf(input.after, cp.profile)).length === 0 || !armSettingsOf(input.after.config, cp.mode))
    return done('cannot-rerun', 'not-in-config');
  // The stored configs' masked credentials, from today's config; one the confirmation would run unmasked it cannot.
  const restored = [input.before, input.after].map((r) => restoreSecrets(r.config, input.current));
  const before: RunResult = { ...input.before, config: restored[0]!.config };
  const after: RunResult = { ...input.after, config: restored[1]!.config };
  const needed = (path: string) =>
    path.startsWith(`modes[${cp.mode}]`) || path.startsWith(`profiles[${cp.profile}]`) || path.startsWith('kubernetes');
  const masked = [...new Set(restored.flatMap((r) => r.missing).filter(needed))];
  if (masked.length > 0)
    return done('cannot-rerun', 'secrets', {
      fixed: masked.map((key) => ({ key, before: REDACTED, after: REDACTED, why: 'redacted' as const })),
    });
  const diff = await withManifests(settingsDiff(before, after, cp), before, after, deps);
  draft.settings = diff.carried;
  draft.fixed = diff.fixed;
  draft.environment = diff.environment;
  const run = new Runner(after, cp, options, deps, diff, draft.rounds);

  if (diff.carried.length === 0) {
    if (diff.fixed.length > 0) return done('cannot-rerun', 'fixed-only');
    // Nothing to carry: an A/A of today's settings, and its level beside the two segments.
    const round = await run.round('aa', [{ settings: [], base: diff.after, head: diff.after }]);
    if (typeof round === 'string') return done('cannot-rerun', 'refused', { problem: round });
    const [gate] = round.round.groups;
    if (round.round.verdict === 'invalid' || !gate || gate.decision === 'invalid') return done('invalid', 'run-invalid');
    if (gate.decision === 'fail') return done('invalid', 'aa-failed');
    const level = levelCheck(round.result, cp, groupModeName(cp.mode, 0, 1), 'both');
    if (!level) return done('invalid', 'run-invalid');
    return level.moved ? done('environment', 'level-persists', { level }) : done('withdrawn', 'level-back', { level });
  }

  const paths = diff.carried.map((c) => c.path);
  const first = await run.round('ab', [{ settings: paths, base: diff.before, head: diff.after }]);
  if (typeof first === 'string') return done('cannot-rerun', 'refused', { problem: first });
  const [gate] = first.round.groups;
  const level = levelCheck(first.result, cp, groupModeName(cp.mode, 0, 1), 'head');
  const withLevel = level ? { level } : {};
  if (first.round.verdict === 'invalid' || !gate || gate.decision === 'invalid') return done('invalid', 'run-invalid', withLevel);
  if (gate.decision === 'inconclusive') return done('inconclusive', 'ab-inconclusive', withLevel);
  if (gate.decision === 'pass')
    return diff.fixed.length > 0 ? done('cannot-rerun', 'ab-within-fixed', withLevel) : done('withdrawn', 'ab-within', withLevel);
  // Confirmed: which setting moved it.
  if (paths.length === 1) return done('confirmed', 'ab-fail', { ...withLevel, culprits: [{ settings: paths, together: false }] });
  let state: BisectState = startBisect(paths);
  while (nextGroups(state).length > 0) {
    if (state.rounds >= options.maxBisectRuns) {
      state = stopBisect(state);
      break;
    }
    const groups = nextGroups(state).map((settings) => ({
      settings,
      base: diff.before,
      head: withSettings(diff.before, diff.after, settings),
    }));
    const round = await run.round('bisect', groups);
    if (typeof round === 'string') {
      state = stopBisect(state);
      break;
    }
    state = afterRound(
      state,
      round.round.groups.map((g) => (round.round.verdict === 'invalid' && g.decision !== 'fail' ? 'invalid' : g.decision)),
    );
  }
  return done('confirmed', 'ab-fail', {
    ...withLevel,
    culprits: state.culprits,
    ...(state.unresolved.length > 0 ? { unresolved: state.unresolved } : {}),
  });
}

/** A confirmation of `cp` that has not decided yet (inconclusive until it does), started at `at`. */
export function newDraft(cp: ChangePointRef, suite: string, deps: Pick<ConfirmDeps, 'runner' | 'tool'>, at: string): Draft {
  return {
    kind: CONFIRMATION_KIND,
    schemaVersion: CONFIRMATION_SCHEMA_VERSION,
    suite,
    branch: cp.branch,
    profile: cp.profile,
    mode: cp.mode,
    metric: cp.metric,
    before: cp.before,
    after: cp.after,
    size: cp.size,
    verdict: 'inconclusive',
    reason: 'ab-inconclusive',
    startedAt: at,
    finishedAt: at,
    settings: [],
    fixed: [],
    environment: [],
    rounds: [],
    runner: deps.runner,
    tool: deps.tool,
  };
}

/** Runs the rounds of one confirmation, recording each. */
class Runner {
  constructor(
    private readonly after: RunResult,
    private readonly cp: ChangePointRef,
    private readonly options: ConfirmOptions,
    private readonly deps: ConfirmDeps,
    private readonly diff: SettingsDiff & { paths?: Map<string, string> },
    private readonly rounds: ConfirmRound[],
  ) {}

  /** One run of `groups` side by side; the refusal's message when the config would not validate. */
  async round(purpose: ConfirmRound['purpose'], groups: ArmGroup[]): Promise<{ round: ConfirmRound; result: RunResult } | string> {
    const raw = confirmationConfig(this.after, this.cp, groups, {
      maxDuration: this.options.maxDuration,
      ...(this.options.duration ? { duration: this.options.duration } : {}),
      ...(this.options.warmup ? { warmup: this.options.warmup } : {}),
      ...(this.options.seed !== undefined ? { seed: this.options.seed + this.rounds.length } : {}),
      serverPath: (m) => this.diff.paths?.get(`${m.path}\u0000${m.sha256 ?? ''}`) ?? m.path,
      ...(purpose === 'aa' && this.cp.metric === 'ratio' ? { alongside: [String(this.after.baseline)] } : {}),
    });
    let config: Config;
    try {
      config = validateConfig(raw, 'the confirmation run');
    } catch (error) {
      if (error instanceof ConfigError) return messageOf(error);
      throw error;
    }
    const result = await this.deps.runRound(config, this.rounds.length);
    const round: ConfirmRound = {
      purpose,
      runId: result.run.id,
      verdict: result.verdict,
      groups: groups.map((g, i) => groupResult(result, groupModeName(this.cp.mode, i, groups.length), g.settings)),
      elapsedS: Math.round((Date.parse(result.run.finishedAt) - Date.parse(result.run.startedAt)) / 100) / 10,
      ...(result.verdict === 'invalid' ? { invalid: result.verdictReasons } : {}),
    };
    this.rounds.push(round);
    return { round, result };
  }
}

/** A group's A/B gate in a confirmation run's results: invalid when the run has none for it. */
function groupResult(result: RunResult, mode: string, settings: string[]): ConfirmGroupResult {
  const gate = result.analysis?.ab?.gates.find((g) => g.mode === mode);
  if (!gate) return { settings, decision: 'invalid', blocks: 0 };
  const decision: GroupDecision = gate.reason === 'arm-invalid' ? 'invalid' : gate.decision;
  return {
    settings,
    decision,
    change: { value: gate.change.value, low: gate.change.low, high: gate.change.high },
    minimum: gate.minimum,
    blocks: gate.pairs,
    reason: gate.reason,
  };
}

/**
 * Today's level of the series' figure in a confirmation run (the median over the valid repetitions
 * of both arms of an A/A, or of the head arm: the later run's settings today) beside the change
 * point's two segments, on a log scale. A ratio series' level is per block against the baseline.
 */
export function levelCheck(result: RunResult, cp: ChangePointRef, mode: string, arms: 'both' | 'head'): LevelCheck | undefined {
  const statistic = cp.metric === 'p99' ? 'p99' : 'p50';
  const sides = arms === 'both' ? [`${mode}-base`, `${mode}-head`] : [`${mode}-head`];
  const values: number[] = [];
  const baseline = cp.metric === 'ratio' ? result.modes.find((m) => m.name === result.baseline && m.profile === cp.profile) : undefined;
  if (cp.metric === 'ratio' && !baseline) return undefined;
  for (const side of sides) {
    const entry = result.modes.find((m) => m.name === side && m.profile === cp.profile);
    for (const rep of entry?.repetitions ?? []) {
      const value = rep.valid ? rep.latencyMs?.[statistic] : undefined;
      if (value === undefined || !(value > 0)) continue;
      if (!baseline) values.push(value);
      else {
        const b = baseline.repetitions.find((r) => r.block === rep.block && r.valid)?.latencyMs?.p50;
        if (b && b > 0) values.push(value / b);
      }
    }
  }
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const today = sorted.length % 2 === 1 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const [before, after] = [cp.segments[0].median, cp.segments[1].median];
  const moved = Math.abs(Math.log(today / after)) < Math.abs(Math.log(today / before));
  return { statistic: cp.metric === 'ratio' ? 'p50 ratio to baseline' : statistic, today, before, after, moved };
}

/**
 * Server manifests that differ in content need the earlier run's file: resolved to a path here
 * (its commit's copy), or the difference cannot be an arm (manifests-unavailable).
 */
async function withManifests(
  diff: SettingsDiff,
  before: RunResult,
  after: RunResult,
  deps: ConfirmDeps,
): Promise<SettingsDiff & { paths?: Map<string, string> }> {
  const change = diff.carried.find((c) => c.path === 'serverManifests');
  if (!change) return diff;
  const paths = new Map<string, string>();
  const missing: FixedChange[] = [];
  for (const [settings, run] of [
    [diff.before, before],
    [diff.after, after],
  ] as [ArmSettings, RunResult][]) {
    const m = settings.serverManifests;
    if (!m) continue;
    const found = await deps.resolveManifests?.(m, run.run.git.sha);
    if (found) paths.set(`${m.path}\u0000${m.sha256 ?? ''}`, found);
    else missing.push({ key: 'serverManifests', before: change.before, after: change.after, why: 'manifests-unavailable' });
  }
  if (missing.length === 0) return { ...diff, paths };
  return { ...diff, carried: diff.carried.filter((c) => c !== change), fixed: [...diff.fixed, missing[0]!] };
}
