// Pause before retrying a rejected push: exponential with full jitter, so eight writers that
// collided do not collide again in lockstep. Pure given `random`.
export const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;

export function backoffDelayMs(attempt: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 4 + random() * ceiling * 0.75);
}
