// Location estimators over the per-block log ratios log(head ÷ base), each with one-sided bounds
// at any nominal level (the sequential design hands every look its own level):
//  - paired-t: the mean, t interval (efficient on normal noise, broken by one outlier block);
//  - trimmed-mean: the 20 % trimmed mean with Tukey–McLaughlin's winsorized standard error and
//    n − 2g − 1 degrees of freedom (Yuen): close to the t on clean data, robust to outlier blocks;
//  - hodges-lehmann: the median of Walsh averages, bounds from the signed-rank distribution
//    (exact up to 60 blocks, its normal approximation beyond).
// Which one the gate uses is chosen by measured coverage (bench/ab-gate), not assumed.
import { mean, sorted, standardDeviation } from '../descriptive.ts';
import { normalCdf, normalQuantile, studentTCdf, studentTQuantile } from '../distributions.ts';
import { type Dependence, effectiveDf } from './dependence.ts';

export type EstimatorName = 'hodges-lehmann' | 'trimmed-mean' | 'paired-t';

export interface LocationEstimate {
  /** Values it was computed from. */
  n: number;
  /** Centre of the log ratios. */
  center: number;
  /** Standard error of the centre (for t-type estimators; the signed-rank analogue for Hodges–Lehmann). */
  se: number;
  /** Degrees of freedom of the reference t distribution (Infinity: normal). */
  df: number;
  /** The q-quantile of the centre's confidence distribution: a lower bound at level 1 − q for small q. */
  bound(q: number): number;
}

const TRIM = 0.2;

export function estimate(name: EstimatorName, values: readonly number[]): LocationEstimate {
  if (name === 'paired-t') return pairedT(values);
  if (name === 'trimmed-mean') return trimmedMean(values);
  return hodgesLehmann(values);
}

function tBased(n: number, center: number, se: number, df: number): LocationEstimate {
  const safeSe = se > 0 ? se : 0;
  return {
    n,
    center,
    se: safeSe,
    df,
    bound: (q) => (safeSe > 0 ? center + studentTQuantile(q, df) * safeSe : center),
  };
}

function pairedT(values: readonly number[]): LocationEstimate {
  const n = values.length;
  return tBased(n, mean(values), standardDeviation(values) / Math.sqrt(n), n - 1);
}

function trimmedMean(values: readonly number[]): LocationEstimate {
  const n = values.length;
  const ordered = sorted(values);
  const g = Math.floor(TRIM * n);
  const kept = ordered.slice(g, n - g);
  const low = ordered[g]!;
  const high = ordered[n - g - 1]!;
  const winsorized = ordered.map((v) => Math.min(high, Math.max(low, v)));
  const se = standardDeviation(winsorized) / ((1 - 2 * (g / n)) * Math.sqrt(n));
  return tBased(n, mean(kept), se, n - 2 * g - 1);
}

function hodgesLehmann(values: readonly number[]): LocationEstimate {
  const n = values.length;
  const walsh: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh.push((values[i]! + values[j]!) / 2);
  walsh.sort((a, b) => a - b);
  const m = walsh.length;
  const center = m % 2 === 1 ? walsh[(m - 1) / 2]! : (walsh[m / 2 - 1]! + walsh[m / 2]!) / 2;
  const sdRank = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  // Bound at q: the k-th Walsh average from the bottom (lower bound, tail q) or the top (upper
  // bound, tail 1 − q), k one more than the largest t with P(W⁺ ≤ t) ≤ tail under the exact
  // signed-rank distribution of n values (up to EXACT_RANKS; the normal approximation beyond). The
  // approximation it replaces put the 95 % upper bound where it missed 6.2 % of the time at n = 5
  // and 5.5 % at n = 7 and 12 (issue 39). A level the distribution cannot reach (below 2⁻ⁿ: every
  // value on one side) has no bound: ±Infinity, never the extreme Walsh average.
  const bound = (q: number): number => {
    const tail = q < 0.5 ? q : 1 - q;
    const k = n <= EXACT_RANKS ? exactRank(n, tail) : approximateRank(m, sdRank, tail);
    if (k < 1) return q < 0.5 ? -Infinity : Infinity;
    return q < 0.5 ? walsh[Math.min(m, k) - 1]! : walsh[m - Math.min(m, k)]!;
  };
  // A standard-error analogue (half the 68 % interval, from the normal approximation's positions,
  // which move smoothly with n): the scale of the fail side's bound (scaledBound), the MDE and the
  // blocks-to-settle figures.
  const at = (q: number) => walsh[Math.min(m - 1, Math.max(0, Math.round(m / 2 + normalQuantile(q) * sdRank)))]!;
  const se = (at(normalCdf(1)) - at(normalCdf(-1))) / 2;
  return { n, center, se, df: Infinity, bound };
}

