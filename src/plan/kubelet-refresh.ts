// How long a measured window must be for the kubelet to give a CPU figure. CPU is the change of
// a cumulative counter between two samples inside the window; the kubelet serves cAdvisor's
// cache, which housekeeping refreshes every 10 s, stretching to 15 s on a busy node
// (cAdvisor's --housekeeping_interval and --max_housekeeping_interval defaults). Pure.

/** The longest a kubelet's resource sample can go without a refresh. */
export const KUBELET_REFRESH_MAX_MS = 15_000;
/** The shortest, at which a scrape every interval or less sees every sample. */
export const KUBELET_REFRESH_MIN_MS = 10_000;

/**
 * Shortest measured duration that always holds two distinct samples. Scraping at least once per
 * shortest refresh sees every sample, and any 2 × 15 s span holds two of them. Scraping less often
 * sees only some: a scrape one longest refresh into the window sees a sample from inside it (at
 * most one interval passes before that scrape), and a scrape at least one longest refresh later
 * (within two intervals when the interval is shorter than that) sees a newer one; conservatively,
 * 2 × (15 s + interval).
 */
export function minimumCpuWindowMs(sampleIntervalMs: number): number {
  if (sampleIntervalMs <= KUBELET_REFRESH_MIN_MS) return 2 * KUBELET_REFRESH_MAX_MS;
  return 2 * (KUBELET_REFRESH_MAX_MS + sampleIntervalMs);
}
