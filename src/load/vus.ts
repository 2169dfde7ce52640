// Sizes the VU pool of an arrival-rate scenario. Each VU runs one request at a time, so the
// pool must cover rate × latency (Little's law) and absorb a short stall of the whole machine
// (for a stall's duration every arrival waits in flight): the pool is the larger of rate ×
// expected latency and 0.5 s of arrivals, the latter capped at 200 VUs (plain k6's usual pool),
// so low rates keep a long stall budget (150 VUs at 300 rps ride out a cold proxy's first
// second) and high rates a pool no larger than plain k6's.
// It must not be much larger: every pre-allocated VU is a JS runtime k6 cycles through, and
// profiling for issue 12 measured a pool sized for 0.5 s of arrivals (1,000 VUs at 2,000 rps) at
// +100 µs of CPU per request and a p99 ten times plain k6's (200 VUs); 200 → 350 → 500 VUs at
// 3,000 rps cost about 160, 175 and 190 µs per request. With the default 50 ms expected latency
// the pool is 200 VUs at 1,000 and 2,000 rps, 250 at 5,000. The pool does not grow: k6 drops the
// iteration that finds no free VU before it starts another (so growth never saves the
// repetition, invalid from its first drop), and starting VUs mid-run costs CPU exactly when the
// machine is short of it.
const STALL_BUDGET_S = 0.5;
const STALL_POOL_CAP = 200;
const MIN_VUS = 20;
const MAX_VUS = 5000;
const MAX_PACER_WORKERS = 50_000;

export function sizeVus(rate: number, expectedLatencyMs: number, override?: number): { preAllocated: number; max: number } {
  if (override !== undefined) return { preAllocated: override, max: override };
  const littlesLaw = Math.ceil(rate * (expectedLatencyMs / 1000));
  const stall = Math.min(STALL_POOL_CAP, Math.ceil(rate * STALL_BUDGET_S));
  const preAllocated = Math.min(MAX_VUS, Math.max(MIN_VUS, littlesLaw, stall));
  return { preAllocated, max: preAllocated };
}

/**
 * The pacer's bound on requests in flight (k6ext/pool.go): the same stall budget without the cap.
 * A k6 VU is a JS runtime k6 cycles through, hence the 200-VU cap above; a pacer worker is a
 * goroutine started only when every other is busy, so the bound keeps the whole half second of
 * arrivals (2,500 at 5,000 rps): a machine that stalls for less sends its overdue arrivals late
 * (counted, results' lateSends) instead of dropping them and the repetition. load.vus sets it, as
 * it sets k6's pool.
 */
export function pacerWorkers(rate: number, expectedLatencyMs: number, override?: number): number {
  if (override !== undefined) return override;
  const littlesLaw = Math.ceil(rate * (expectedLatencyMs / 1000));
  return Math.min(MAX_PACER_WORKERS, Math.max(MIN_VUS, littlesLaw, Math.ceil(rate * STALL_BUDGET_S)));
}
