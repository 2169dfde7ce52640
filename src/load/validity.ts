// A repetition is valid only when the load generator delivered the load it was asked for.
// Dropped iterations mean the slowest requests were never sent (coordinated omission by the
// back door), and a low achieved rate means the latency was measured at a different load.
// When requests timed out, the drops are the server's doing (every VU was waiting out a
// timeout), and the reason says so rather than blaming the load generator.
export const MIN_ACHIEVED_FRACTION = 0.99;

export interface ValidityInput {
  targetRps: number | null;
  achievedRps: number;
  droppedIterations: number;
  requests: number;
  /** Requests that ended in k6's request timeout (error code 1050). */
  timeouts?: number;
  timeoutMs?: number;
}

export function invalidReasons(m: ValidityInput): string[] {
  const reasons: string[] = [];
  if (m.requests === 0) reasons.push('no requests completed');
  if (m.droppedIterations > 0) {
    reasons.push(
      m.timeouts
        ? `${m.droppedIterations} dropped iterations: ${m.timeouts} requests timed out${m.timeoutMs ? ` after ${m.timeoutMs / 1000} s` : ''}, holding every VU while arrivals kept coming (the target is too slow or hangs)`
        : `${m.droppedIterations} dropped iterations: the load generator could not start requests on schedule (a stalled machine, or a target slower than load.expectedLatency, which sizes the pool of requests in flight: k6's VUs, or the pacer's workers; load.vus sets it)`,
    );
  }
  if (m.targetRps !== null && m.requests > 0 && m.achievedRps < m.targetRps * MIN_ACHIEVED_FRACTION) {
    const pct = ((m.achievedRps / m.targetRps) * 100).toFixed(1);
    reasons.push(
      `achieved ${m.achievedRps.toFixed(1)} rps, ${pct}% of the ${m.targetRps} rps target (needs ≥ ${MIN_ACHIEVED_FRACTION * 100}%)${m.timeouts ? `, ${m.timeouts} requests timed out` : ''}`,
    );
  }
  return reasons;
}