/** Values up to which the signed-rank distribution is computed exactly (1,830 sums at 60). */
const EXACT_RANKS = 60;

/** k for tail q under the normal approximation of W⁺ (with its continuity correction); 0: none. */
function approximateRank(m: number, sdRank: number, tail: number): number {
  return Math.floor(m / 2 + normalQuantile(tail) * sdRank + 0.5);
}

const signedRankCdfs = new Map<number, number[]>();

/** 1 + the largest t with P(W⁺ ≤ t) ≤ tail for n values (0 when even t = 0 is too likely). */
function exactRank(n: number, tail: number): number {
  let cdf = signedRankCdfs.get(n);
  if (!cdf) {
    // Subsets of {1, …, n} by their sum: each rank is on the positive side or not, 2⁻ⁿ each way.
    const total = (n * (n + 1)) / 2;
    let counts = new Array<number>(total + 1).fill(0);
    counts[0] = 1;
    for (let r = 1; r <= n; r++) {
      const next = counts.slice();
      for (let t = r; t <= total; t++) next[t]! += counts[t - r]!;
      counts = next;
    }
    cdf = [];
    let sum = 0;
    for (const c of counts) cdf.push((sum += c) / 2 ** n);
    signedRankCdfs.set(n, cdf);
  }
  let t = -1;
  while (t + 1 < cdf.length && cdf[t + 1]! <= tail * (1 + 1e-12)) t++;
  return t + 1;
}

/**
 * The fail side's bound at level q under `dependence`: the centre plus the t quantile times the
 * estimator's standard error, widened by the dependence factor. For Hodges–Lehmann the standard
 * error is half its 68 % rank interval and the t has n − 1 degrees of freedom: the signed-rank
 * distribution itself cannot reach below 2⁻ⁿ (and its normal approximation stops well before),
 * so a rank bound at the first looks' levels (10⁻⁴) was −∞ even for a doubling; the scaled bound
 * reaches any level and, being built on the robust centre and scale, keeps an outlier block from
 * deciding it (bench/ab-gate: +10 % caught by the second look 82 % with the rank bound and 5 %
 * outlier blocks, 97 % with this one).
 */
export function scaledBound(e: LocationEstimate, q: number, dependence: Dependence): number {
  if (!(e.se > 0)) return e.center;
  const df = effectiveDf(Number.isFinite(e.df) ? e.df : e.n - 1, dependence.factor);
  return e.center + referenceQuantile(q, df) * e.se * Math.sqrt(dependence.factor);
}

/**
 * One-sided p of "slower" on the fail side's statistic: the centre over its standard error (widened
 * by the dependence factor) on the same t reference scaledBound uses, so p ≤ a level exactly when
 * the scaled bound at that level is above 0.
 */
export function scaledP(e: LocationEstimate, dependence: Dependence): number {
  if (!(e.se > 0)) return e.center > 0 ? 0 : 1;
  const df = effectiveDf(Number.isFinite(e.df) ? e.df : e.n - 1, dependence.factor);
  const t = e.center / (e.se * Math.sqrt(dependence.factor));
  return Number.isFinite(df) ? 1 - studentTCdf(t, df) : 1 - normalCdf(t);
}

/**
 * The pass side's bound at level q under `dependence`: the estimator's own bound (Hodges–Lehmann's
 * rank bound, chosen for its coverage at 90–99 %), its distance from the centre scaled by the
 * dependence factor and by the heavier t of fewer effective blocks. ±Infinity stays so.
 */
export function widenedBound(e: LocationEstimate, q: number, dependence: Dependence): number {
  const own = e.bound(q);
  if (!Number.isFinite(own) || dependence.factor === 1) return own;
  const df = Number.isFinite(e.df) ? e.df : e.n - 1;
  const heavier = referenceQuantile(q, effectiveDf(df, dependence.factor)) / referenceQuantile(q, df);
  return e.center + (own - e.center) * Math.sqrt(dependence.factor) * heavier;
}

/** The quantile of the estimator's reference distribution (t with df, or normal). */
export function referenceQuantile(q: number, df: number): number {
  if (!Number.isFinite(df)) return normalQuantile(q);
  // Degrees of freedom to 0.01 (effective ones are fractional): the quantile moves by less than
  // 10⁻³ of itself, and the bisection behind it is worth remembering (a look asks a handful).
  const rounded = Math.round(df * 100) / 100;
  const key = `${q}/${rounded}`;
  let value = tQuantiles.get(key);
  if (value === undefined) {
    if (tQuantiles.size > 10_000) tQuantiles.clear();
    value = studentTQuantile(q, rounded);
    tQuantiles.set(key, value);
  }
  return value;
}

const tQuantiles = new Map<string, number>();
