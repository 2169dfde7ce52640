// The highest rate one local k6 process can be trusted to hold on this machine, from the CPU our
// engine spends per request. bench/harness-fidelity reads k6's own CPU time from /proc/<pid>/stat
// over every request it sent: at 5,000 rps on a 2-core VM (issue 12, load average 14–18, so
// inflated by contention) mesh-perf's k6 spent 142–147 µs per request and plain k6 112–118 µs
// with the same binary; rounded up, 150 µs. Grafana's guidance is to keep ≥ 20% of the load
// generator's CPU idle or latencies inflate, so one core holds 0.8 ÷ 150 µs = 5,333 rps:
//   2 cores: 2 × 0.8 ÷ 150 µs = 10,666 rps (endpoints: the servers are elsewhere)
//   2 cores shared with the tool's own servers (platform local): halved, 5,333 rps, since an
//   echo server takes about as much CPU per request again.
// Above the ceiling the run could only produce invalid repetitions, so it is refused up front
// with the arithmetic. It is an upper bound for an idle machine: a busy one drops iterations
// below it, and the validity check says so.
import type { LoadProfile } from '../config/validate.ts';
import { UsageError } from '../util/errors.ts';

export const K6_CPU_SECONDS_PER_REQUEST = 150e-6;
const USABLE_CPU_FRACTION = 0.8;

export function rateCeiling(cores: number, sharesMachineWithServer: boolean): number {
  const perCore = USABLE_CPU_FRACTION / K6_CPU_SECONDS_PER_REQUEST;
  return Math.floor((cores * perCore) / (sharesMachineWithServer ? 2 : 1));
}

export function checkRateCeiling(profiles: readonly LoadProfile[], cores: number, sharesMachineWithServer: boolean): void {
  const ceiling = rateCeiling(cores, sharesMachineWithServer);
  profiles.forEach((profile) => {
    if (profile.model !== 'open' || profile.rate === undefined || profile.rate <= ceiling) return;
    throw new UsageError(
      `load.rate ${profile.rate} (profile "${profile.name}") is above what one k6 process can hold on this machine: ` +
        `k6 spends ~${Math.round(K6_CPU_SECONDS_PER_REQUEST * 1e6)} µs of CPU per request and needs 20% idle, so ${cores} core${cores === 1 ? '' : 's'}` +
        `${sharesMachineWithServer ? ' shared with the local servers' : ''} hold at most ${ceiling} rps. ` +
        'Lower the rate, or run the load generator on a larger machine (platform kind/kubeconfig runs k6 in the cluster).',
    );
  });
}
