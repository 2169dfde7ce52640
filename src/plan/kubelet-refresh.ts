// How long a measured window must be for the kubelet to give a CPU figure. CPU is the change of
// a cumulative counter between two samples inside the window; the kubelet serves cAdvisor's
// cache, which housekeeping refreshes per container every 10 s, raised to 15 s while the
// container's stats do not change (the kubelet's defaultHousekeepingInterval and
// maxHousekeepingInterval, pkg/kubelet/cadvisor/cadvisor_linux.go), and each wait is jittered up to
// twice that: cAdvisor v0.56.2 manager/container.go, nextHousekeepingInterval returns
// jitter(interval, 1.0), i.e. interval + rand × interval. So a sample can be 10 to 30 s old. (A
// real kubelet showed it, issue 37: 30 s windows of an idle control plane held one sample.) Pure.

/** The longest a kubelet's resource sample can go without a refresh: 15 s, jittered to twice that. */
export const KUBELET_REFRESH_MAX_MS = 30_000;
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
