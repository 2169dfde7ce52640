// The table every export shares, as the ambient source benchmark prints it: rows p50/p90/p99/max, one column
// per mode, values in ms (median over valid repetitions), one table per load profile. Pure.
import type { RunResult } from '../../results/types.ts';
import { modeNamesOf, profilesOf, summarizeRun } from '../../analysis/run-summary.ts';

export const EXPORT_ROWS = [
  { stat: 'p50', label: 'p50' },
  { stat: 'p90', label: 'p90' },
  { stat: 'p99', label: 'p99' },
  { stat: 'max', label: 'Max' },
] as const;

export interface ExportTable {
  profile: string;
  targetRps: number | null;
  modes: string[];
  /** Modes with no valid repetition (their figures are shown but flagged). */
  invalidModes: string[];
  rows: { label: string; values: (number | null)[] }[];
}

export function exportTables(result: RunResult): ExportTable[] {
  const summaries = summarizeRun(result);
  const order = modeNamesOf(result);
  return profilesOf(result).map((profile) => {
    const inProfile = summaries.filter((s) => s.profile === profile).sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
    return {
      profile,
      targetRps: inProfile.find((s) => s.targetRps !== null)?.targetRps ?? null,
      modes: inProfile.map((s) => s.mode),
      invalidModes: inProfile.filter((s) => s.fromInvalid).map((s) => s.mode),
      rows: EXPORT_ROWS.map(({ stat, label }) => ({ label, values: inProfile.map((s) => s.latency[stat]?.median ?? null) })),
    };
  });
}

/** Six significant digits, as C's %g prints them (the source benchmark's CSV came from such a printf). */
export function formatG(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(6)));
}
