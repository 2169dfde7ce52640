// Mann–Whitney U test over run-level values (one value per repetition), one-sided: "is the
// candidate stochastically larger than the reference?". Per-request latencies are never fed in:
// they are autocorrelated and so many that any difference would look significant.
import type { MannWhitneyResult } from '../results/analysis.ts';
import { normalCdf } from './distributions.ts';

/** Exact enumeration is used up to this many arrangements; beyond, the normal approximation. */
const EXACT_LIMIT = 200_000;

export function mannWhitneyGreater(candidate: readonly number[], reference: readonly number[]): MannWhitneyResult {
  const m = candidate.length;
  const n = reference.length;
  if (m === 0 || n === 0) return { u: Number.NaN, p: 1, method: 'exact', minimumP: 1 };
  const { ranks, tieGroups } = midRanks([...candidate, ...reference]);
  let rankSum = 0;
  for (let i = 0; i < m; i++) rankSum += ranks[i]!;
  const u = rankSum - (m * (m + 1)) / 2;
  const combos = binomial(m + n, m);
  const minimumP = 1 / combos;
  if (tieGroups.length === 0 && m * n <= 5000) {
    return { u, p: exactUpperTail(m, n, u), method: 'exact', minimumP };
  }
  if (combos <= EXACT_LIMIT) {
    return { u, p: permutationUpperTail(ranks, m, rankSum), method: 'exact-permutation', minimumP };
  }
  return { u, p: normalUpperTail(m, n, u, tieGroups), method: 'normal', minimumP };
}

/** Smallest p-value a one-sided test can reach with these sample sizes (no ties). */
export function minimumAttainableP(m: number, n: number): number {
  return 1 / binomial(m + n, m);
}

function midRanks(values: number[]): { ranks: number[]; tieGroups: number[] } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  const tieGroups: number[] = [];
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = rank;
    if (j > i) tieGroups.push(j - i + 1);
    i = j + 1;
  }
  return { ranks, tieGroups };
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** P(U ≥ u) under H0 without ties: counts of arrangements by U, built up one value at a time. */
function exactUpperTail(m: number, n: number, u: number): number {
  // counts[j][k] after processing: number of arrangements of j candidate and k reference values
  // with each U; we only need the final row, built with the recurrence
  // N(u; j, k) = N(u − k; j − 1, k) + N(u; j, k − 1).
  const maxU = m * n;
  let previous: number[][] = []; // previous[k] = distribution for (j − 1, k)
  for (let k = 0; k <= n; k++) previous.push(k === 0 ? [1] : [1]);
  // j = 0: only U = 0, one arrangement for every k.
  for (let j = 1; j <= m; j++) {
    const current: number[][] = [];
    for (let k = 0; k <= n; k++) {
      const size = j * k + 1;
      const row = new Array<number>(size).fill(0);
      const fromCandidate = previous[k]!; // last value is a candidate value: it beats all k references
      for (let x = 0; x < fromCandidate.length; x++) row[x + k] = (row[x + k] ?? 0) + fromCandidate[x]!;
      if (k > 0) {
        const fromReference = current[k - 1]!; // last value is a reference value: adds nothing
        for (let x = 0; x < fromReference.length; x++) row[x] = (row[x] ?? 0) + fromReference[x]!;
      }
      current.push(row);
    }
    previous = current;
  }
  const distribution = previous[n]!;
  let total = 0;
  let tail = 0;
  const threshold = Math.ceil(u - 1e-9);
  for (let x = 0; x <= maxU; x++) {
    total += distribution[x] ?? 0;
    if (x >= threshold) tail += distribution[x] ?? 0;
  }
  return tail / total;
}

/** Exact permutation p-value with tied (mid-)ranks: every way to pick m of the pooled ranks. */
function permutationUpperTail(ranks: number[], m: number, observed: number): number {
  const pool = [...ranks].sort((a, b) => a - b);
  let atLeast = 0;
  let total = 0;
  const epsilon = 1e-9;
  const walk = (start: number, left: number, sum: number): void => {
    if (left === 0) {
      total++;
      if (sum >= observed - epsilon) atLeast++;
      return;
    }
    for (let i = start; i <= pool.length - left; i++) walk(i + 1, left - 1, sum + pool[i]!);
  };
  walk(0, m, 0);
  return atLeast / total;
}

/** Normal approximation with tie correction and continuity correction. */
function normalUpperTail(m: number, n: number, u: number, tieGroups: number[]): number {
  const N = m + n;
  const tieTerm = tieGroups.reduce((sum, t) => sum + (t ** 3 - t), 0);
  const variance = ((m * n) / 12) * (N + 1 - tieTerm / (N * (N - 1)));
  if (variance <= 0) return 1;
  const z = (u - (m * n) / 2 - 0.5) / Math.sqrt(variance);
  return 1 - normalCdf(z);
}
