// Sizes the VU pool of an arrival-rate scenario. Each VU runs one request at a time, so the
// pool must cover rate × latency (Little's law) with headroom for latency spikes; a pool that
// runs dry drops iterations, which makes the repetition invalid. All VUs are pre-allocated:
// initialising a VU mid-run stalls the scheduler and causes the very drops we want to avoid.
const HEADROOM = 4;
const MIN_VUS = 10;
const MAX_VUS = 5000;

export function sizeVus(rate: number, expectedLatencyMs: number, override?: number): { preAllocated: number; max: number } {
  if (override !== undefined) return { preAllocated: override, max: override };
  const needed = Math.ceil(rate * (expectedLatencyMs / 1000) * HEADROOM);
  const preAllocated = Math.min(MAX_VUS, Math.max(MIN_VUS, needed));
  return { preAllocated, max: Math.min(MAX_VUS, Math.max(preAllocated * 2, MIN_VUS)) };
}
