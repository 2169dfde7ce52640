// A Platform for pipeline tests that are not about k6, handed in through PipelineDeps.platform:
// no servers, and a LoadRunner that answers every repetition with a summary real k6 wrote
// (test/fixtures/k6/http-open.json: 200 rps for 3 s after 1 s of warm-up), its latencies scaled
// per mode. Records what the pipeline asked of it.
import { readFileSync } from 'node:fs';
import type { ModeConfig } from '../../src/config/schema.ts';
import type { K6Invocation, LoadRunner, ModeTarget } from '../../src/load/types.ts';
import type { DisruptionWatch, PathProbe, Platform, PlatformFactory, PlatformProvenance } from '../../src/platform/types.ts';

const SUMMARY = readFileSync(new URL('../fixtures/k6/http-open.json', import.meta.url), 'utf8');

/** The load the fixture was captured with; a config for the replay platform uses it. */
export const REPLAY_LOAD = { rate: 200, duration: '3s', warmup: '1s' };

export interface ReplayOptions {
  /** Latency factor per mode name (default 1). */
  slowdown?: Record<string, number>;
  /** prepare() throws this. */
  prepareError?: Error;
  /** Called after each repetition with its count so far (e.g. to abort the run). */
  afterRun?: (runs: number) => void;
  /** A further latency factor per repetition (noise between blocks): mode and the run's count so far. */
  jitter?: (mode: string, runs: number) => number;
  /** The platform's path probe (a Kubernetes platform reads the mesh's proxies' counters). */
  pathProbe?: PathProbe;
  /** The platform's disruption watch (a Kubernetes platform looks at the mode's pods around each repetition). */
  disruptionWatch?: DisruptionWatch;
  /** Iterations k6 could not start, per repetition: mode and the run's count so far (default none). */
  dropped?: (mode: string, runs: number) => number;
  /** What the platform says ran (a cluster's control-plane images, kind's facts). */
  provenance?: PlatformProvenance;
  /** A further latency factor from a mode's settings (an arm's delay or env, as the local platform would serve them). */
  factorOf?: (mode: ModeConfig) => number;
}

export interface Replay {
  factory: PlatformFactory;
  /** prepare, target:<mode>, run:<mode>, teardown ... in order. */
  calls: string[];
}

export function replayPlatform(options: ReplayOptions = {}): Replay {
  const calls: string[] = [];
  let runs = 0;
  const settingsFactor = new Map<string, number>();
  const runner: LoadRunner = {
    version: async () => '1.4.2',
    run: async (invocation: K6Invocation) => {
      const mode = invocation.env.MESH_PERF_MODE ?? '';
      calls.push(`run:${mode}`);
      runs += 1;
      options.afterRun?.(runs);
      const factor = (options.slowdown?.[mode] ?? 1) * (settingsFactor.get(mode) ?? 1) * (options.jitter?.(mode, runs) ?? 1);
      return { exitCode: 0, summary: scaled(factor, options.dropped?.(mode, runs) ?? 0), extraFiles: {}, stderrTail: '' };
    },
  };
  const factory: PlatformFactory = () => {
    const platform: Platform = {
      name: 'replay',
      prepare: async () => {
        calls.push('prepare');
        if (options.prepareError) throw options.prepareError;
      },
      target: (mode: ModeConfig): ModeTarget => {
        calls.push(`target:${mode.name}`);
        if (options.factorOf) settingsFactor.set(mode.name, options.factorOf(mode));
        return { mode: mode.name, url: 'http://127.0.0.1:9/', env: {}, description: 'replayed k6 summary' };
      },
      loadRunner: () => runner,
      resourceSampler: () => undefined,
      ...(options.pathProbe ? { pathProbe: () => options.pathProbe } : {}),
      ...(options.disruptionWatch ? { disruptionWatch: () => options.disruptionWatch } : {}),
      ...(options.provenance ? { provenance: async () => options.provenance! } : {}),
      environment: async () => ({ replay: true }),
      teardown: async () => {
        calls.push('teardown');
      },
    };
    return platform;
  };
  return { factory, calls };
}

/** The fixture with every latency figure of http_req_duration (all its tagged series) times factor, and `dropped` iterations. */
function scaled(factor: number, dropped: number): string {
  const summary = JSON.parse(SUMMARY) as { metrics: Record<string, { values: Record<string, number> }> };
  if (dropped > 0)
    for (const name of ['dropped_iterations', 'dropped_iterations{scenario:measure}']) summary.metrics[name]!.values.count = dropped;
  for (const [name, metric] of Object.entries(summary.metrics)) {
    if (!name.startsWith('http_req_duration')) continue;
    for (const key of Object.keys(metric.values)) if (key !== 'count') metric.values[key]! *= factor;
  }
  return JSON.stringify(summary);
}
