// plan.budget: how long `load.repetitions: auto` may measure. A budget that cannot hold even the
// first look would stop every run undecided before it looked once; it is refused with the minimum
// that would. Pure.
import { type LoadProfileConfig, maxBlocksOf, maxDurationOf, type ParsedConfig, repetitionLength } from './schema.ts';
import { parseDurationMs } from './duration.ts';
import { expandArms } from './arms.ts';
import type { ConfigProblem } from './problem.ts';

/** Seconds of load of one repetition of a profile: warm-up, measured window and pause. */
export function repetitionSeconds(profile: Pick<LoadProfileConfig, 'warmup' | 'duration' | 'pause'>, arms: boolean): number {
  const { duration, warmup } = repetitionLength(profile, arms);
  return ((parseDurationMs(warmup) ?? 0) + (parseDurationMs(duration) ?? 0) + (parseDurationMs(profile.pause) ?? 0)) / 1000;
}

/**
 * The first look of a run with arms: the design bench/ab-gate measured (looks at 10, 20, 30, 40
 * blocks: a doubling fails at the first look, twice the practical minimum by the second, in ≥ 95 %
 * of runs at 5 % per-block noise with outlier blocks). Not below MIN_AB_PAIRS in
 * analysis/ab/design.ts (which config may not import; test/config/arms.test.ts checks it).
 */
export const FIRST_AB_LOOK = 10;

/** Blocks of the first look of load.repetitions auto: with arms FIRST_AB_LOOK, unless maxBlocks is smaller. */
export function firstLookOf(budget: { minBlocks: number; maxBlocks: number }, arms: boolean): number {
  return arms ? Math.min(budget.maxBlocks, Math.max(FIRST_AB_LOOK, budget.minBlocks)) : budget.minBlocks;
}

function firstLookBlocks(config: ParsedConfig): number {
  return firstLookOf(
    { minBlocks: config.plan.budget.minBlocks, maxBlocks: maxBlocksOf(config) },
    config.modes.some((m) => m.arms),
  );
}

/** Load seconds of the first look: every mode, every profile, its first blocks. */
export function firstLookSeconds(config: ParsedConfig): number {
  const modes = expandArms(config.modes).length;
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  const minBlocks = firstLookBlocks(config);
  const arms = config.modes.some((m) => m.arms);
  return profiles.reduce((sum, p) => sum + (p.repetitions === 'auto' ? minBlocks : p.repetitions) * modes * repetitionSeconds(p, arms), 0);
}

export function budgetProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const budget = config.plan.budget;
  const maxBlocks = maxBlocksOf(config);
  if (maxBlocks < budget.minBlocks)
    problems.push({
      path: 'plan.budget.maxBlocks',
      message: `expected at least plan.budget.minBlocks (${budget.minBlocks}, the first look), got ${maxBlocks}`,
    });
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  if (!profiles.some((p) => p.repetitions === 'auto')) return problems;
  const maxMs = parseDurationMs(maxDurationOf(config));
  if (maxMs === undefined) return problems; // the schema reported it
  // The default time budget bounds the extension only: a run without arms that never set it keeps
  // its first look, however long, as it did before budgets existed.
  const arms = config.modes.some((m) => m.arms);
  if (budget.maxDuration === undefined && !arms) return problems;
  const needed = firstLookSeconds(config);
  if (needed * 1000 > maxMs)
    problems.push({
      path: 'plan.budget.maxDuration',
      message: `${JSON.stringify(maxDurationOf(config))} is too short for even one look: the first look's ${firstLookBlocks(config)} blocks take ${formatSeconds(needed)} of load; expected at least ${durationText(needed)} (or fewer modes, shorter repetitions, or load.repetitions N)`,
    });
  return problems;
}

/** "4m10s" style, rounded up to the second, as a duration the config accepts. */
export function durationText(seconds: number): string {
  const s = Math.ceil(seconds);
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${s % 60 > 0 ? `${s % 60}s` : ''}` : `${s}s`;
}

function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} m ${s % 60} s` : `${s} s`;
}
