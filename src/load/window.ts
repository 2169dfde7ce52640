// When the measured scenario ran, in epoch milliseconds, from the k6 summary: the script stamps
// the summary with the time it was written (`endedAtMs`, right after the run ended) and k6 gives
// the run's length (state.testRunDurationMs, counted from the start of the first scenario; our
// scripts have no setup()). The measured scenario starts warm-up and a short handover after that
// (measuredStartMs), and lasts the profile's duration. Resource samples are kept to this window. Pure.
import type { MeasuredWindow } from './types.ts';

interface WindowFields {
  state?: { testRunDurationMs?: number };
  mesh_perf?: { endedAtMs?: number; userScript?: boolean };
}

/**
 * How long after the warm-up the measured scenario starts. The two scenarios share their VUs (k6
 * plans the larger of the two pools, not both), and a constant-arrival-rate scenario takes its
 * whole pool before its first arrival (k6's GetPlannedVU) with its clock already running.
 * Starting as the warm-up ended, the measured scenario waited for the warm-up's VUs to come back
 * (the warm-up's in-flight requests cut off, their connections closed), and the arrivals due
 * meanwhile then went out at once: a burst at the start of the measured window, in its p99
 * (seen in k6's raw samples: 350 requests in 20 ms after a 70 ms wait, at 5,000 rps on a busy
 * 2-core VM). In this gap the warm-up's last requests finish (its graceful stop, half the gap)
 * and its VUs go back to the pool, so the measured scenario starts as plain k6 starts: with an
 * idle pool. (k6 refuses a scenario shorter than 1 s, so the gap follows the warm-up rather than
 * shortening it.)
 */
export const WARMUP_HANDOVER_MS = 100;

/** When the measured scenario starts, from the start of the run. */
export function measuredStartMs(warmupMs: number): number {
  return warmupMs > 0 ? warmupMs + WARMUP_HANDOVER_MS : 0;
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
  const startMs = runStartMs + measuredStartMs(profile.warmupMs);
  return { startMs: Math.round(startMs), endMs: Math.round(Math.min(endedAtMs, startMs + profile.durationMs)) };
}
