// The "vs base" column: this run's p50 per mode against the PR's base branch, from history. Pure.
// The decision (regression or not) belongs to the analysis stage's regression gate; this only
// shows the reference so a reviewer sees what the gate compared against.
import type { RunResult } from '../results/types.ts';
import { median } from '../analysis/descriptive.ts';
import { buildRunView, findRow, type ModeView } from '../report/view.ts';

/** History the caller looked up for the PR's base (base commit, else the base branch's latest). */
export interface BaseReference {
  /** Branch the runs came from, e.g. "main". */
  ref: string;
  /** The base commit, when the lookup found runs for exactly that commit. */
  commit?: string;
  runs: RunResult[];
  /** Set when the runs start after the branch's last change point (the first run after it). */
  windowAfter?: string;
}

export interface BaseComparison {
  mode: string;
  profile: string;
  baseP50: number;
  /** (current − base) / base. */
  change: number;
  /** Past runs that contributed. */
  runs: number;
}

export function compareWithBase(modes: ModeView[], base: BaseReference | undefined): BaseComparison[] {
  if (!base) return [];
  // Each base run's p50 as its own outputs showed it: the run's median over valid repetitions.
  const usable = base.runs.filter((run) => run.verdict !== 'invalid').map(buildRunView);
  return modes.flatMap((view) => {
    const p50 = view.fromInvalid ? undefined : view.latency.p50;
    if (!p50) return [];
    const perRun = usable.flatMap((run) => {
      const row = findRow(run, view.mode, view.profile);
      return row && !row.fromInvalid && row.latency.p50 ? [row.latency.p50.value] : [];
    });
    if (perRun.length === 0) return [];
    const baseP50 = median(perRun);
    if (!(baseP50 > 0)) return [];
    return [{ mode: view.mode, profile: view.profile, baseP50, change: (p50.value - baseP50) / baseP50, runs: perRun.length }];
  });
}

export function describeBase(base: BaseReference): string {
  if (base.commit) return `${base.ref} at ${base.commit.slice(0, 7)}`;
  return base.windowAfter
    ? `${base.ref} (latest ${base.runs.length}, from run ${base.windowAfter} after its last change point)`
    : `${base.ref} (latest ${base.runs.length})`;
}
