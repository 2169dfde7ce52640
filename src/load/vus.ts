// Sizes the VU pool of an arrival-rate scenario. Each VU runs one request at a time, so the
// pool must cover rate × latency (Little's law) plus a short stall of the whole machine (for a
// stall's duration every arrival waits in flight). It must not be much larger: every
// pre-allocated VU is a JS runtime k6 cycles through, and bench/harness-fidelity measured a
// pool sized for 0.5 s of arrivals (1,000 VUs at 2,000 rps) at +100 µs of CPU per request and
// a p99 ten times plain k6's (200 VUs). Beyond the pre-allocated pool k6 may start more VUs,
// up to max, when latency turns out higher than expected; the iteration that found no free VU is
// dropped (the repetition becomes invalid), the ones after it are served.
const STALL_BUDGET_S = 0.02;
const MIN_VUS = 20;
const MAX_VUS = 5000;
/** How much arrival time the growth ceiling covers: a server slower than expected, a long stall. */
const GROWTH_BUDGET_S = 0.5;

export function sizeVus(rate: number, expectedLatencyMs: number, override?: number): { preAllocated: number; max: number } {
  if (override !== undefined) return { preAllocated: override, max: override };
  const needed = Math.ceil(rate * (expectedLatencyMs / 1000 + STALL_BUDGET_S));
  const preAllocated = Math.min(MAX_VUS, Math.max(MIN_VUS, needed));
  const max = Math.min(MAX_VUS, Math.max(preAllocated * 2, Math.ceil(rate * GROWTH_BUDGET_S)));
  return { preAllocated, max };
}
