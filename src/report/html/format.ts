// Number formatting shared by the HTML report and the exports: enough digits to compare modes,
// not so many that noise looks like signal.
export function formatMs(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return value.toFixed(digits);
}

export function formatSigned(value: number | undefined, format: (v: number) => string = formatMs): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
}

export function formatPercent(ratio: number | undefined, digits = 1): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '–';
  return `${(ratio * 100).toFixed(digits)}%`;
}

export function formatRps(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** One formatter for counts that are not whole numbers: toLocaleString builds one per call. */
const COUNT = new Intl.NumberFormat('en-US');

/** 1234567 → "1,234,567" (en-US grouping); whole numbers by hand, the common case in 100,000-row tables. */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return COUNT.format(value);
  const digits = String(Math.abs(value));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return value < 0 ? `-${out}` : out;
}

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#8C6D31', '#000000'];

export function colorFor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}
