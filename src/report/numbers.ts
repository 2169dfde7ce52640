// The numbers every output prints, one rule per kind of figure, so a value reads the same in the
// terminal, summary.md, the job summary, the PR comment, report.html and the gate lines: three
// significant digits (analysis/format.ts's rule, which the gate lines the analysis writes use;
// it moves here when the analysis hands over evidence instead of sentences), ASCII signs, "—"
// where there is no figure. Pure.
import { formatPercent, significant } from '../analysis/format.ts';

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
