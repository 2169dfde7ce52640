// Config → ordered trials. Repetitions are grouped into blocks (one repetition of every mode);
// within a block the mode order is shuffled with a recorded seed, so slow drift of the machine
// (thermal, noisy neighbours) spreads over all modes instead of biasing the last one.
import type { Config, LoadProfile } from '../config/validate.ts';
import type { ModeConfig } from '../config/schema.ts';
import { seededRandom, shuffle } from '../util/random.ts';

export interface Trial {
  index: number;
  mode: ModeConfig;
  profile: LoadProfile;
  /** Repetition number of this mode within its profile, 1-based. */
  repetition: number;
  /** Block number within the run, 1-based; each block holds one repetition of every mode. */
  block: number;
  /** 1 for the first look's blocks; the blocks added for look n are round n. */
  round: number;
  /** Repetitions of this mode and profile planned so far (the first look's, then each extension's). */
  planned: number;
}

export interface Plan {
  seed: number;
  order: 'interleaved' | 'sequential';
  trials: Trial[];
}

export function buildPlan(config: Config, seed: number, modes: readonly ModeConfig[] = config.modes, round = 1): Plan {
  const random = seededRandom(seed);
  const trials: Trial[] = [];
  let block = 0;
  for (const profile of config.profiles) {
    const planned = profile.repetitions;
    if (config.plan.order === 'sequential') {
      for (const mode of modes) {
        for (let r = 1; r <= profile.repetitions; r++)
          trials.push({ index: trials.length, mode, profile, repetition: r, block: block + r, round, planned });
      }
      block += profile.repetitions;
      continue;
    }
    for (let r = 1; r <= profile.repetitions; r++) {
      block += 1;
      for (const mode of shuffle(modes, random)) trials.push({ index: trials.length, mode, profile, repetition: r, block, round, planned });
    }
  }
  return { seed, order: config.plan.order, trials };
}

/**
 * The blocks a later look adds (load.repetitions auto): `blocks` more of each profile that
 * measures until decided, holding only the modes that need them, after the trials so far. Still
 * randomized within each block (seed + round, recorded through the run's seed), numbered on from
 * the last block and each mode's last repetition.
 */
export function extendPlan(config: Config, so: Plan, modes: readonly ModeConfig[], blocks: number, round: number): Trial[] {
  const random = seededRandom(so.seed + round);
  const trials: Trial[] = [];
  let index = so.trials.length;
  let block = so.trials.reduce((max, t) => Math.max(max, t.block), 0);
  for (const profile of config.profiles.filter((p) => p.untilDecided)) {
    const done = (mode: ModeConfig) => so.trials.filter((t) => t.mode.name === mode.name && t.profile.name === profile.name).length;
    const start = new Map(modes.map((m) => [m.name, done(m)]));
    for (let b = 1; b <= blocks; b++) {
      block += 1;
      for (const mode of config.plan.order === 'sequential' ? modes : shuffle(modes, random)) {
        const first = start.get(mode.name)!;
        trials.push({ index: index++, mode, profile, repetition: first + b, block, round, planned: first + blocks });
      }
    }
  }
  return trials;
}

/** Wall-clock estimate of the load: warm-up + measurement + pause per trial (plan/job-estimate.ts adds the platform's steps). */
export function estimateSeconds(plan: Plan): number {
  return plan.trials.reduce((sum, t) => sum + (t.profile.warmupMs + t.profile.durationMs + t.profile.pauseMs) / 1000, 0);
}

export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * Assumed cost of one scaling step between load profiles (load[].replicas): the rollout and the
 * endpoints catching up, images already on the nodes. A base per step plus a little per pod
 * started; measured steps are logged during the run ("… ready and listed as endpoints after").
 */
export const SCALE_STEP_S = 20;
export const SCALE_PER_POD_S = 0.5;

export interface ScalingStep {
  /** Index of the trial the step precedes. */
  before: number;
  mode: string;
  from: number;
  to: number;
}

/** The scaling steps a plan implies: wherever a mode's pod count differs from its previous trial's. */
export function scalingSteps(plan: Plan, initialReplicas: number): ScalingStep[] {
  const current = new Map<string, number>();
  const steps: ScalingStep[] = [];
  for (const t of plan.trials) {
    const from = current.get(t.mode.name) ?? initialReplicas;
    const to = t.profile.replicas ?? initialReplicas;
    if (to !== from) steps.push({ before: t.index, mode: t.mode.name, from, to });
    current.set(t.mode.name, to);
  }
  return steps;
}

export function scalingSeconds(steps: readonly ScalingStep[]): number {
  return steps.reduce((sum, s) => sum + SCALE_STEP_S + SCALE_PER_POD_S * Math.max(0, s.to - s.from), 0);
}
