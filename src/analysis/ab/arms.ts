// Which modes of a run are arms of one another (ModeResult.arm, written by the plan's expansion of
// modes[].arms), and the sequential design an analysis follows when the caller gives none.
import { FIRST_AB_LOOK } from '../../config/budget.ts';
import { AB_BUDGET_DEFAULTS } from '../../config/schema.ts';
import type { Config } from '../../config/validate.ts';
import type { ModeResult, RunResult } from '../../results/types.ts';
import { type AbBudget, sequentialDesign, type SequentialDesign } from './design.ts';

export interface ArmPair {
  /** The mode the arms belong to. */
  of: string;
  profile: string;
  base: ModeResult | undefined;
  head: ModeResult | undefined;
}

/** The arms of each mode with arms, per profile, in the run's order. */
export function armsOf(result: RunResult): ArmPair[] {
  const pairs = new Map<string, ArmPair>();
  for (const mode of result.modes) {
    if (!mode.arm) continue;
    const key = `${mode.arm.of}\u0000${mode.profile}`;
    const pair = pairs.get(key) ?? { of: mode.arm.of, profile: mode.profile, base: undefined, head: undefined };
    pair[mode.arm.side] = mode;
    pairs.set(key, pair);
  }
  return [...pairs.values()];
}

/** Looks at 10, 20, 30, 40 blocks when neither the caller nor the config says otherwise: the config's defaults. */
export const DEFAULT_AB_BUDGET: AbBudget = { minBlocks: FIRST_AB_LOOK, maxBlocks: AB_BUDGET_DEFAULTS.maxBlocks };

/**
 * The design for this run when the caller gives none: for a fixed-size analysis (no look), one look
 * at the blocks the run measured; at a look, the config's plan.budget (measure-until-decided).
 */
export function abDesignFor(result: RunResult, config: Config, fixed = true): SequentialDesign {
  const settings = config.gates.ab;
  if (fixed) {
    // No look (repetitions: N, or a re-analysis): one final look at the blocks the run has.
    const blocks = Math.max(
      0,
      ...armsOf(result).flatMap((p) => [p.base, p.head].map((m) => new Set(m?.repetitions.map((r) => r.block)).size)),
    );
    return sequentialDesign({ minBlocks: blocks, maxBlocks: blocks }, settings);
  }
  const budget = (config.plan as { budget?: Partial<AbBudget> }).budget;
  if (budget?.maxBlocks !== undefined)
    return sequentialDesign({ minBlocks: budget.minBlocks ?? DEFAULT_AB_BUDGET.minBlocks, maxBlocks: budget.maxBlocks }, settings);
  return sequentialDesign(DEFAULT_AB_BUDGET, settings);
}
