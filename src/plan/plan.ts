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
  /** 1 for the main round; confirmation re-runs are round 2. */
  round: number;
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
    if (config.plan.order === 'sequential') {
      for (const mode of modes) {
        for (let r = 1; r <= profile.repetitions; r++) trials.push({ index: trials.length, mode, profile, repetition: r, block: block + r, round });
      }
      block += profile.repetitions;
      continue;
    }
    for (let r = 1; r <= profile.repetitions; r++) {
      block += 1;
      for (const mode of shuffle(modes, random)) trials.push({ index: trials.length, mode, profile, repetition: r, block, round });
    }
  }
  return { seed, order: config.plan.order, trials };
}

/** Wall-clock estimate: warm-up + measurement + pause per trial (setup not included). */
export function estimateSeconds(plan: Plan): number {
  return plan.trials.reduce((sum, t) => sum + (t.profile.warmupMs + t.profile.durationMs + t.profile.pauseMs) / 1000, 0);
}

export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
