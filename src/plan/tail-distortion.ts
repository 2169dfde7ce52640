// Above what rate the runner's own load shows in the tail it measures. On a runner that carries
// the load generator (and, for local and kind, the servers), every request costs the machine CPU
// (k6 ~0.1 ms, the echo server ~0.05 ms, mesh-perf a few µs); past some rate requests queue
// behind that work and p99 grows with the rate although the service did not change.
// bench/harness-fidelity (section distortion) steps `mesh-perf run` up against a Fortio echo
// server on the same 2-core VM and finds the highest rate whose p99 stays within 1.5 × + 0.2 ms of
// the p99 at 1,000 rps. Quiet runs of these benches on this VM (docs/fidelity.md): p99 0.70 ms at
// 1,000 rps, 0.97–1.46 ms at 2,000 (the bound is 1.26 ms: within once, out once), 2.78 ms at 4,000
// and 10–15 ms at 5,000; on the shared machine of issue 42 (load average ~10) 7.7 ms at 1,000 and
// 12.1 ms at 2,000, distorted from there. So 2,000 rps on 2 cores, 1,000 per core, scaled by the
// runner's cores (a runner with more cores has more room for the same work). Pure.
import type { Config } from '../config/validate.ts';

/** Measured on 2 cores (docs/fidelity.md): the p99 stayed undistorted up to 2 × this, not above. */
export const TAIL_DISTORTION_RPS_PER_CORE = 1000;
export const TAIL_DISTORTION_MEASURED_CORES = 2;

export interface TailDistortionCheck {
  cores: number;
  /** Highest rate whose tail this runner can be trusted with. */
  thresholdRps: number;
  /** Open-model profiles above it. */
  profiles: { name: string; rate: number }[];
  /** Whether the servers run on the runner too (local, kind), or elsewhere (endpoints). */
  serversOnRunner: boolean;
}

export function tailDistortionRps(cores: number): number {
  return Math.max(1, cores) * TAIL_DISTORTION_RPS_PER_CORE;
}

/**
 * Undefined when k6 does not run on this machine (kubeconfig: in the cluster's nodes) or when
 * no profile is above the threshold. A user's script sets its own rate, which plan cannot see.
 */
export function tailDistortionCheck(config: Config, cores: number): TailDistortionCheck | undefined {
  if (config.platform === 'kubeconfig') return undefined;
  const thresholdRps = tailDistortionRps(cores);
  const profiles = config.profiles
    .filter((p) => p.model === 'open' && p.script === undefined && p.rate !== undefined && p.rate > thresholdRps)
    .map((p) => ({ name: p.name, rate: p.rate! }));
  if (profiles.length === 0) return undefined;
  return { cores, thresholdRps, profiles, serversOnRunner: config.platform !== 'endpoints' };
}

const rps = (n: number) => `${n.toLocaleString('en-US')} rps`;

/**
 * One warning for plan and run, short enough to read at 80 columns: which profiles, the rate and
 * the cores, what the runner carries, and what to do. The figure is scaled when the runner's
 * cores are not the ones it was measured on, and the warning then says so.
 */
export function describeTailDistortion(check: TailDistortionCheck): string {
  const which = check.profiles.map((p) => `"${p.name}" (${rps(p.rate)})`).join(', ');
  const one = check.profiles.length === 1;
  const scaled =
    check.cores === TAIL_DISTORTION_MEASURED_CORES
      ? ''
      : ` (${rps(TAIL_DISTORTION_RPS_PER_CORE * TAIL_DISTORTION_MEASURED_CORES)} measured on ${TAIL_DISTORTION_MEASURED_CORES} cores, scaled)`;
  const carried = check.serversOnRunner
    ? 'k6, mesh-perf and the servers'
    : 'k6 and mesh-perf; the servers run elsewhere, so this errs on the safe side';
  return (
    `Profile${one ? '' : 's'} ${which} ${one ? 'is' : 'are'} above ${rps(check.thresholdRps)}, the rate above which a ` +
    `${check.cores}-core runner's own work (${carried}) shows in the p99 it measures${scaled}: ` +
    "the tail would partly be the runner's. Lower the rate, or use a runner with more cores."
  );
}
