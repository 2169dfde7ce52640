// The reference a run was compared with, as the view carries it (RunView.reference): which runs of
// the PR's base (base commit, else the base branch's latest) and, per mode, this run's p50 against
// theirs (the "vs base" column). Part of building the view: front ends hand the history lookup to
// buildRunView, renderers read the result. The decision (regression or not) belongs to the
// analysis stage's regression gate; this only shows the reference so a reviewer sees what the
// gate compared against. Pure.
import type { RunResult } from '../results/types.ts';
import { median } from '../analysis/descriptive.ts';

/** What a comparison reads of a row of a view (view.ts's ModeView has it; named here so the view can import this file). */
interface Row {
  mode: string;
  profile: string;
  fromInvalid: boolean;
  latency: { p50?: { value: number } };
}

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

/** What the view says about the reference: the lookup's facts without its runs, and the comparisons. */
export interface ReferenceView {
  ref: string;
  commit?: string;
  /** How many runs the reference rests on. */
  runs: number;
  windowAfter?: string;
  /** "main at 1a2b3c4", "main (latest 3)". */
  described: string;
  /** Per mode and profile with a comparable p50 in the reference; empty when none has. */
  comparisons: BaseComparison[];
}

/**
 * The reference's view from this run's rows: `viewOf` builds each base run's own view, so each
 * base p50 is the figure that run's outputs showed (its median over valid repetitions).
 */
export function referenceView(
  modes: readonly Row[],
  base: BaseReference,
  viewOf: (run: RunResult) => { modes: readonly Row[] },
): ReferenceView {
  const view: ReferenceView = {
    ref: base.ref,
    runs: base.runs.length,
    described: describeBase(base),
    comparisons: compareWithBase(modes, base, viewOf),
  };
  if (base.commit) view.commit = base.commit;
  if (base.windowAfter) view.windowAfter = base.windowAfter;
  return view;
}

function compareWithBase(
  modes: readonly Row[],
  base: BaseReference,
  viewOf: (run: RunResult) => { modes: readonly Row[] },
): BaseComparison[] {
  const usable = base.runs.filter((run) => run.verdict !== 'invalid').map(viewOf);
  return modes.flatMap((view) => {
    const p50 = view.fromInvalid ? undefined : view.latency.p50;
    if (!p50) return [];
    const perRun = usable.flatMap((run) => {
      const row = run.modes.find((m) => m.mode === view.mode && m.profile === view.profile);
      return row && !row.fromInvalid && row.latency.p50 ? [row.latency.p50.value] : [];
    });
    if (perRun.length === 0) return [];
    const baseP50 = median(perRun);
    if (!(baseP50 > 0)) return [];
    return [{ mode: view.mode, profile: view.profile, baseP50, change: (p50.value - baseP50) / baseP50, runs: perRun.length }];
  });
}

function describeBase(base: BaseReference): string {
  if (base.commit) return `${base.ref} at ${base.commit.slice(0, 7)}`;
  return base.windowAfter
    ? `${base.ref} (latest ${base.runs.length}, from run ${base.windowAfter} after its last change point)`
    : `${base.ref} (latest ${base.runs.length})`;
}
