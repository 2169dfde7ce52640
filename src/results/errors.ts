// Failed requests in words: "HTTP 500 × 2,000; connection reset × 12; timeout × 3". Pure; used
// by the log lines, the error gate and every report so all of them name causes alike.
import type { Repetition } from './types.ts';

const count = new Intl.NumberFormat('en-US');

/** Causes summed over repetitions, largest first. */
export function sumCauses(repetitions: readonly Pick<Repetition, 'errorCauses'>[]): [string, number][] {
  const total = new Map<string, number>();
  for (const r of repetitions) for (const [cause, n] of Object.entries(r.errorCauses ?? {})) total.set(cause, (total.get(cause) ?? 0) + n);
  return [...total.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The top causes, "HTTP 500 × 2,000; timeout × 3", with "and N more" past `top`. */
export function formatCauses(causes: Record<string, number> | [string, number][] | undefined, top = 3): string {
  const entries = Array.isArray(causes) ? causes : sumCauses([{ errorCauses: causes ?? {} }]);
  if (entries.length === 0) return 'cause unknown';
  const shown = entries.slice(0, top).map(([cause, n]) => `${cause} × ${count.format(n)}`);
  if (entries.length > top) shown.push(`${entries.length - top} more`);
  return shown.join('; ');
}

/** An error rate as a percentage with enough digits that a non-zero rate never reads 0. */
export function formatErrorRate(rate: number): string {
  const pct = rate * 100;
  if (pct === 0) return '0%';
  if (pct < 0.01) return '<0.01%';
  return `${pct < 10 ? pct.toFixed(2) : pct.toFixed(1)}%`;
}
