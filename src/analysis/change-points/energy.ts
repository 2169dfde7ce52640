// The E-divisive candidate (Matteson & James 2014, energy statistic with exponent 1): inside an
// interval, the split τ (and right end κ) that makes [start, τ) and [τ, κ) most different in
// distribution. Pair sums are tabulated once per window, so each search is O(length²). Pure.

let shared = new Float64Array(0);

/** Σ |y_i − y_k| over i < k in [a, b), for every start ≤ a < b ≤ end of one window. */
export class PairSums {
  private readonly size: number;
  private readonly table: Float64Array;

  constructor(
    values: ArrayLike<number>,
    readonly start: number,
    readonly end: number,
  ) {
    this.size = end - start + 1;
    // One buffer reused by every window of a series' split (they are searched one at a time).
    if (shared.length < this.size * this.size) shared = new Float64Array(this.size * this.size);
    this.table = shared;
    // P(a, b) = P(a, b − 1) + Σ_{i=a}^{b−2} |y_i − y_{b−1}|; the inner sum grows as a moves left.
    for (let b = start + 2; b <= end; b++) {
      const last = values[b - 1]!;
      let column = 0;
      for (let a = b - 2; a >= start; a--) {
        column += Math.abs(values[a]! - last);
        this.table[this.cell(a, b)] = (b - 1 - a < 2 ? 0 : this.table[this.cell(a, b - 1)]!) + column;
      }
    }
  }

  private cell(a: number, b: number): number {
    return (a - this.start) * this.size + (b - this.start);
  }

  within(a: number, b: number): number {
    return b - a < 2 ? 0 : this.table[this.cell(a, b)]!;
  }
}

export interface Candidate {
  /** First index of the right-hand segment. */
  index: number;
  /** The energy statistic at the best (τ, κ). */
  q: number;
}

/**
 * Best split of [from, to) with at least `minSegment` points on each side (both of the tested
 * segments and of the energy comparison); undefined when the interval is too short.
 */
export function bestSplit(sums: PairSums, from: number, to: number, minSegment: number): Candidate | undefined {
  const least = Math.max(2, minSegment);
  let best: Candidate | undefined;
  for (let tau = from + least; tau <= to - least; tau++) {
    const n = tau - from;
    const left = sums.within(from, tau);
    for (let kappa = tau + least; kappa <= to; kappa++) {
      const m = kappa - tau;
      const right = sums.within(tau, kappa);
      const between = sums.within(from, kappa) - left - right;
      const q = (2 / (n + m)) * between - ((2 * m) / ((n + m) * (n - 1))) * left - ((2 * n) / ((n + m) * (m - 1))) * right;
      // Strictly greater: ties keep the earliest split, so the result depends on the data only.
      if (!best || q > best.q) best = { index: tau, q };
    }
  }
  return best;
}
