// The seam between the load engine (renders k6 scripts, parses summaries) and where k6 runs.
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
}

export interface LoadRunner {
  /** Version of the k6 that will run, recorded in results. */
  version(): Promise<string>;
  run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome>;
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

/** When the measured scenario ran (epoch ms), for sampling resources inside it. */
export interface MeasuredWindow {
  startMs: number;
  endMs: number;
}
