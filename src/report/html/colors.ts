// Colours of the report's and the dashboard's charts (numbers are formatted by report/numbers.ts).
/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#8C6D31', '#000000'];

export function colorFor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}
