// 95 % intervals of a proportion measured in a bench (k of n histories, or of n real decisions):
// Wilson's score interval, which stays inside [0, 1] and is honest at 0 of n (Agresti & Coull 1998).
const Z = 1.959963984540054;

export interface Proportion {
  k: number;
  n: number;
  rate: number;
  low: number;
  high: number;
}

export function wilson(k: number, n: number): Proportion {
  if (n === 0) return { k, n, rate: Number.NaN, low: 0, high: 1 };
  const p = k / n;
  const centre = (p + (Z * Z) / (2 * n)) / (1 + (Z * Z) / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n))) / (1 + (Z * Z) / n);
  return { k, n, rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** "0.31% [0.22, 0.44]": the rate and its 95 % interval, in percent. */
export function percentWithInterval(p: Proportion, digits = 2): string {
  const pct = (x: number) => (100 * x).toFixed(digits);
  return `${pct(p.rate)}% [${pct(p.low)}, ${pct(p.high)}]`;
}
