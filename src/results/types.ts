// The results contract: what results.json holds. schema/results.schema.json is generated from
// src/results/schema.ts, which must describe exactly these types.
import type { Analysis } from './analysis.ts';

export const RESULTS_SCHEMA_VERSION = 7;

/** inconclusive (v3): no gate failed, but one could not decide with the repetitions it had. */
export type Verdict = 'pass' | 'fail' | 'inconclusive' | 'invalid';

/** Latency statistics of one repetition, milliseconds, exact percentiles from k6. */
export interface LatencyMs {
  min: number;
  mean: number;
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

export const LATENCY_STATS = ['min', 'mean', 'p50', 'p75', 'p90', 'p95', 'p99', 'p999', 'max'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];

/** One second of a repetition, for latency-over-time charts. */
export interface TimelinePoint {
  /** Seconds since the measured window started. */
  t: number;
  requests: number;
  failures: number;
  /** Percentiles of the bucket's successful requests (0 when none succeeded). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** CPU and memory of one container group during a repetition (Kubernetes platforms). */
export interface ResourceUsage {
  /** app, sidecar, ztunnel, waypoint, control-plane, client, gateway ... */
  group: string;
  /** Mode or namespace the usage belongs to; control planes use their own namespace. */
  scope: string;
  cpuMillicores: { min: number; max: number; avg: number };
  memoryMiB: { min: number; max: number; avg: number };
  /** CPU millicores and MiB per 1000 rps of achieved load (Istio's published unit). */
  cpuPer1000Rps?: number;
  memoryMiBPer1000Rps?: number;
  /** Kubelet samples inside the measured window the figures rest on (a repeated sample counts once). */
  samples: number;
}

export interface Repetition {
  /** Position in the run's plan (0-based), so charts and tables can show order. */
  trial: number;
  /** Interleaved block the repetition belongs to; pairs modes for overhead statistics. */
  block: number;
  /** 1 for the main round, 2 for a confirmation re-run. */
  round: number;
  startedAt: string;
  durationS: number;
  targetRps: number | null;
  achievedRps: number;
  droppedIterations: number;
  requests: number;
  failures: number;
  errorRate: number;
  statusCounts: Record<string, number>;
  /** Why requests failed, by cause ("HTTP 500", "connection reset", "timeout"): count. */
  errorCauses?: Record<string, number>;
  bytesSent: number;
  bytesReceived: number;
  /** Latency of successful requests only; null when no request succeeded (shown "—"). */
  latencyMs: LatencyMs | null;
  /** Latency of failed requests, reported apart, when some failed. */
  failedLatencyMs?: LatencyMs;
  /** k6's iteration_duration of the measured scenario (Kyma reports it), when k6 recorded it. */
  iterationMs?: LatencyMs;
  /**
   * mesh-perf's pacer only (load.pacer): measured arrivals it sent more than 1 ms behind their
   * intended time (a stalled generator; their latency counts from the send, as k6's and vegeta's
   * do), and the largest lag. Sends the pacer could not make at all are droppedIterations.
   */
  lateSends?: { count: number; maxLagMs: number };
  timeline: TimelinePoint[];
  /** k6 threshold results from a user's own script: expression → passed. */
  scriptThresholds?: Record<string, Record<string, boolean>>;
  resources?: ResourceUsage[];
  valid: boolean;
  invalidReasons: string[];
  /** The server instance that answered (an A/B arm's on the local platform: started afresh per block), e.g. "echo pid 4242". */
  server?: string;
  /**
   * Set when the repetition ran as a group of k6 instances (load.generators > 1): what each did.
   * The repetition's own figures are the group's: percentiles of the union of every instance's
   * raw request durations (exact), counts summed.
   */
  instances?: InstanceRecord[];
  /**
   * Kubernetes platforms (v6): what the proxies in the mode's path counted for traffic into the
   * mode's namespace while the repetition ran (their own counters, read before and after it).
   */
  path?: PathEvidence;
  /**
   * Kubernetes platforms: what happened to the pods the repetition's traffic crosses while it ran
   * (a pod deleted or evicted, a container restarted), from a look at them before and after the
   * load. Any makes the repetition invalid; a mesh proxy's crash (`crash`) fails the run.
   */
  disruptions?: Disruption[];
}

/** One pod or container of a repetition's path that did not last through it. */
export interface Disruption {
  /** namespace/name of the pod. */
  pod: string;
  /** The container that restarted (event "restarted"). */
  container?: string;
  /** What it is in the mode's path: "echo server", "k6 client", "ztunnel", "linkerd-proxy", "sidecar", "waypoint". */
  component: string;
  event: 'deleted' | 'restarted';
  /** How it ended, as the kubelet says: a pod's status reason (Evicted), a container's last termination (OOMKilled, Error). */
  reason?: string;
  exitCode?: number;
  /** Restarts during the repetition when more than one. */
  restarts?: number;
  /** The pod that took a deleted one's place, when there was one by the end of the repetition. */
  replacement?: string;
  /** A deleted pod still terminating (draining its connections) when the repetition ended. */
  terminating?: boolean;
  /** A mesh proxy that ended by itself under the load (OOMKilled, or an exit that is not a kill): a finding, which fails the run. */
  crash?: boolean;
}

/** The proxies a repetition's traffic should cross, and what each counted for it (v6). */
export interface PathEvidence {
  /** One entry per kind of proxy read: the mode's own (sidecar, ztunnel, waypoint, linkerd-proxy, gateway) and, for a mode outside the mesh, the mesh's shared ones that must not have counted it. */
  proxies: ProxyTraffic[];
  /** Pods whose counters could not be read, and why (their figures are missing from the sums). */
  problems?: string[];
}

export type ProxyKind = 'sidecar' | 'ztunnel' | 'waypoint' | 'gateway' | 'linkerd-proxy';

/** What one kind of proxy counted for traffic into the mode's namespace during a repetition. */
export interface ProxyTraffic {
  proxy: ProxyKind;
  /** Pods whose counters were read (before and after). */
  pods: number;
  /** requests: HTTP requests (Envoy's istio_requests_total, linkerd-proxy's request_total); connections: TCP connections (ztunnel's istio_tcp_connections_opened_total). */
  unit: 'requests' | 'connections';
  /** Increase during the repetition. */
  count: number;
  /** Of those, seen with mutual TLS (a client identity), and without; the rest the proxy could not tell (a gateway's outbound side). */
  mtls: number;
  plaintext: number;
  /** Bytes received from the clients (ztunnel's istio_tcp_received_bytes_total), when the proxy counts them. */
  bytesReceived?: number;
  /** Client identities behind the mutual TLS (SPIFFE ids, Linkerd client ids), at most five. */
  peers: string[];
}

/** The mutual TLS a mode's server required, as the mesh's policies in the cluster resolve for it (v6). */
export interface MtlsPolicy {
  /**
   * STRICT: only mutual TLS; PERMISSIVE: mutual TLS or plaintext (meshed clients still use mutual
   * TLS); DISABLE: plaintext; none: no mesh; unknown: not inspected (mesh "existing").
   */
  mode: 'STRICT' | 'PERMISSIVE' | 'DISABLE' | 'none' | 'unknown';
  /** Where it comes from: the policy object, or the mesh's default. */
  source: string;
  /** Narrower policies that relax it for other workloads or ports of the mode (k6-operator's runners). */
  exceptions?: string[];
}

/** One k6 instance of a repetition that ran as a group. */
export interface InstanceRecord {
  /** Where it ran: "k6 process 2 of 4", "pod mesh-perf-x/client-1". */
  where: string;
  /** Its k6 execution segment, e.g. "1/4:2/4". */
  segment: string;
  exitCode: number;
  requests: number;
  failures: number;
  droppedIterations: number;
  achievedRps: number;
  /** From its own summary, to compare instances; the repetition's percentiles are the union's. */
  latencyMs: LatencyMs | null;
  /** When its measured scenario ran (epoch ms), from its summary. */
  window?: { startMs: number; endMs: number };
  /** Why this instance made the repetition invalid; empty when it did its part. */
  problems: string[];
}

export interface ModeResult {
  name: string;
  /** Load profile name. A mode appears once per profile. */
  profile: string;
  /** Mesh kind on Kubernetes platforms; the local platform's hop description otherwise. */
  mesh?: string;
  target?: string;
  /** A/B (modes[].arms): the mode this arm belongs to and its side; `name` is `<of>-<side>`. */
  arm?: { of: string; side: 'base' | 'head' };
  /** Kubernetes platforms (v6): the mutual TLS policy in force for the mode's server. */
  mtls?: MtlsPolicy;
  /**
   * Kubernetes platforms (v6): the labels and annotations the mode's namespace was created with
   * (the mesh's enrolment and the mode's own), e.g. istio.io/ingress-use-waypoint.
   */
  enrolment?: { labels: Record<string, string>; annotations: Record<string, string> };
  repetitions: Repetition[];
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryMiB: number;
  os: string;
  /** Groups comparable machines in history: "<os>-<arch>-<cores>c", or the runner's label. */
  runnerClass: string;
}

export interface GitInfo {
  sha?: string;
  ref?: string;
  branch?: string;
  /** GitHub event name, or "local". */
  event?: string;
  /**
   * Base branch and base commit of a pull request, when known. `baseSha` is GitHub's
   * `pull_request.base.sha`: the base branch's tip when the event fired, not `git merge-base`
   * (results before schema 5 called it `mergeBase`; results/migrate.ts renames it).
   */
  baseRef?: string;
  baseSha?: string;
  pullRequest?: number;
  repository?: string;
}

export interface RunInfo {
  id: string;
  suite: string;
  startedAt: string;
  finishedAt: string;
  platform: string;
  git: GitInfo;
  tools: Record<string, string>;
  machine: MachineInfo;
  /** Platform facts: Kubernetes version, nodes, CNI, mesh versions, image digests, requests. */
  environment: Record<string, unknown>;
  /**
   * What the run ran beyond its config (v7): the tool's own version, k6's binary, the runner's
   * image, kind, the control planes' and node agents' images, the files it read, and a fingerprint
   * of each mode's settings. Two runs' differences are listed field by field (results/facts.ts).
   */
  provenance?: Provenance;
  /** Why the run ended early (cancelled, error), when it did. */
  aborted?: string;
}

/** What a run ran, beyond its config (v7). Absent fields were not known where the run ran. */
export interface Provenance {
  /** mesh-perf as an action: its repository, ref and commit (the reusable workflows pass the commit they run). */
  action?: { repository?: string; ref?: string; sha?: string };
  /** The k6 binary that measured on this machine: SHA-256 and where it came from (in a cluster, the client image's digest is under images). */
  k6?: { sha256?: string; source?: string };
  /** The runner: GitHub's image (ImageOS, ImageVersion) and Docker's server version, where present. */
  runner?: { imageOS?: string; imageVersion?: string; docker?: string };
  /** kind: its version and the node image that ran (the kind platform reports them, results/provenance.ts kindProvenance). */
  kind?: { version?: string; nodeImage?: string };
  /** Control planes and node agents as they ran: component (istiod, ztunnel, istio-cni, linkerd-destination, linkerd-proxy, …) → image with digest. */
  images?: Record<string, string>;
  /** Files the run read (server manifests, a user's k6 script, a client manifest): path as the config names it → SHA-256 of its content. */
  files?: Record<string, string>;
  /** Per mode: SHA-256 (16 hex) of everything that defines what the mode measures (config/fingerprint.ts modeSettings). */
  settings: Record<string, string>;
  /** Set when migrated from a results file written before v7 (schema 6 or older): none of the above was recorded. */
  migratedFrom?: number;
}

export interface PlannedTrialRecord {
  index: number;
  mode: string;
  profile: string;
  repetition: number;
  block: number;
}

export interface RunResult {
  schemaVersion: number;
  verdict: Verdict;
  /** One line per reason the verdict is not pass. */
  verdictReasons: string[];
  run: RunInfo;
  /** The validated config, with credentials removed. */
  config: Record<string, unknown>;
  plan: { seed: number; order: string; trials: PlannedTrialRecord[] };
  baseline: string;
  modes: ModeResult[];
  /** Statistics, overheads and gate decisions (filled by the analysis stage; shape in src/results/analysis.ts). */
  analysis?: Analysis;
}
