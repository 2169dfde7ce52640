// Small helpers the source-benchmark formats share, over the run's view. Source-benchmark formats show one figure per mode where our runs have
// several repetitions: percentiles become the median over valid repetitions (run-level
// statistics, as the verdicts use), maxima the largest maximum. Invalid repetitions are left
// out, as everywhere else in the reports, and each format says how many were.
import type { Repetition } from '../../results/types.ts';
import { inOrder, type ModeView, type RunView } from '../view.ts';

export { findRow as findMode } from '../view.ts';

/** A mode's valid repetitions as recorded, in run order. */
export function validRepetitions(mode: ModeView): Repetition[] {
  return mode.records.filter((r) => r.valid);
}

export function invalidCount(view: RunView): number {
  return view.invalid.length;
}

export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Profile names in the config's order (results list them in the order they first ran). */
export function profileNames(view: RunView): string[] {
  return inOrder(
    view.profiles,
    recordedProfiles(view).map((p) => p.name),
  );
}

/** Mode names in the config's order: the source benchmarks' columns follow the order modes are listed in. */
export function modeNames(view: RunView): string[] {
  return view.modeOrder;
}

/** The load profile as the config recorded it, for headings and parameter lines. */
export interface RecordedProfile {
  name: string;
  model?: string;
  rate?: number;
  vus?: number;
  duration?: string;
  warmup?: string;
  repetitions?: number;
  protocol?: string;
  method?: string;
}

export function recordedProfiles(view: RunView): RecordedProfile[] {
  const config = view.config as { profiles?: unknown; load?: unknown };
  const list = Array.isArray(config.profiles)
    ? config.profiles
    : Array.isArray(config.load)
      ? config.load
      : config.load
        ? [config.load]
        : [];
  return list.filter(
    (p): p is RecordedProfile => typeof p === 'object' && p !== null && typeof (p as { name?: unknown }).name === 'string',
  );
}

export function recordedProfile(view: RunView, name: string): RecordedProfile | undefined {
  return recordedProfiles(view).find((p) => p.name === name);
}

/** Pads cells to aligned columns: each column as wide as its widest cell plus `gap`. */
export function alignColumns(rows: readonly string[][], gap: number, minWidths: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length + gap, minWidths[i] ?? 0)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join(''));
}
