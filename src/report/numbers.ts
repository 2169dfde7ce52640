// The numbers every output prints, one rule per kind of figure, so a value reads the same in the
// terminal, summary.md, the job summary, the PR comment, report.html and the gate lines: three
// significant digits, ASCII signs, "—" where there is no figure. Pure.
import type { Estimate, Interval, Unit } from '../results/analysis.ts';

/** What a cell shows where there is no figure (an en dash would read as a range). */
export const NONE = '—';

const known = (value: number | undefined): value is number => value !== undefined && Number.isFinite(value);

/** Milliseconds without the unit: 0.412, 2.43, 12.4, 245. */
export function ms(value: number | undefined): string {
  return known(value) ? significant(value) : NONE;
}

/** "2.43 ms". */
export function msWithUnit(value: number | undefined): string {
  return known(value) ? `${significant(value)} ms` : NONE;
}

/** A difference in milliseconds without the unit: "+0.300", "-0.120", "0". */
export function signedMs(value: number | undefined): string {
  if (!known(value)) return NONE;
  return `${value > 0 ? '+' : ''}${significant(value)}`;
}

/** A relative change: 0.0453 → "+4.53%", -0.2 → "-20.0%". */
export function signedPercent(relative: number | undefined): string {
  return known(relative) ? formatPercent(relative) : NONE;
}

/** A relative size, unsigned (an MDE, a practical minimum): 0.07 → "7.00%". */
export function sizePercent(relative: number | undefined): string {
  return known(relative) ? formatPercent(relative, false) : NONE;
}

/** A share or a level, unsigned: 0.95 → "95%" (digits 0), 0.875 → "87.5%". */
export function percent(share: number | undefined, digits = 1): string {
  return known(share) ? `${(share * 100).toFixed(digits)}%` : NONE;
}

/** Requests per second: whole above 100, one decimal below. */
export function rps(value: number | undefined): string {
  if (!known(value)) return NONE;
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** One formatter for counts that are not whole numbers: toLocaleString builds one per call. */
const COUNT = new Intl.NumberFormat('en-US');

/** 1234567 → "1,234,567" (en-US grouping); whole numbers by hand, the common case in 100,000-row tables. */
export function count(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return COUNT.format(value);
  const digits = String(Math.abs(value));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return value < 0 ? `-${out}` : out;
}

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
