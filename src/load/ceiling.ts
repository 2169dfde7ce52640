// The highest rate one local k6 process can be trusted to hold on this machine. k6's bare
// arrival-rate executor costs about 100 µs of CPU per request (measured 80–110 µs on a 2-vCPU VM,
// docs/methodology.md); our script's per-request bookkeeping (timeline tag, status counter, failure
// rate) roughly doubles that: bench/harness-fidelity held 2,000 rps with no drops on 2 shared
// cores and dropped iterations at 5,000. Grafana's guidance is to keep ≥ 20% of the load generator's CPU
// idle or latencies inflate. When the tool also runs the servers (platform local) they take
// about as much CPU per request again. Above the ceiling the run would only produce invalid
// repetitions, so it is refused up front with the arithmetic.
import type { LoadProfile } from '../config/validate.ts';
import { UsageError } from '../util/errors.ts';

export const K6_CPU_SECONDS_PER_REQUEST = 200e-6;
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
        `k6 spends ~${K6_CPU_SECONDS_PER_REQUEST * 1e6} µs of CPU per request and needs 20% idle, so ${cores} core${cores === 1 ? '' : 's'}` +
        `${sharesMachineWithServer ? ' shared with the local servers' : ''} hold at most ${ceiling} rps. ` +
        'Lower the rate, or run the load generator on a larger machine (platform kind/kubeconfig runs k6 in the cluster).',
    );
  });
}
