// What makes an A/B gate unable to decide before any load runs, refused with the field and the
// minimum (exit 2):
//  - a tail gate (p90, p99) on repetitions too short to hold its quantile: fewer than
//    TAIL_REQUESTS requests beyond it per repetition, the quantile is a handful of requests and
//    its block-to-block spread is theirs, not the arms';
//  - one echo pod per arm on a cluster: each arm's own pod offset (node, placement, warm caches)
//    would be a persistent difference between the arms that no number of blocks averages out.
// Pure.
import { AB_STATISTICS, type AbStatistic } from './sections/gates.ts';
import type { ConfigProblem } from './problem.ts';
import { parseDurationMs } from './duration.ts';
import { type LoadProfileConfig, type ParsedConfig, repetitionLength } from './schema.ts';
import { durationText } from './budget.ts';

/** Requests beyond a tail quantile a repetition must hold (p99: 5,000 requests; p90: 500). */
export const TAIL_REQUESTS = 50;
/** Echo pods each arm runs on a cluster, at least. */
export const MIN_ARM_PODS = 2;

const QUANTILE: Record<AbStatistic, number> = { p50: 0.5, p90: 0.9, p99: 0.99 };

/** Requests one repetition of a profile is expected to hold, or undefined when the config cannot say (a user's script). */
export function requestsPerRepetition(
  profile: LoadProfileConfig,
  arms: boolean,
): { requests: number; rate: number; seconds: number } | undefined {
  const seconds = (parseDurationMs(repetitionLength(profile, arms).duration) ?? 0) / 1000;
  if (profile.script !== undefined) return undefined;
  const rate =
    profile.model === 'closed' ? (profile.vus ?? 0) / ((parseDurationMs(profile.expectedLatency) ?? 50) / 1000) : (profile.rate ?? 0);
  return rate > 0 ? { requests: rate * seconds, rate, seconds } : undefined;
}

/** Requests a repetition needs for a statistic's quantile to hold TAIL_REQUESTS beyond it. */
export function requestsFor(statistic: AbStatistic): number {
  return Math.round(TAIL_REQUESTS / (1 - QUANTILE[statistic]));
}

export function abGateProblems(config: ParsedConfig): ConfigProblem[] {
  if (!config.modes.some((m) => m.arms)) return [];
  return [...tailProblems(config), ...podProblems(config)];
}

function tailProblems(config: ParsedConfig): ConfigProblem[] {
  const ab = config.gates.ab;
  if (!ab.enabled) return [];
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  const problems: ConfigProblem[] = [];
  ab.statistics.forEach((statistic, s) => {
    if (statistic === 'p50' || !AB_STATISTICS.includes(statistic)) return;
    const needed = requestsFor(statistic);
    profiles.forEach((profile, i) => {
      const held = requestsPerRepetition(profile, true);
      if (!held || held.requests >= needed) return;
      const at = Array.isArray(config.load) ? `load[${i}]` : 'load';
      const longer = durationText(needed / held.rate);
      problems.push({
        path: `gates.ab.statistics[${s}]`,
        message: `${statistic} needs at least ${needed.toLocaleString('en-US')} requests per repetition (${TAIL_REQUESTS} beyond its quantile) to hold it; ${at} gives about ${Math.floor(held.requests).toLocaleString('en-US')} (${round(held.rate)} rps × ${round(held.seconds)} s): expected ${at}.duration of at least ${longer} at this rate, or ${at}.rate of at least ${Math.ceil(needed / held.seconds)}`,
      });
    });
  });
  return problems;
}

function podProblems(config: ParsedConfig): ConfigProblem[] {
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig') return [];
  const problems: ConfigProblem[] = [];
  const why = `a mode with arms runs each arm on at least ${MIN_ARM_PODS} echo pods, spread over the same nodes as the other arm's, so one pod's offset is not taken for the change`;
  const replicas = config.kubernetes.replicas;
  if (replicas !== undefined && replicas < MIN_ARM_PODS)
    problems.push({ path: 'kubernetes.replicas', message: `${why}; expected at least ${MIN_ARM_PODS}, got ${replicas}` });
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  profiles.forEach((profile, i) => {
    if (profile.replicas !== undefined && profile.replicas < MIN_ARM_PODS)
      problems.push({
        path: `${Array.isArray(config.load) ? `load[${i}]` : 'load'}.replicas`,
        message: `${why}; expected at least ${MIN_ARM_PODS}, got ${profile.replicas}`,
      });
  });
  return problems;
}

const round = (n: number) => Number(n.toPrecision(3));
