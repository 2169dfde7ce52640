// Number formatting shared by verdict lines and the report renderers, so a value reads the same
// in the terminal, summary.md and the PR comment.
import type { Interval } from '../results/analysis.ts';
import type { Estimate, Unit } from '../results/analysis.ts';

/** Three significant digits, no exponent; enough for run-level statistics. */
export function significant(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return value > 0 ? '∞' : value < 0 ? '-∞' : 'n/a';
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 6));
}

/** A configured limit as the user wrote it: no padding zeros ("0.05 ms", not "0.0500 ms"). */
export function formatLimit(value: number, unit: Unit | 'ratio' | 'relative'): string {
  return formatNumber(value, unit)
    .replace(/(\.\d*?)0+(?=\D|$)/, '$1')
    .replace(/\.(?=\D|$)/, '');
}

export function formatNumber(value: number, unit: Unit | 'ratio' | 'relative'): string {
  switch (unit) {
    case 'ms':
      return `${significant(value)} ms`;
    case 'rps':
      return `${Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : significant(value)} rps`;
    case 'fraction':
      return `${significant(value * 100)}%`;
    case 'millicores':
      return `${significant(value)}m`;
    case 'MiB':
      return `${significant(value)} MiB`;
    case 'ratio':
      return `×${significant(value)}`;
    case 'relative':
      return formatPercent(value);
  }
}

export function formatSigned(value: number, unit: Unit | 'ratio' | 'relative'): string {
  const text = formatNumber(value, unit);
  return value > 0 && unit !== 'ratio' && unit !== 'relative' ? `+${text}` : text;
}

/** Signed percentage of a relative change: 0.1 → "+10.0%". */
export function formatPercent(relative: number, signed = true): string {
  if (!Number.isFinite(relative)) return relative > 0 ? '∞' : 'n/a';
  const pct = relative * 100;
  const text = Math.abs(pct) >= 100 ? pct.toFixed(0) : Math.abs(pct) >= 10 ? pct.toFixed(1) : pct.toFixed(2);
  return `${signed && pct > 0 ? '+' : ''}${text}%`;
}

export function formatInterval(ci: Interval | undefined, unit: Unit | 'ratio' | 'relative', signed = false): string {
  if (!ci) return '';
  const show = signed ? formatSigned : formatNumber;
  return `[${show(ci.low, unit)}, ${show(ci.high, unit)}]`;
}

/** "1.23 ms [1.20 ms, 1.31 ms]" (no interval when there is none). */
export function formatEstimate(estimate: Estimate, unit: Unit | 'ratio' | 'relative', signed = false): string {
  const show = signed ? formatSigned : formatNumber;
  const ci = formatInterval(estimate.ci, unit, signed);
  return ci ? `${show(estimate.value, unit)} ${ci}` : show(estimate.value, unit);
}

/**
 * "with this noise, changes under 7% on p50 are not detectable". `n`, the valid repetitions
 * behind it, tells an MDE missing for want of repetitions from one missing because the statistic
 * is 0 in every repetition (an error rate of 0/0 has no relative change to size).
 */
export function mdeSentence(mde: number | null | undefined, what: string, n?: number): string {
  if (mde === undefined || Number.isNaN(mde)) {
    if (n !== undefined && n >= 2) return `no MDE for ${what}: it is 0 in all ${n} repetitions, so a relative change cannot be sized`;
    return `MDE unknown for ${what} (fewer than two valid repetitions)`;
  }
  if (mde === null || !Number.isFinite(mde))
    return `with these repetitions no change on ${what} is detectable (too few to reach the gate's alpha)`;
  return `with this noise, changes under ${formatPercent(mde, false)} on ${what} are not detectable`;
}

/** JSON has no Infinity or NaN: undetectable MDEs and similar are stored as null. */
export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/**
 * Below this many values an interval of the median is not a 95% CI: the percentile bootstrap of a
 * median of 2–5 values returns [min, max] of them, which covers the true median only
 * 1 − 2·0.5ⁿ of the time (n = 3: 75%).
 */
export const MIN_VALUES_FOR_MEDIAN_CI = 6;

/** Real coverage of [min, max] of n values for their distribution's median. */
export function rangeCoverage(n: number): number {
  return 1 - 2 * 0.5 ** n;
}

/** Short column label for an interval of the median over (at least) n values: "95% CI" or "range". */
export function medianIntervalLabel(n: number, level: number): string {
  return n >= MIN_VALUES_FOR_MEDIAN_CI ? `${Math.round(level * 100)}% CI` : 'range';
}

/**
 * What the brackets around a median are, as one sentence; undefined when they are a
 * confidence interval at the stated level. n is the fewest values behind any bracket shown.
 */
export function smallSampleIntervalNote(n: number, level: number): string | undefined {
  if (n < 2 || n >= MIN_VALUES_FOR_MEDIAN_CI) return undefined;
  return (
    `With ${n} repetitions an interval of the median is the range of the repetitions (min–max), which covers the true median ` +
    `${formatPercent(rangeCoverage(n), false)} of the time, not ${Math.round(level * 100)}%; ${MIN_VALUES_FOR_MEDIAN_CI} or more repetitions give a ${Math.round(level * 100)}% confidence interval.`
  );
}
