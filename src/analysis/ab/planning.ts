// What a budget can decide, said before the run (mesh-perf plan): the smallest slowdown each gated
// statistic would fail with 90 % power at the last look, for a per-block spread of its log ratio
// that the run has not measured yet. The spreads are planning figures from bench/ab-gate's models
// (docs/methodology-statistics.md), not measurements of the user's platform: p50 5 % (the noisy
// case the design is sized for); p90 and p99 add bursty stalls (3 per 6 s, up to 10 ms, a server
// at 80 % utilization, 1,000 rps × 6 s), which spread a block's p99 by 28.5 % and its p90 by 1.9 %:
// √(5² + 1.9²) ≈ 6 %, √(5² + 28.5²) ≈ 29 %. The spread of a tail is the stalls', not the quantile's
// sampling, so more requests per repetition do not shrink it; more blocks or longer ones do. The
// run measures its own and says it (evidence.mde).
import type { AbStatistic } from '../../config/sections/gates.ts';
import { normalQuantile } from '../distributions.ts';
import { failLevels, type SequentialDesign } from './design.ts';

/** Per-block spread (sd of the log ratio) assumed before the run, per statistic. */
export const PLANNING_SPREAD: Record<AbStatistic, number> = { p50: 0.05, p90: 0.06, p99: 0.29 };

/** Power the smallest decidable change is stated at. */
const POWER = 0.9;
/** Hodges–Lehmann's standard error over the mean's on normal noise (asymptotic efficiency 3/π). */
const RANK_EFFICIENCY = Math.sqrt(Math.PI / 3);

/**
 * The smallest slowdown (relative) failed with 90 % power at the design's last look, for a gate
 * that spends 1 ÷ `family` of the run's alpha, at per-block spread `spread`.
 */
export function smallestDecidable(design: SequentialDesign, family: number, spread: number): number {
  const last = design.looks.length - 1;
  const level = failLevels(design, 1 / Math.max(1, family))[last]!;
  const se = (spread * RANK_EFFICIENCY) / Math.sqrt(design.looks[last]!);
  return Math.expm1((normalQuantile(1 - level) + normalQuantile(POWER)) * se);
}

/**
 * The smallest practical minimum under which a clean change (head as fast as base) passes with
 * 90 % power at the design's last look: its upper bound, at the pass side's level there, lies under
 * the minimum. A minimum below it leaves clean changes inconclusive as often as not.
 */
export function smallestPassable(design: SequentialDesign, spread: number): number {
  const last = design.looks.length - 1;
  const se = (spread * RANK_EFFICIENCY) / Math.sqrt(design.looks[last]!);
  return Math.expm1((design.passZ[last]! + normalQuantile(POWER)) * se);
}
