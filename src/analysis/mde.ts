// Minimum detectable effect: the smallest relative change a comparison would detect with 80 %
// power at the gate's alpha, given the noise seen. Normal approximation (performance.md §3.3):
// MDE ≈ (z₁₋α + z₁₋β) · √(cv_a²/n_a + cv_b²/n_b), widened by 1/√(3/π) because the gate uses the
// Mann–Whitney test, whose efficiency against the t test is 3/π on normal data.
import { normalQuantile, studentTQuantile } from './distributions.ts';
import { minimumAttainableP } from './mann-whitney.ts';

export const DEFAULT_POWER = 0.8;
const RANK_TEST_WIDENING = 1 / Math.sqrt(3 / Math.PI);

export interface NoiseSide {
  cv: number;
  n: number;
}

/** Relative MDE (0.05 = 5 %) of a two-sample rank comparison; Infinity when the sizes cannot reach alpha. */
export function twoSampleMde(a: NoiseSide, b: NoiseSide, alpha: number, power = DEFAULT_POWER): number {
  if (a.n < 1 || b.n < 1) return Infinity;
  if (minimumAttainableP(a.n, b.n) > alpha) return Infinity;
  const z = normalQuantile(1 - alpha) + normalQuantile(power);
  return z * RANK_TEST_WIDENING * Math.sqrt(a.cv ** 2 / a.n + b.cv ** 2 / b.n);
}

/**
 * MDE of a new run against k past runs whose run-level (log) values spread with sd `spread`:
 * the new run must clear a one-sided prediction bound, (t₁₋α + t_power) · spread · √(1 + 1/k).
 */
export function runToRunMde(spread: number, runs: number, alpha: number, power = DEFAULT_POWER): number {
  if (runs < 2) return Infinity;
  const t = studentTQuantile(1 - alpha, runs - 1) + studentTQuantile(power, runs - 1);
  return Math.expm1(t * spread * Math.sqrt(1 + 1 / runs));
}

/** Paired (by block) MDE of a within-run difference: (z₁₋α + z₁₋β) · sd(differences) / √pairs. */
export function pairedMde(sdOfDifferences: number, pairs: number, alpha: number, power = DEFAULT_POWER): number {
  if (pairs < 2 || !Number.isFinite(sdOfDifferences)) return Infinity;
  const z = normalQuantile(1 - alpha) + normalQuantile(power);
  return z * RANK_TEST_WIDENING * (sdOfDifferences / Math.sqrt(pairs));
}

/**
 * Repetitions per side for a comparison of two equally sized runs to reach `mde` (relative),
 * at least the smallest size whose rank test can reach alpha at all.
 */
export function repetitionsFor(mde: number, cv: number, alpha: number, power = DEFAULT_POWER): number {
  let floor = 2;
  while (minimumAttainableP(floor, floor) > alpha) floor++;
  if (!(mde > 0)) return Infinity;
  const z = normalQuantile(1 - alpha) + normalQuantile(power);
  const n = Math.ceil(2 * ((z * RANK_TEST_WIDENING * cv) / mde) ** 2);
  return Math.max(floor, n);
}
