// The seam between the load engine (renders k6 scripts, parses summaries) and where k6 runs.
import type { GeneratorCapacity } from './ceiling.ts';
import type { RawSamples } from './raw-samples.ts';

/**
 * One of N k6 instances that share one arrival schedule: k6 itself splits it with execution
 * segments (`--execution-segment 1/4:2/4 --execution-segment-sequence 0,1/4,2/4,3/4,1`).
 */
export interface InstanceSlice {
  /** 0-based position in the group. */
  index: number;
  /** N, the group's size. */
  count: number;
  /** Value of --execution-segment, e.g. "1/4:2/4". */
  segment: string;
  /** Value of --execution-segment-sequence, e.g. "0,1/4,2/4,3/4,1". */
  sequence: string;
}
export interface K6Invocation {
  /** Files the run needs, by name: the script first. Written next to each other. */
  files: Record<string, string>;
  /** Name of the entry script among files. */
  entry: string;
  /** Extra k6 arguments (e.g. --summary-trend-stats), after `k6 run`. */
  args: string[];
  /** -e KEY=VALUE pairs for __ENV. */
  env: Record<string, string>;
  /** Name of the JSON file handleSummary writes, read back after the run. */
  summaryFile: string;
  /** Expected total run time, for progress and timeouts. */
  expectedSeconds: number;
  /** For a user's own script: absolute directory it lives in, so its relative imports work. */
  workDir?: string;
  /** Set when the repetition runs as a group of instances (LoadRunner.runGroup). */
  instance?: InstanceSlice;
  /**
   * Name of the raw-samples file k6 writes (`--out csv=...`, among args) when instances are
   * merged: percentiles of a group come from the union of every instance's raw durations.
   */
  rawFile?: string;
}

export interface K6Progress {
  elapsedS: number;
  totalS: number;
  /** Requests completed so far, when the runner can tell. */
  requests?: number;
}

export interface K6Outcome {
  exitCode: number;
  /** Content of summaryFile, when k6 wrote it. */
  summary?: string;
  /** Other files the script's own handleSummary wrote, by name. */
  extraFiles: Record<string, string>;
  stderrTail: string;
  k6Version?: string;
  /** The instance's raw samples (read from invocation.rawFile by load/raw-samples.ts). */
  raw?: RawSamples;
  /** Where the instance ran, for messages: "k6 process 2 of 4", "pod mesh-perf-x/client-1". */
  where?: string;
  /**
   * Set when the runner stopped this instance itself because of another ("k6 process 1 of 2
   * died"), so the repetition names the instance that failed, not the ones stopped after it.
   */
  stoppedBecause?: string;
}

export interface LoadRunner {
  /** Version of the k6 that will run, recorded in results. */
  version(): Promise<string>;
  /**
   * The version of mesh-perf's pacer extension in that k6 (k6/x/meshperf: `k6 version` lists it),
   * undefined when it has none, and which k6 that is, for messages ("the k6 at /usr/bin/k6").
   * Open-model HTTP profiles run k6/http-pacer.js when it is the one mesh-perf pins
   * (load/pacer-choice.ts). A runner without this method runs k6's executor.
   */
  pacer?(): Promise<{ version: string | undefined; where: string }>;
  /** The k6 binary on this machine and where it came from, when k6 runs here (its SHA-256 is recorded in results). */
  binary?(): { path: string; source: string };
  run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome>;
  /**
   * Runs the instances of one repetition together. Each starts paused (`k6 run --paused`) and
   * all are resumed at once when every one has initialized its VUs, so no instance starts its
   * measured scenario before the others are ready. Outcomes come back in invocation order; an
   * instance that fails or dies yields its own outcome (exit code, stderr) and does not hide the
   * others'. Progress sums the instances' requests.
   */
  runGroup?(invocations: K6Invocation[], onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome[]>;
  /** Where instances can run, for load.generators: auto (chooseGenerators); absent: auto means 1. */
  capacity?(): GeneratorCapacity;
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
  /** Which server instance answers (an A/B arm's, started afresh per block): recorded with the repetition. */
  server?: string;
}

/** When the measured scenario ran (epoch ms), for sampling resources inside it. */
export interface MeasuredWindow {
  startMs: number;
  endMs: number;
}
