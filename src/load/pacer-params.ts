// What mesh-perf's pacer (k6/http-pacer.js, k6ext/) is given: the same schedule k6's
// constant-arrival-rate executor would run (warm-up from 0, the measured scenario after the
// handover, the rate, the timeline), the bound on its requests in flight, and the scenario of one
// pacing VU per k6 instance that calls it. Pure.
import type { LoadProfile } from '../config/validate.ts';
import { pacerWorkers } from './vus.ts';
import { measuredStartMs } from './window.ts';

/**
 * How the arrivals of an open-model HTTP profile are sent: by k6's constant-arrival-rate executor
 * (k6/http.js, any k6), or by mesh-perf's pacer extension (k6/http-pacer.js, k6/x/meshperf: a k6
 * built from k6ext/, src/tools/k6-pacer.ts), which sends each from Go through k6's own HTTP client
 * without a JS iteration per request: bench/harness-fidelity (section instrument) measures both
 * against vegeta. Closed-model, gRPC and a user's own scripts always run on k6's executors.
 */
export type ArrivalEngine = 'arrival-rate' | 'pacer';

export interface RenderOptions {
  engine?: ArrivalEngine;
  /** k6 instances sharing the repetition (load.generators): each needs a pacing VU of its own. */
  instances?: number;
}

/** One stretch of the pacer's schedule (k6ext/params.go phaseParams). */
export interface PacerPhase {
  scenario: 'warmup' | 'measure';
  startMs: number;
  durationMs: number;
  buckets: number;
  bucketMs: number;
}

export interface PacerParams {
  /** The pacer the parameters are for; k6/http-pacer.js refuses another. */
  version: string;
  /** Arrivals per second of the whole schedule (every instance together). */
  rate: number;
  /** Requests in flight at most, of the whole schedule (vus.ts pacerWorkers). */
  maxWorkers: number;
  phases: PacerPhase[];
}

/** The pacer's script (k6/http-pacer.js). */
export const PACER_ENTRY = 'http-pacer.js';

/** The pacer this mesh-perf renders parameters for: k6ext/module.go's Version (a test holds them equal). */
export const PACER_VERSION = '0.1.0';

/** Whether a profile's arrivals can go through the pacer (when the k6 has it and load.pacer allows). */
export function pacedProfile(profile: Pick<LoadProfile, 'protocol' | 'model' | 'rate' | 'script'>): boolean {
  return profile.protocol === 'http' && profile.model === 'open' && profile.rate !== undefined && !profile.script;
}

/**
 * The pacer's scenario: one VU per k6 instance running one iteration, the pacer's call, for the
 * warm-up, the handover and the measured scenario; k6 gives each instance of a group one of the
 * VUs with its execution segment, and the pacer its share of the arrivals. maxDuration leaves the
 * measured scenario's last requests their timeout (the graceful stop of k6's executor).
 */
export function pacerScenario(profile: LoadProfile, instances: number): Record<string, Record<string, unknown>> {
  const endMs = measuredStartMs(profile.warmupMs) + profile.durationMs;
  return {
    pacer: {
      executor: 'per-vu-iterations',
      vus: instances,
      iterations: 1,
      maxDuration: `${(endMs + profile.timeoutMs + 1000) / 1000}s`,
      gracefulStop: '5s',
    },
  };
}

/** The same schedule k6's executor would run: warm-up from 0, the measured scenario after the handover. */
export function pacerParams(profile: LoadProfile, bucketMs: number, buckets: number): PacerParams {
  const phases: PacerPhase[] = [];
  if (profile.warmupMs > 0) phases.push({ scenario: 'warmup', startMs: 0, durationMs: profile.warmupMs, buckets: 0, bucketMs: 0 });
  phases.push({ scenario: 'measure', startMs: measuredStartMs(profile.warmupMs), durationMs: profile.durationMs, buckets, bucketMs });
  return {
    version: PACER_VERSION,
    rate: profile.rate!,
    maxWorkers: pacerWorkers(profile.rate!, profile.expectedLatencyMs, profile.vus),
    phases,
  };
}
