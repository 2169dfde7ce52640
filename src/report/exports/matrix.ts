// The table every export shares, as the ambient source benchmark prints it: rows p50/p90/p99/max, one column
// per mode, values in ms (median over valid repetitions; Max the largest of any), one table per load profile. Pure.
import type { RunView } from '../view.ts';

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
  rows: {
    label: string;
    values: (number | null)[] /** Each mode ÷ the baseline − 1, paired by block (null: none). */;
    overheads: (number | null)[];
  }[];
}

export function exportTables(view: RunView): ExportTable[] {
  const order = [...new Set(view.modes.map((m) => m.mode))];
  return view.profiles.map((profile) => {
    const inProfile = view.modes.filter((s) => s.profile === profile).sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode));
    return {
      profile,
      targetRps: inProfile.find((s) => s.targetRps !== null)?.targetRps ?? null,
      modes: inProfile.map((s) => s.mode),
      invalidModes: inProfile.filter((s) => s.fromInvalid).map((s) => s.mode),
      rows: EXPORT_ROWS.map(({ stat, label }) => ({
        label,
        // Max is the largest latency of any valid repetition, as the source benchmark's max is its run's.
        values: inProfile.map((s) => (stat === 'max' ? (s.largestMs ?? null) : (s.latency[stat]?.value ?? null))),
        overheads: inProfile.map((s) => {
          // A largest value has no paired-by-block overhead to show beside it.
          if (stat === 'max') return null;
          const ratio = s.overhead[stat]?.ratio;
          return ratio ? ratio.value - 1 : null;
        }),
      })),
    };
  });
}

/** Six significant digits, as C's %g prints them (the source benchmark's CSV came from such a printf). */
export function formatG(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '';
  return String(Number(value.toPrecision(6)));
}
