// The seam between the pipeline and where the workload runs. local and endpoints run here;
// kind and kubeconfig run in a cluster. The pipeline only talks to these interfaces.
import type { Config, LoadProfile } from '../config/validate.ts';
import type { ModeConfig } from '../config/schema.ts';
import type { LoadRunner } from '../load/types.ts';
import type { ResourceUsage } from '../results/types.ts';
import type { Logger } from '../util/log.ts';

export interface PlatformContext {
  config: Config;
  runId: string;
  signal: AbortSignal;
  log: Logger;
}

/** Where the load generator should send a mode's traffic. */
export interface ModeTarget {
  mode: string;
  /** Base HTTP URL (ends with /). */
  url?: string;
  /** gRPC host:port. */
  grpc?: string;
  /** Extra environment for the k6 script (the mode's `env`). */
  env: Record<string, string>;
  /** Human description for reports: "direct", "1 proxy hop", "istio-ambient". */
  description: string;
  /** The target serves a self-signed certificate (the ingress gateway's): k6 skips verification. */
  insecureTls?: boolean;
}

/** Samples CPU/memory while one repetition runs. */
export interface ResourceSampler {
  start(mode: string): void;
  /** Stops sampling and aggregates; achievedRps gives the per-1000-rps figures. */
  stop(achievedRps: number): Promise<ResourceUsage[]>;
}

export interface Platform {
  readonly name: string;
  /** Creates or connects to everything the modes need. Throws EnvironmentError on failure. */
  prepare(): Promise<void>;
  target(mode: ModeConfig): ModeTarget;
  /** Runs k6 where this platform wants it: a local process or a pod. */
  loadRunner(): LoadRunner;
  /** Present when the platform can measure proxies and control planes. */
  resourceSampler(): ResourceSampler | undefined;
  /** Facts recorded with the results: versions, nodes, digests. Never credentials. */
  environment(): Promise<Record<string, unknown>>;
  /** Called before each trial: a platform that scales per load profile does it here. */
  beforeTrial?(mode: ModeConfig, profile: LoadProfile): Promise<void>;
  /** Removes what prepare created. Safe to call twice and after a failed prepare. */
  teardown(): Promise<void>;
}

export type PlatformFactory = (context: PlatformContext) => Platform;
