// Measure until decided (load.repetitions auto): where a run looks at its gates, how many blocks the
// budget holds, and what each look costs in load time. The A/B gate's sequential design gives the
// looks; the time budget caps the blocks it may plan for. Pure: `plan` prints it, the pipeline runs it.
import type { Config } from '../config/validate.ts';
import type { ModeConfig } from '../config/schema.ts';
import { relookAfter, sequentialDesign, type SequentialDesign } from '../analysis/ab/design.ts';
import { firstLookOf } from '../config/budget.ts';

/** Blocks between looks of a run without arms (its history gates' confirmation rounds). */
const HISTORY_LOOK_EVERY = 3;

export interface LookPlan {
  /** No profile measures until decided: one look at the blocks it runs (repetitions: N). */
  fixed: boolean;
  /** Block counts at which the gates are looked at (per profile that measures until decided). */
  looks: number[];
  /** The design the A/B gates use at these looks. */
  design: SequentialDesign;
  /** Blocks the budget allows: plan.budget.maxBlocks, or fewer when maxDuration holds fewer. */
  maxBlocks: number;
  /** The budget that binds: blocks, or time. */
  limit: 'blocks' | 'time';
  /** Load seconds of the first look (every mode, every profile). */
  firstLookSeconds: number;
  /** Load seconds of one later block, of the modes that can need one. */
  extensionBlockSeconds: number;
  /** The modes that can need later blocks (estimates only: each look asks the analysis). */
  extensionModes: ModeConfig[];
}

/** Load seconds up to the last look, the most a run of this plan measures. */
export function lastLookSeconds(plan: LookPlan): number {
  const last = plan.looks[plan.looks.length - 1]!;
  return plan.firstLookSeconds + (last - plan.looks[0]!) * plan.extensionBlockSeconds;
}

/** Seconds one repetition of a profile keeps the machine busy. */
export function repetitionSeconds(profile: Config['profiles'][number]): number {
  return (profile.warmupMs + profile.durationMs + profile.pauseMs) / 1000;
}

export function lookPlan(config: Config): LookPlan {
  const { budget } = config.plan;
  const auto = config.profiles.filter((p) => p.untilDecided);
  const hasArms = config.modes.some((m) => m.arm);
  const extensionModes = modesThatMayExtend(config);
  const extensionBlockSeconds = auto.reduce((sum, p) => sum + extensionModes.length * repetitionSeconds(p), 0);
  if (auto.length === 0) {
    const blocks = Math.max(0, ...config.profiles.map((p) => p.repetitions));
    const design = sequentialDesign({ minBlocks: blocks, maxBlocks: blocks }, config.gates.ab);
    return {
      fixed: true,
      looks: [blocks],
      design,
      maxBlocks: blocks,
      limit: 'blocks',
      firstLookSeconds: secondsOf(config, blocks),
      extensionBlockSeconds: 0,
      extensionModes: [],
    };
  }
  // The A/B gate needs a few pairs before any interval: a run with arms looks first at the design's first look.
  const minBlocks = firstLookOf(budget, hasArms);
  const probe = sequentialDesign({ minBlocks, maxBlocks: Math.max(minBlocks, budget.maxBlocks) }, config.gates.ab);
  const first = hasArms ? probe.looks[0]! : budget.minBlocks;
  const firstLookSeconds = secondsOf(config, first);
  const fitByTime =
    extensionBlockSeconds > 0
      ? first + Math.max(0, Math.floor((budget.maxDurationMs / 1000 - firstLookSeconds) / extensionBlockSeconds))
      : budget.maxBlocks;
  const maxBlocks = Math.max(first, Math.min(budget.maxBlocks, fitByTime));
  const design = sequentialDesign({ minBlocks: first, maxBlocks }, config.gates.ab);
  // Without arms only history gates extend; their first look is minBlocks, then every
  // HISTORY_LOOK_EVERY blocks, as runs always had (gates.ab.lookEvery is the A/B design's).
  const looks = hasArms ? design.looks : everyFrom(first, maxBlocks, HISTORY_LOOK_EVERY);
  return {
    fixed: false,
    looks,
    design,
    maxBlocks,
    limit: fitByTime < budget.maxBlocks ? 'time' : 'blocks',
    firstLookSeconds,
    extensionBlockSeconds,
    extensionModes,
  };
}

/**
 * The looks after look `index` placed where the budget ends, given `fit`: the blocks the time left
 * holds at the pace measured so far. Planned looks that fit stay; when the last one does not, the
 * last look moves to where the time ends (a look is worth one block at least); when nothing fits,
 * the run ends at this look. Later boundaries are recomputed for the new last look (relookAfter),
 * earlier ones stand. Looks beyond the plan's are never added: plan.budget.maxBlocks still binds.
 */
export function placeLooks(plan: LookPlan, index: number, fit: number): LookPlan {
  const here = plan.looks[index]!;
  const end = here + Math.max(0, Math.floor(fit));
  const planned = plan.looks.slice(index + 1);
  if (planned.length === 0 || planned[planned.length - 1]! <= end) return plan;
  const later = [...planned.filter((n) => n < end), ...(end > here ? [end] : [])];
  const design = plan.fixed ? plan.design : relookAfter(plan.design, Math.min(index, plan.design.looks.length - 1), later);
  return { ...plan, looks: [...plan.looks.slice(0, index + 1), ...later], design, maxBlocks: end, limit: 'time' };
}

/**
 * The config as its first look runs it: profiles that measure until decided start with the first
 * look's blocks.
 */
export function firstLookConfig(config: Config, plan: LookPlan): Config {
  if (plan.fixed) return config;
  const first = plan.looks[0]!;
  return { ...config, profiles: config.profiles.map((p) => (p.untilDecided ? { ...p, repetitions: first } : p)) };
}

/**
 * The modes a later look may run: with arms, the arms (and the baseline when overhead budgets
 * need its pairs); without, every mode (an inconclusive history gate extends its mode and the
 * baseline its ratios need).
 */
export function modesThatMayExtend(config: Config): ModeConfig[] {
  const arms = config.modes.filter((m) => m.arm);
  if (arms.length === 0) return config.modes;
  const baseline = config.modes.find((m) => m.name === config.baseline);
  return baseline && !arms.includes(baseline) && config.gates.overhead.length > 0 ? [...arms, baseline] : arms;
}

/** The modes one later look runs: those the analysis asks for, plus the baseline when overhead budgets pair with it. */
export function modesForNextLook(config: Config, requested: readonly string[]): ModeConfig[] {
  const wanted = new Set(requested);
  if (wanted.size > 0 && config.gates.overhead.length > 0) wanted.add(config.baseline);
  return config.modes.filter((m) => wanted.has(m.name));
}

function everyFrom(first: number, last: number, step: number): number[] {
  const looks: number[] = [];
  for (let n = first; n < last; n += Math.max(1, step)) looks.push(n);
  looks.push(last);
  return looks;
}

function secondsOf(config: Config, autoBlocks: number): number {
  return config.profiles.reduce(
    (sum, p) => sum + (p.untilDecided ? autoBlocks : p.repetitions) * config.modes.length * repetitionSeconds(p),
    0,
  );
}
