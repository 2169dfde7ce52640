// When the measured scenario ran, in epoch milliseconds, from the k6 summary: the script stamps
// the summary with the time it was written (`endedAtMs`, right after the run ended) and k6 gives
// the run's length (state.testRunDurationMs, counted from the start of the first scenario; our
// scripts have no setup()). The measured scenario starts warm-up after that, and lasts the
// profile's duration. Resource samples are kept to this window. Pure.
import type { MeasuredWindow } from './types.ts';

interface WindowFields {
  state?: { testRunDurationMs?: number };
  mesh_perf?: { endedAtMs?: number; userScript?: boolean };
}

/**
 * The measured window, or undefined when the summary does not say (a script of ours from before
 * the stamp). Counting from the run's start rather than back from its end keeps the window right
 * when requests in flight at the end held k6 up to its graceful stop.
 */
export function measuredWindow(summaryText: string, profile: { warmupMs: number; durationMs: number }): MeasuredWindow | undefined {
  let data: WindowFields;
  try {
    data = JSON.parse(summaryText) as WindowFields;
  } catch {
    return undefined;
  }
  const endedAtMs = data.mesh_perf?.endedAtMs;
  const runMs = data.state?.testRunDurationMs;
  if (typeof endedAtMs !== 'number' || typeof runMs !== 'number' || !Number.isFinite(endedAtMs) || !Number.isFinite(runMs))
    return undefined;
  const runStartMs = endedAtMs - runMs;
  // A user's script has its own scenarios: the whole run is measured.
  if (data.mesh_perf?.userScript) return { startMs: Math.round(runStartMs), endMs: Math.round(endedAtMs) };
  const startMs = runStartMs + profile.warmupMs;
  return { startMs: Math.round(startMs), endMs: Math.round(Math.min(endedAtMs, startMs + profile.durationMs)) };
}
