// Sizes the VU pool of an arrival-rate scenario. Each VU runs one request at a time, so the
// pool must cover rate × latency (Little's law) with headroom. A pool that runs dry drops
// iterations, which makes the repetition invalid. The common cause on shared machines is not
// the server's latency but a stall of the whole box (CPU steal, a neighbour's build): for the
// stall's duration every request is in flight at once, so the pool also covers STALL_BUDGET_S
// of arrivals. All VUs are pre-allocated: k6 drops the iteration that finds no free VU and only
// then starts initialising another, so VUs created mid-run never save an iteration.
const HEADROOM = 4;
const STALL_BUDGET_S = 0.5;
const MIN_VUS = 10;
const MAX_VUS = 5000;

export function sizeVus(rate: number, expectedLatencyMs: number, override?: number): { preAllocated: number; max: number } {
  if (override !== undefined) return { preAllocated: override, max: override };
  const needed = Math.ceil(Math.max(rate * (expectedLatencyMs / 1000) * HEADROOM, rate * STALL_BUDGET_S));
  const preAllocated = Math.min(MAX_VUS, Math.max(MIN_VUS, needed));
  return { preAllocated, max: Math.min(MAX_VUS, Math.max(preAllocated * 2, MIN_VUS)) };
}
