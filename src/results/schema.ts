// JSON Schema of results.json, written in zod so it is checked against the TypeScript types
// (the `satisfies` lines below fail to compile when the two drift apart).
// The build writes it to schema/results.schema.json.
import { z } from 'zod';
import type { Repetition, RunResult } from './types.ts';
import { analysisSchema } from './analysis-schema.ts';

const latency = z.strictObject({
  min: z.number(),
  mean: z.number(),
  p50: z.number(),
  p75: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  p999: z.number(),
  max: z.number(),
});

const minMaxAvg = z.strictObject({ min: z.number(), max: z.number(), avg: z.number() });

const resourceUsage = z.strictObject({
  group: z.string(),
  scope: z.string(),
  cpuMillicores: minMaxAvg,
  memoryMiB: minMaxAvg,
  cpuPer1000Rps: z.number().optional(),
  memoryMiBPer1000Rps: z.number().optional(),
  samples: z.number().int(),
});

const proxyTraffic = z.strictObject({
  proxy: z.enum(['sidecar', 'ztunnel', 'waypoint', 'gateway', 'linkerd-proxy']),
  pods: z.number().int(),
  unit: z.enum(['requests', 'connections']),
  count: z.number(),
  mtls: z.number(),
  plaintext: z.number(),
  bytesReceived: z.number().optional(),
  peers: z.array(z.string()),
});

const pathEvidence = z
  .strictObject({ proxies: z.array(proxyTraffic), problems: z.array(z.string()).optional() })
  .describe("what the proxies in the mode's path counted for the repetition's traffic (their own counters, before and after)");

const disruption = z
  .strictObject({
    pod: z.string(),
    container: z.string().optional(),
    component: z.string(),
    event: z.enum(['deleted', 'restarted']),
    reason: z.string().optional(),
    exitCode: z.number().int().optional(),
    restarts: z.number().int().optional(),
    replacement: z.string().optional(),
    terminating: z.boolean().optional(),
    crash: z.boolean().optional(),
  })
  .describe("a pod or container of the mode's path that was deleted or restarted while the repetition ran");

const mtlsPolicy = z
  .strictObject({
    mode: z.enum(['STRICT', 'PERMISSIVE', 'DISABLE', 'none', 'unknown']),
    source: z.string(),
    exceptions: z.array(z.string()).optional(),
  })
  .describe("the mutual TLS policy in force for the mode's server, as the mesh's policies in the cluster resolve");

const provenanceSchema = z
  .strictObject({
    action: z.strictObject({ repository: z.string().optional(), ref: z.string().optional(), sha: z.string().optional() }).optional(),
    k6: z.strictObject({ sha256: z.string().optional(), source: z.string().optional() }).optional(),
    runner: z
      .strictObject({ imageOS: z.string().optional(), imageVersion: z.string().optional(), docker: z.string().optional() })
      .optional(),
    kind: z.strictObject({ version: z.string().optional(), nodeImage: z.string().optional() }).optional(),
    images: z.record(z.string(), z.string()).optional(),
    files: z.record(z.string(), z.string()).optional(),
    settings: z.record(z.string(), z.string()),
    migratedFrom: z.number().int().optional(),
  })
  .describe(
    "what the run ran beyond its config: the action's ref and commit, k6's binary, the runner's image, kind, the control planes' images, the files it read, each mode's settings fingerprint",
  );

