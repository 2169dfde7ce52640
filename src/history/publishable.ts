// Which runs belong in a suite's history. An A/A calibration measures the noise of one mode as
// two (`<mode>-aa`): published, it put a phantom mode on the dashboard. A run that never measured
// anything (the platform failed to start, cancelled before the first repetition) has no point to
// draw. Pure.
import type { RunResult } from '../results/types.ts';

/** Why a run is kept out of history, or undefined when it belongs there. */
export function unpublishableReason(result: RunResult): string | undefined {
  if ((result.config as { calibrate?: unknown } | undefined)?.calibrate === true) {
    return 'an A/A calibration run (its -aa twin mode is not a mode of the suite)';
  }
  if (!result.modes.some((m) => m.repetitions.length > 0)) {
    return `a run that never measured anything${result.run.aborted ? ` (${result.run.aborted})` : ''}`;
  }
  return undefined;
}
