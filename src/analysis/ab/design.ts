// Group-sequential design of the A/B gate: at which block counts the gate looks, and how strict
// each look is so that looking repeatedly keeps both errors at their stated level.
//  - fail side: H0 "head is not slower"; the run's alpha (default 1 %, shared by every A/B gate of
//    the run, Holm: family.ts) is spent over the looks as α·t², t = blocks ÷ maxBlocks (power
//    family, ρ = 2): strict early, yet loose enough at the first look for a doubling to fail there
//    (O'Brien–Fleming's 10⁻⁷ at 10 of 40 blocks was out of any estimator's reach at 10 blocks).
//  - pass side: H0 "head is slower by the practical minimum"; its error (1 − confidence, 5 %) is
//    spent too (power family, total · t²), so "within the minimum" is as honest after five looks
//    as after one.
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
  /** Per look: the alpha spent by then, as a share of the whole alpha (1 at the last look). */
  failSpent: number[];
  /** Per look: the pass side's error spent by then, as a share of 1 − confidence. */
  passSpent: number[];
  /** Per look: the nominal one-sided level the fail side tests at (its z boundary's tail). */
  failAlpha: number[];
  /** Per look: the nominal one-sided level of the pass side's upper bound. */
  passAlpha: number[];
  /** The same boundaries on the z scale (for reports and tests). */
  failZ: number[];
  passZ: number[];
  alpha: number;
  confidence: number;
  /** The design whose first `looks` boundaries this one keeps (finalAt, relookAfter): its levels at any share too. */
  derivedFrom?: { design: SequentialDesign; looks: number };
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
  return withSpending(
    looks,
    fractions.map((t) => FAIL_SPENDING(t, 1)),
    fractions.map((t) => PASS_SPENDING(t, 1)),
    settings,
  );
}

/** The design from its looks and what each side has spent by each look (shares of its total). */
function withSpending(
  looks: number[],
  failSpent: number[],
  passSpent: number[],
  settings: Pick<AbDesignSettings, 'alpha' | 'confidence'>,
  /** A design whose first `kept.looks` boundaries these looks keep verbatim (the integration's grid moves them by 10⁻³ otherwise). */
  kept?: { design: SequentialDesign; looks: number },
): SequentialDesign {
  const fractions = looks.map((n) => n / looks[looks.length - 1]!);
  const keep = (computed: number[], previous: number[] | undefined) =>
    kept && previous ? [...previous.slice(0, kept.looks), ...computed.slice(kept.looks)] : computed;
  const failZ = keep(
    boundariesFromSpending(
      fractions,
      failSpent.map((s) => s * settings.alpha),
    ),
    kept?.design.failZ,
  );
  const passZ = keep(
    boundariesFromSpending(
      fractions,
      passSpent.map((s) => s * (1 - settings.confidence)),
    ),
    kept?.design.passZ,
  );
  return {
    looks,
    failSpent,
    passSpent,
    ...(kept ? { derivedFrom: kept } : {}),
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
  let byIndex = truncated.get(design);
  if (!byIndex) truncated.set(design, (byIndex = new Map()));
  let found = byIndex.get(index);
  if (!found) {
    const keep = (spent: number[]) => spent.slice(0, index + 1).map((s, i) => (i === index ? 1 : s));
    found = withSpending(design.looks.slice(0, index + 1), keep(design.failSpent), keep(design.passSpent), design, {
      design,
      looks: index,
    });
    byIndex.set(index, found);
  }
  return found;
}

/** finalAt's designs, per design and look: the boundaries are numerical integrals, a look asks again and again. */
const truncated = new WeakMap<SequentialDesign, Map<number, SequentialDesign>>();

/**
 * The design with its looks after `index` moved (the budget ends elsewhere than planned: the
 * measured pace holds more or fewer blocks). Looks up to `index` keep their boundaries (their
 * spending and their block counts, whose ratios alone fix the boundaries); the new later looks
 * spend by the same functions over the new last look, never less than is already spent.
 */
export function relookAfter(design: SequentialDesign, index: number, later: readonly number[]): SequentialDesign {
  const kept = design.looks.slice(0, index + 1);
  const looks = [...kept, ...later.filter((n) => n > kept[kept.length - 1]!)];
  if (looks.length === kept.length) return finalAt(design, index);
  const last = looks[looks.length - 1]!;
  const spend = (spent: number[], spending: Spending) => {
    const out = spent.slice(0, index + 1);
    for (const n of looks.slice(index + 1)) out.push(Math.max(out[out.length - 1]!, spending(n / last, 1)));
    out[out.length - 1] = 1;
    return out;
  };
  return withSpending(looks, spend(design.failSpent, FAIL_SPENDING), spend(design.passSpent, PASS_SPENDING), design, {
    design,
    looks: index + 1,
  });
}

const shareLevels = new WeakMap<SequentialDesign, Map<number, number[]>>();

/**
 * The fail side's nominal one-sided level per look when this gate may spend `share` of the run's
 * alpha (Holm: 1 ÷ the gates not yet failed). share 1 is the design's own failAlpha.
 */
export function failLevels(design: SequentialDesign, share: number): number[] {
  if (share >= 1) return design.failAlpha;
  let byShare = shareLevels.get(design);
  if (!byShare) shareLevels.set(design, (byShare = new Map()));
  let levels = byShare.get(share);
  if (!levels) {
    const fractions = design.looks.map((n) => n / design.looks[design.looks.length - 1]!);
    levels = boundariesFromSpending(
      fractions,
      design.failSpent.map((s) => s * share * design.alpha),
    ).map(tail);
    const parent = design.derivedFrom;
    if (parent) levels = [...failLevels(parent.design, share).slice(0, parent.looks), ...levels.slice(parent.looks)];
    byShare.set(share, levels);
  }
  return levels;
}

type Spending = (t: number, total: number) => number;

/** Power-family spending total · t^ρ (Kim–DeMets): ρ = 1 spends evenly (Pocock-like), ρ = 3 resembles O'Brien–Fleming. */
export function powerSpending(rho: number): Spending {
  return (t, total) => (t <= 0 ? 0 : t >= 1 ? total : total * t ** rho);
}

/**
 * The pass side spends its error as total · t²: between Pocock and O'Brien–Fleming, so a clean
 * change passes at an early look more often while the last look stays close to the fixed-sample
 * bound (a 300-history pilot with the trimmed mean at r 3.5 %: a clean run stopped after 8.8 blocks
 * on average instead of 10.0 with O'Brien–Fleming on this side, 7.9 with t¹, whose last look then
 * passed fewer clean runs at r 5 %: 95.3 % against 97.7 %).
 */
const PASS_SPENDING: Spending = powerSpending(2);

/**
 * The fail side spends α·t² too. Measured against O'Brien–Fleming-type spending (bench/ab-gate,
 * docs/methodology-statistics.md): the same power at the last look within a point, and a doubling
 * fails at the first look instead of waiting for the third.
 */
const FAIL_SPENDING: Spending = powerSpending(2);

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
