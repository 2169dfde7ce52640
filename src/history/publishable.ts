// Which runs belong in a suite's history. An A/A calibration measures the noise of one mode as
// two (`<mode>-aa`): published, it put a phantom mode on the dashboard. A run that never measured
// anything (the platform failed to start, cancelled before the first repetition) has no point to
// draw. A confirmation's run compares two runs' settings side by side; it is no day of the series. Pure.
import type { RunResult } from '../results/types.ts';

/** run.git.event of the runs `mesh-perf confirm` makes. */
export const CONFIRM_EVENT = 'confirm';

/** Why a run is kept out of history, or undefined when it belongs there. */
export function unpublishableReason(result: RunResult): string | undefined {
  if ((result.config as { calibrate?: unknown } | undefined)?.calibrate === true) {
    return 'an A/A calibration run (its -aa twin mode is not a mode of the suite)';
  }
  if (result.run.git.event === CONFIRM_EVENT) {
    return "a run of mesh-perf confirm (its arms are two runs' settings side by side, not a point of the series); its verdict is recorded with publish --confirmation";
  }
  if (!result.modes.some((m) => m.repetitions.length > 0)) {
    return `a run that never measured anything${result.run.aborted ? ` (${result.run.aborted})` : ''}`;
  }
  return undefined;
}
