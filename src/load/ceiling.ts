// The highest rate local k6 processes can be trusted to hold on this machine, from the CPU our
// engine spends per request. bench/harness-fidelity reads k6's own CPU time from /proc/<pid>/stat
// over every request it sent: at 5,000 rps on a 2-core VM (issue 12, load average 14–18, so
// inflated by contention) mesh-perf's k6 spent 142–147 µs per request and plain k6 112–118 µs
// with the same binary; rounded up, 150 µs. Grafana's guidance is to keep ≥ 20% of the load
// generator's CPU idle or latencies inflate, so one core holds 0.8 ÷ 150 µs = 5,333 rps:
//   2 cores: 2 × 0.8 ÷ 150 µs = 10,666 rps (endpoints: the servers are elsewhere)
//   2 cores shared with the tool's own servers (platform local): halved, 5,333 rps, since an
//   echo server takes about as much CPU per request again.
// One k6 process schedules its arrivals from one place and shows its own scheduling in the tail
// well before it has used every core, so a rate above what one core holds is split between
// processes (load.generators, k6 execution segments): one per core k6 may use. The machine's
// ceiling stays the same however many processes share it. Above it the run could only produce
// invalid repetitions, so it is refused up front with the arithmetic. It is an upper bound for
// an idle machine: a busy one drops iterations below it, and the validity check says so.
import type { LoadProfile } from '../config/validate.ts';
import { UsageError } from '../util/errors.ts';

export const K6_CPU_SECONDS_PER_REQUEST = 150e-6;
const USABLE_CPU_FRACTION = 0.8;
/** What one k6 process on one core holds: 0.8 ÷ 150 µs. */
export const RPS_PER_K6_PROCESS = Math.floor(USABLE_CPU_FRACTION / K6_CPU_SECONDS_PER_REQUEST);

export function rateCeiling(cores: number, sharesMachineWithServer: boolean): number {
  const perCore = USABLE_CPU_FRACTION / K6_CPU_SECONDS_PER_REQUEST;
  return Math.floor((cores * perCore) / (sharesMachineWithServer ? 2 : 1));
}

/**
 * Where k6 instances can run, for choosing how many: a platform hands in its own (this machine's
 * cores; in a cluster, pods' CPU limits and nodes).
 */
export interface GeneratorCapacity {
  /** Instances that each get a core (or a pod's CPU) of their own. */
  instances: number;
  /** Requests per second one instance holds. */
  rpsPerInstance: number;
  /** Requests per second all of them hold together: above it the run is refused. */
  totalRps: number;
  /** For messages: "2 cores", "2 cores shared with the local servers". */
  describe: string;
}

/** This machine's capacity: local shares it with the echo servers, endpoints does not. */
export function machineCapacity(cores: number, sharesMachineWithServer: boolean): GeneratorCapacity {
  const totalRps = rateCeiling(cores, sharesMachineWithServer);
  const k6Cores = sharesMachineWithServer ? Math.floor(cores / 2) : cores;
  return {
    instances: Math.max(1, k6Cores),
    rpsPerInstance: Math.min(RPS_PER_K6_PROCESS, totalRps),
    totalRps,
    describe: `${cores} core${cores === 1 ? '' : 's'}${sharesMachineWithServer ? ' shared with the local servers' : ''}`,
  };
}

export interface GeneratorChoice {
  /** k6 instances per repetition. */
  count: number;
  /** Why, for `plan`: "2 k6 processes: 9,000 rps > 5,333 one process holds". */
  reason: string;
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });
const processes = (n: number) => `${n} k6 process${n === 1 ? '' : 'es'}`;

/**
 * How many k6 instances run a profile's repetitions. A number is the user's; "auto" splits an
 * open-model rate between as many instances as it needs at what one holds, no more than the
 * capacity has room for, and never so many that an instance gets under 1 rps. Pure.
 */
export function chooseGenerators(
  profile: Pick<LoadProfile, 'generators' | 'model' | 'rate' | 'script'>,
  capacity: GeneratorCapacity | undefined,
): GeneratorChoice {
  if (profile.generators !== 'auto') {
    const n = profile.generators ?? 1;
    return { count: n, reason: `${processes(n)}: set by load.generators` };
  }
  if (!capacity) return { count: 1, reason: `${processes(1)}: auto, and this platform gives no capacity to split the load over` };
  if (profile.script !== undefined) return { count: 1, reason: `${processes(1)}: a user's script runs as one` };
  if (profile.model !== 'open' || profile.rate === undefined) return { count: 1, reason: `${processes(1)}: closed model` };
  const rate = profile.rate;
  const needed = Math.ceil(rate / capacity.rpsPerInstance);
  if (needed <= 1) return { count: 1, reason: `${processes(1)}: ${fmt(rate)} rps ≤ ${fmt(capacity.rpsPerInstance)} one process holds` };
  const count = Math.max(1, Math.min(needed, capacity.instances, Math.floor(rate)));
  const why = `${fmt(rate)} rps > ${fmt(capacity.rpsPerInstance)} one process holds`;
  if (count < needed) return { count, reason: `${processes(count)}: ${why}, capped at ${count} by ${capacity.describe}` };
  return { count, reason: `${processes(count)}: ${why}` };
}

export function checkRateCeiling(profiles: readonly LoadProfile[], cores: number, sharesMachineWithServer: boolean): void {
  profiles.forEach((profile) => {
    const problem = ceilingProblem(profile, cores, sharesMachineWithServer);
    if (problem) throw new UsageError(`load.rate ${profile.rate} (profile "${profile.name}") ${problem}`);
  });
}

/** Why a profile's rate cannot run on this machine, or undefined when it can. */
export function ceilingProblem(
  profile: Pick<LoadProfile, 'model' | 'rate'>,
  cores: number,
  sharesMachineWithServer: boolean,
): string | undefined {
  const ceiling = rateCeiling(cores, sharesMachineWithServer);
  if (profile.model !== 'open' || profile.rate === undefined || profile.rate <= ceiling) return undefined;
  return (
    `is above what k6 can hold on this machine, however many processes share it (load.generators): ` +
    `k6 spends ~${Math.round(K6_CPU_SECONDS_PER_REQUEST * 1e6)} µs of CPU per request and needs 20% idle, so ${cores} core${cores === 1 ? '' : 's'}` +
    `${sharesMachineWithServer ? ' shared with the local servers' : ''} hold at most ${ceiling} rps. ` +
    'Lower the rate, or run the load generator on a larger machine (platform kind/kubeconfig runs k6 in the cluster)'
  );
}
