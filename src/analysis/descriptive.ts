// Descriptive statistics over small samples of run-level values (one value per repetition).
// Inputs are plain number arrays; callers drop invalid repetitions before calling.

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Linear-interpolated quantile (Hyndman–Fan type 7, the R and NumPy default), q in [0, 1]. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  return quantileSorted(sorted(values), q);
}

export function quantileSorted(ordered: ArrayLike<number>, q: number): number {
  if (ordered.length === 0) return Number.NaN;
  const position = (ordered.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const fraction = position - lower;
  return ordered[lower]! + (ordered[upper]! - ordered[lower]!) * fraction;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Sample standard deviation (n − 1); NaN below two values. */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return Math.sqrt(squares / (values.length - 1));
}

/** Coefficient of variation (sd / |mean|); undefined when it cannot be estimated. */
export function coefficientOfVariation(values: readonly number[]): number | undefined {
  if (values.length < 2) return undefined;
  const m = mean(values);
  if (m === 0) return undefined;
  return standardDeviation(values) / Math.abs(m);
}

/** JSON has no Infinity or NaN: undetectable MDEs and similar are stored as null. */
export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