export const repetitionSchema = z.strictObject({
  trial: z.number().int(),
  block: z.number().int(),
  round: z.number().int(),
  startedAt: z.string(),
  durationS: z.number(),
  targetRps: z.number().nullable(),
  achievedRps: z.number(),
  droppedIterations: z.number(),
  requests: z.number(),
  failures: z.number(),
  errorRate: z.number().min(0).max(1),
  statusCounts: z.record(z.string(), z.number()),
  errorCauses: z.record(z.string(), z.number()).optional().describe('why requests failed, by cause ("HTTP 500", "timeout"): count'),
  bytesSent: z.number(),
  bytesReceived: z.number(),
  latencyMs: latency
    .nullable()
    .describe('latency of successful requests in milliseconds, exact percentiles from k6; null when none succeeded'),
  failedLatencyMs: latency.optional().describe('latency of failed requests in milliseconds, when some failed'),
  iterationMs: latency.optional().describe("k6's iteration_duration of the measured scenario in milliseconds"),
  lateSends: z
    .strictObject({ count: z.number(), maxLagMs: z.number() })
    .optional()
    .describe("mesh-perf's pacer only: measured arrivals sent more than 1 ms behind their intended time, and the largest lag in ms"),
  timeline: z.array(
    z.strictObject({
      t: z.number(),
      requests: z.number(),
      failures: z.number(),
      p50: z.number(),
      p90: z.number(),
      p99: z.number(),
      max: z.number(),
    }),
  ),
  scriptThresholds: z.record(z.string(), z.record(z.string(), z.boolean())).optional(),
  resources: z.array(resourceUsage).optional(),
  valid: z.boolean(),
  invalidReasons: z.array(z.string()),
  server: z
    .string()
    .optional()
    .describe("the server instance that answered (an A/B arm's, started afresh per block on the local platform)"),
  instances: z
    .array(
      z.strictObject({
        where: z.string(),
        segment: z.string(),
        exitCode: z.number().int(),
        requests: z.number(),
        failures: z.number(),
        droppedIterations: z.number(),
        achievedRps: z.number(),
        latencyMs: latency.nullable(),
        window: z.strictObject({ startMs: z.number(), endMs: z.number() }).optional(),
        problems: z.array(z.string()),
      }),
    )
    .optional()
    .describe(
      'load.generators > 1: what each k6 instance did; the repetition holds the merged figures (percentiles of the union of raw durations)',
    ),
  path: pathEvidence.optional(),
  disruptions: z.array(disruption).optional(),
});

export const resultsSchema = z
  .object({
    schemaVersion: z.number().int().min(1),
    verdict: z.enum(['pass', 'fail', 'inconclusive', 'invalid']),
    verdictReasons: z.array(z.string()),
    run: z.object({
      id: z.string(),
      suite: z.string(),
      startedAt: z.string(),
      finishedAt: z.string(),
      platform: z.string(),
      git: z.object({
        sha: z.string().optional(),
        ref: z.string().optional(),
        branch: z.string().optional(),
        event: z.string().optional(),
        baseRef: z.string().optional(),
        baseSha: z.string().optional(),
        pullRequest: z.number().optional(),
        repository: z.string().optional(),
      }),
      tools: z.record(z.string(), z.string()),
      machine: z.object({ cpuModel: z.string(), cores: z.number(), memoryMiB: z.number(), os: z.string(), runnerClass: z.string() }),
      environment: z.record(z.string(), z.unknown()),
      provenance: provenanceSchema.optional(),
      aborted: z.string().optional(),
    }),
    config: z.record(z.string(), z.unknown()),
    plan: z.object({
      seed: z.number().int(),
      order: z.string(),
      trials: z.array(z.object({ index: z.number(), mode: z.string(), profile: z.string(), repetition: z.number(), block: z.number() })),
    }),
    baseline: z.string(),
    modes: z.array(
      z.object({
        name: z.string(),
        profile: z.string(),
        mesh: z.string().optional(),
        target: z.string().optional(),
        arm: z
          .object({ of: z.string(), side: z.enum(['base', 'head']) })
          .optional()
          .describe('A/B: the mode this arm belongs to (modes[].arms) and its side'),
        mtls: mtlsPolicy.optional(),
        enrolment: z
          .strictObject({ labels: z.record(z.string(), z.string()), annotations: z.record(z.string(), z.string()) })
          .optional()
          .describe("the labels and annotations the mode's namespace was created with (the mesh's enrolment and the mode's own)"),
        repetitions: z.array(repetitionSchema),
      }),
    ),
    analysis: analysisSchema.optional(),
  })
  .describe('mesh-perf results.json');

// Compile-time drift checks between the schema and the TypeScript types.
type SchemaRepetition = z.infer<typeof repetitionSchema>;
((r: Repetition): SchemaRepetition => r) satisfies unknown;
((r: SchemaRepetition): Repetition => r) satisfies unknown;
type SchemaResult = z.infer<typeof resultsSchema>;
((r: RunResult): SchemaResult => r) satisfies unknown;
