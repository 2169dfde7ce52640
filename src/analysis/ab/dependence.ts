// Blocks of one run are not independent: a process that is slow for a minute, a node whose
// neighbour is busy, make neighbouring blocks' log(head ÷ base) alike, and an interval that takes
// them as independent is too narrow (AR(1) with ρ 0.3: the variance of the mean is 1.86 × what it
// claims; bench/ab-gate measured 4.4 % of clean runs failed at a 1 % design). Here: how much wider,
// from the run itself. The lag-1 autocorrelation of the per-block log ratios in block (time) order,
// pooled over every A/B gate of the run on the same statistic (one platform, one machine: a shared
// property, and three gates estimate it better than one), bias-corrected for short series
// (E ρ̂ ≈ ρ − (1 + 3ρ) ÷ n) and moved up by half its standard error, so a run whose blocks happen to
// look independent is not taken at its word. The variance factor is the AR(1) one, (1 + ρ) ÷ (1 − ρ),
// and the blocks count as n ÷ factor for the t distribution's degrees of freedom (not below half).
import { sorted } from '../descriptive.ts';

/** Fewest blocks in a series that says anything about its autocorrelation. */
const MIN_SERIES = 4;
/** Share of each end winsorized, so one outlier block does not make or break a correlation. */
const WINSOR = 0.1;
/** Standard errors of ρ̂ added to its estimate (measured in bench/ab-gate: 0.5 holds 1 % at ρ 0.3). */
const GUARD = 0.5;
/** The largest autocorrelation taken: beyond it the factor (9 ×) says the blocks hold little. */
const MAX_RHO = 0.8;

export interface Dependence {
  /** Variance factor applied to every interval: 1 = independent blocks. */
  factor: number;
  /** The autocorrelation the factor stands for (bias-corrected, guarded, clamped to [0, 0.8]). */
  rho: number;
  /** Blocks the estimate pooled. */
  blocks: number;
}

export const INDEPENDENT: Dependence = { factor: 1, rho: 0, blocks: 0 };

/** The pooled dependence of several gates' per-block log ratios, each in block order. */
export function dependenceOf(series: readonly (readonly number[])[]): Dependence {
  let products = 0;
  let squares = 0;
  let blocks = 0;
  let counted = 0;
  for (const values of series) {
    if (values.length < MIN_SERIES) continue;
    const w = winsorized(values);
    const centre = w.reduce((s, v) => s + v, 0) / w.length;
    for (let i = 0; i < w.length; i++) {
      squares += (w[i]! - centre) ** 2;
      if (i > 0) products += (w[i]! - centre) * (w[i - 1]! - centre);
    }
    blocks += values.length;
    counted++;
  }
  if (counted === 0) return INDEPENDENT;
  const raw = squares > 0 ? products / squares : 0;
  const meanLength = blocks / counted;
  const rho = Math.min(MAX_RHO, Math.max(0, raw + (1 + 3 * raw) / meanLength + GUARD / Math.sqrt(blocks)));
  return { factor: (1 + rho) / (1 - rho), rho, blocks };
}

/** Degrees of freedom of a t reference for `df` under dependence `factor`: the effective blocks, not below half. */
export function effectiveDf(df: number, factor: number): number {
  if (!Number.isFinite(df)) return df;
  return Math.max(df / 2, (df + 1) / factor - 1);
}

function winsorized(values: readonly number[]): number[] {
  const ordered = sorted(values);
  const g = Math.floor(WINSOR * values.length);
  const low = ordered[g]!;
  const high = ordered[values.length - 1 - g]!;
  return values.map((v) => Math.min(high, Math.max(low, v)));
}
