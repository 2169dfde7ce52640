// A distribution-free confidence interval for the median from order statistics. History keeps
// one value per repetition and runs have 3–10 repetitions, too few for a bootstrap to mean much;
// the order-statistic interval states its exact coverage instead (3 repetitions: 75%, 5: 93.8%).
import { quantileSorted } from './descriptive.ts';

export interface MedianInterval {
  median: number;
  low: number;
  high: number;
  /** Exact coverage of [low, high] for the median of any continuous distribution. */
  coverage: number;
  n: number;
}

/** Binomial(n, 1/2) cumulative probability P(B ≤ k). */
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

/**
 * The narrowest symmetric interval [x(l), x(n+1-l)] whose coverage is at least `level`; when
 * even [min, max] falls short (n < 6 at 95%), [min, max] with its real coverage.
 */
export function medianInterval(values: readonly number[], level = 0.95): MedianInterval | undefined {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return undefined;
  const median = quantileSorted(xs, 0.5);
  if (n === 1) return { median, low: median, high: median, coverage: 0, n };
  let l = 1;
  while (l + 1 <= n + 1 - (l + 1) && 1 - 2 * binomialHalfCdf(n, l) >= level) l++;
  const coverage = 1 - 2 * binomialHalfCdf(n, l - 1);
  return { median, low: xs[l - 1]!, high: xs[n - l]!, coverage, n };
}
