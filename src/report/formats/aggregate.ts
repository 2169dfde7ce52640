// Small helpers the source-benchmark formats share. Source-benchmark formats show one figure per mode where our runs have
// several repetitions: percentiles become the median over valid repetitions (run-level
// statistics, as the verdicts use), maxima the largest maximum. Invalid repetitions are left
// out, as everywhere else in the reports, and each format says how many were.
import type { RunResult } from '../../results/types.ts';
import { configuredModeOrder, inOrder } from '../view.ts';

export { validRepetitions } from '../../analysis/summary.ts';
export { findMode } from '../../results/modes.ts';

export function invalidCount(result: RunResult): number {
  return result.modes.reduce((n, m) => n + m.repetitions.filter((r) => !r.valid).length, 0);
}

export function mean(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Profile names in the config's order (results list them in the order they first ran). */
export function profileNames(result: RunResult): string[] {
  return inOrder(
    [...new Set(result.modes.map((m) => m.profile))],
    recordedProfiles(result).map((p) => p.name),
  );
}

/** Mode names in the config's order: the source benchmarks' columns follow the order modes are listed in. */
export const modeNames = configuredModeOrder;

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

export function recordedProfiles(result: RunResult): RecordedProfile[] {
  const config = result.config as { profiles?: unknown; load?: unknown };
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

export function recordedProfile(result: RunResult, name: string): RecordedProfile | undefined {
  return recordedProfiles(result).find((p) => p.name === name);
}

/** Pads cells to aligned columns: each column as wide as its widest cell plus `gap`. */
export function alignColumns(rows: readonly string[][], gap: number, minWidths: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length + gap, minWidths[i] ?? 0)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join(''));
}
