// The seam between the pipeline and where the workload runs. local and endpoints run here;
// kind and kubeconfig run in a cluster. The pipeline only talks to these interfaces.
import type { Config, LoadProfile } from '../config/validate.ts';
import type { ModeConfig } from '../config/schema.ts';
import type { LoadRunner, ModeTarget } from '../load/types.ts';
import type { Disruption, ModeResult, PathEvidence, Provenance, Repetition, ResourceUsage } from '../results/types.ts';
import type { KindReport } from '../results/provenance.ts';
import type { MeasuredWindow } from '../load/types.ts';
import type { Logger } from '../util/log.ts';

export interface PlatformContext {
  config: Config;
  runId: string;
  signal: AbortSignal;
  log: Logger;
  /**
   * Told when the platform creates something outside this process that its teardown removes (a
   * kind cluster), and when it removed it: the action's post step removes only what was created
   * by this run and is still there. A reused cluster is never reported.
   */
  lifecycle?: ResourceLifecycle;
  /**
   * What this run makes stays until `mesh-perf down` (mesh-perf up): labelled so, so that a later
   * run of the same suite uses it instead of refusing it as another run's.
   */
  keptUntilDown?: boolean;
}

export interface CreatedResource {
  kind: 'kind-cluster';
  name: string;
}

export interface ResourceLifecycle {
  created(resource: CreatedResource): void;
  removed(resource: CreatedResource): void;
}

export interface TeardownOptions {
  /** The run ended early: keep diagnostics (e.g. `kind export logs`) here before removing anything. */
  diagnosticsDir?: string;
}

/** Samples CPU/memory while one repetition runs. */
export interface ResourceSampler {
  start(mode: string): void;
  /**
   * Stops sampling and aggregates; achievedRps gives the per-1000-rps figures, window (the
   * measured scenario, after warm-up) the samples that count.
   */
  stop(achievedRps: number, window?: MeasuredWindow): Promise<ResourceUsage[]>;
}

/**
 * Reads what the proxies in a mode's path counted during one repetition (their own counters):
 * start before the load, stop after it.
 */
export interface PathProbe {
  start(mode: string): Promise<void>;
  stop(mode: string): Promise<PathEvidence | undefined>;
  /** Why the evidence shows the repetition took another path than its mode's (it is then invalid); [] when it did not. */
  invalidReasons(mode: string, requests: number, evidence: PathEvidence, disrupted?: readonly Disruption[]): string[];
}

/**
 * Looks at the pods a mode's traffic crosses before and after each repetition: what did not last
 * through it (a pod deleted or evicted, a container restarted). After one, settle waits, bounded,
 * until the mode's pods are back, or throws (the run stops; the repetition is recorded first).
 */
export interface DisruptionWatch {
  start(mode: string): Promise<void>;
  stop(mode: string): Promise<Disruption[]>;
  settle(mode: string, disruptions: readonly Disruption[]): Promise<void>;
  /** The disruptions as reasons of an invalid repetition, with what its figures say the traffic did across them. */
  reasons(disruptions: readonly Disruption[], repetition: Pick<Repetition, 'requests' | 'failures' | 'errorCauses' | 'path'>): string[];
}

/**
 * What a platform knows of what ran (results: run.provenance): the control planes' images; on kind
 * its own facts as it knows them (the pipeline records them through results/provenance.ts
 * kindProvenance); Docker's version where the platform ran it.
 */
export interface PlatformProvenance {
  images?: Provenance['images'];
  kind?: KindReport;
  docker?: string;
}

/** What a platform records once per mode beside its repetitions (results: modes[]). */
export type ModeRecord = Pick<ModeResult, 'mtls' | 'enrolment'>;

export interface Platform {
  readonly name: string;
  /** Creates or connects to everything the modes need. Throws EnvironmentError on failure. */
  prepare(): Promise<void>;
  target(mode: ModeConfig): ModeTarget;
  /** Runs k6 where this platform wants it: a local process or a pod. Asked once, after prepare. */
  loadRunner(): LoadRunner;
  /**
   * Present when the platform can measure proxies and control planes. Asked once, after prepare;
   * the one sampler is started and stopped around every repetition of the run.
   */
  resourceSampler(): ResourceSampler | undefined;
  /**
   * Present when the platform can read its proxies' counters. Asked once, after prepare; started
   * and stopped around every repetition, outside the sampler's window.
   */
  pathProbe?(): PathProbe | undefined;
  /** Present when the platform can look at the pods of a mode's path. Asked once, after prepare; started and stopped around every repetition. */
  disruptionWatch?(): DisruptionWatch | undefined;
  /** Per mode, facts recorded with its results (the mTLS policy in force, its namespace's enrolment). Asked once, after prepare. */
  modeRecords?(): Promise<Record<string, ModeRecord>>;
  /** Facts recorded with the results: versions, nodes, digests. Never credentials. */
  environment(): Promise<Record<string, unknown>>;
  /**
   * What ran, for run.provenance: the meshes' control planes' and node agents' images; on kind its
   * version, node image and Docker's version (results/provenance.ts kindProvenance). Asked once, after prepare.
   */
  provenance?(): Promise<PlatformProvenance>;
  /**
   * Called before each trial, with the k6 instances it runs as (the pipeline's decision for its
   * profile) and the trial's block: a platform that scales per load profile does it here, and the
   * local platform starts an A/B arm's server afresh for each block.
   */
  beforeTrial?(mode: ModeConfig, profile: LoadProfile, generators: number, block?: number): Promise<void>;
  /** Removes what prepare created. Safe to call twice and after a failed prepare. */
  teardown(options?: TeardownOptions): Promise<void>;
}

export type PlatformFactory = (context: PlatformContext) => Platform;
