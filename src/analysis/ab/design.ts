// Group-sequential design of the A/B gate: at which block counts the gate looks, and how strict
// each look is so that looking repeatedly keeps both errors at their stated level.
//  - fail side: H0 "head is not slower"; alpha (default 1 %) is spent over the looks with the
//    Lan–DeMets O'Brien–Fleming-type function α(t) = 2 − 2Φ(z₁₋α/₂ ÷ √t), t = blocks ÷ maxBlocks:
//    early looks need overwhelming evidence, the last one nearly the fixed-sample boundary.
//  - pass side: H0 "head is slower by the practical minimum"; its error (1 − confidence, 5 %) is
//    spent the same way, so "within the minimum" is as honest after five looks as after one.
// Boundaries are computed exactly for the normal (score) process by numerical integration of the
// continuation density (Armitage–McPherson–Rowe recursion) and then handed to the t-type
// estimators as nominal one-sided levels; bench/ab-gate measures the realized error rates.
import { normalCdf, normalQuantile } from '../distributions.ts';

export interface AbBudget {
  /** Blocks at the first look. */
  minBlocks: number;
  /** Blocks at the last look (the budget). */
  maxBlocks: number;
}

export interface AbDesignSettings {
  alpha: number;
  confidence: number;
  lookEvery: number;
}

export interface SequentialDesign {
  /** Block counts at which the gate looks; the last is the budget. */
  looks: number[];
  /** Per look: the nominal one-sided level the fail side tests at (its z boundary's tail). */
  failAlpha: number[];
  /** Per look: the nominal one-sided level of the pass side's upper bound. */
  passAlpha: number[];
  /** The same boundaries on the z scale (for reports and tests). */
  failZ: number[];
  passZ: number[];
  alpha: number;
  confidence: number;
}

/** Fewest paired blocks any interval of the gate is computed from. */
export const MIN_AB_PAIRS = 4;

/** Looks at minBlocks, then every lookEvery blocks, the last at maxBlocks. */
export function lookSchedule(budget: AbBudget, lookEvery: number): number[] {
  const last = Math.max(MIN_AB_PAIRS, Math.floor(budget.maxBlocks));
  const first = Math.min(last, Math.max(MIN_AB_PAIRS, Math.floor(budget.minBlocks)));
  const looks: number[] = [];
  for (let n = first; n < last; n += Math.max(1, Math.floor(lookEvery))) looks.push(n);
  looks.push(last);
  return looks;
}

export function sequentialDesign(budget: AbBudget, settings: AbDesignSettings): SequentialDesign {
  const looks = lookSchedule(budget, settings.lookEvery);
  const fractions = looks.map((n) => n / looks[looks.length - 1]!);
  const failZ = spendingBoundaries(fractions, settings.alpha);
  const passZ = spendingBoundaries(fractions, 1 - settings.confidence);
  return {
    looks,
    failZ,
    passZ,
    failAlpha: failZ.map(tail),
    passAlpha: passZ.map(tail),
    alpha: settings.alpha,
    confidence: settings.confidence,
  };
}

/**
 * The design truncated at look `index` because measuring stops there (time budget spent, or the
 * run was cut short): the earlier looks keep their boundaries, the last one spends what is left.
 */
export function finalAt(design: SequentialDesign, index: number): SequentialDesign {
  if (index >= design.looks.length - 1) return design;
  const looks = design.looks.slice(0, index + 1);
  const fractions = design.looks.map((n) => n / design.looks[design.looks.length - 1]!).slice(0, index + 1);
  const spent = (total: number) => fractions.map((t, i) => (i === index ? total : obrienFleming(t, total)));
  const failZ = boundariesFromSpending(fractions, spent(design.alpha));
  const passZ = boundariesFromSpending(fractions, spent(1 - design.confidence));
  return { ...design, looks, failZ, passZ, failAlpha: failZ.map(tail), passAlpha: passZ.map(tail) };
}

/** Lan–DeMets O'Brien–Fleming-type spending: the error spent by information fraction t. */
export function obrienFleming(t: number, total: number): number {
  if (t <= 0) return 0;
  if (t >= 1) return total;
  return 2 - 2 * normalCdf(normalQuantile(1 - total / 2) / Math.sqrt(t));
}

function tail(z: number): number {
  return 1 - normalCdf(z);
}

/** One-sided z boundaries for looks at information fractions `fractions`, spending `total`. */
export function spendingBoundaries(fractions: readonly number[], total: number): number[] {
  return boundariesFromSpending(
    fractions,
    fractions.map((t) => obrienFleming(t, total)),
  );
}

const GRID_STEP = 0.02;
const GRID_LOW = -10;

/**
 * z boundaries c_k with P(Z_1 < c_1, …, Z_{k−1} < c_{k−1}, Z_k ≥ c_k) = spent_k − spent_{k−1} for
 * the standardized partial sums of a unit-variance process observed at fractions t_k. Works on
 * the score S_k = Z_k √t_k, whose increments are independent N(0, t_k − t_{k−1}).
 */
export function boundariesFromSpending(fractions: readonly number[], cumulative: readonly number[]): number[] {
  const boundaries: number[] = [];
  // Continuation sub-density of the score on a grid, after the previous look (none yet: a point mass at 0).
  let grid: number[] = [];
  let density: number[] = [];
  let previousT = 0;
  let previousSpent = 0;
  for (let k = 0; k < fractions.length; k++) {
    const t = fractions[k]!;
    const increment = Math.max(0, cumulative[k]! - previousSpent);
    const dt = t - previousT;
    const sd = Math.sqrt(dt);
    // Probability of crossing a score boundary b at this look, having continued so far.
    const crossing = (b: number): number => {
      if (k === 0) return 1 - normalCdf(b / sd);
      let sum = 0;
      for (let i = 0; i < grid.length; i++) sum += density[i]! * (1 - normalCdf((b - grid[i]!) / sd));
      return sum * GRID_STEP;
    };
    let z: number;
    if (increment <= 0) z = Infinity;
    else {
      // Bisection on the z scale; crossing decreases in b.
      let low = -5;
      let high = 12;
      for (let i = 0; i < 60; i++) {
        const mid = (low + high) / 2;
        if (crossing(mid * Math.sqrt(t)) > increment) low = mid;
        else high = mid;
      }
      z = (low + high) / 2;
    }
    boundaries.push(z);
    // The continuation density at this look, below the boundary.
    const bound = Number.isFinite(z) ? z * Math.sqrt(t) : 10 * Math.sqrt(t);
    const nextGrid: number[] = [];
    for (let s = GRID_LOW * Math.sqrt(t); s < bound; s += GRID_STEP) nextGrid.push(s);
    const nextDensity = nextGrid.map((s) => {
      if (k === 0) return normalDensity(s / sd) / sd;
      let sum = 0;
      for (let i = 0; i < grid.length; i++) sum += density[i]! * normalDensity((s - grid[i]!) / sd);
      return (sum * GRID_STEP) / sd;
    });
    grid = nextGrid;
    density = nextDensity;
    previousT = t;
    previousSpent = Number.isFinite(z) ? cumulative[k]! : previousSpent;
  }
  return boundaries;
}

function normalDensity(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}
