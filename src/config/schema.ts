// The one source of truth for configuration. The YAML file, the action inputs and the CLI flags
// all become a raw object that is validated here; schema/mesh-perf.schema.json is generated from it.
import { z } from 'zod';
import { gatesSchema } from './sections/gates.ts';
import { historySchema } from './sections/history.ts';
import { githubSchema } from './sections/github.ts';
import { kubernetesSchema, pinnedWorkloadImage } from './sections/kubernetes.ts';
import { atMost, describeValue, duration, stringMap, text, tooMany } from './bounded.ts';
import { confirmSchema } from './sections/confirm.ts';
import { formatLimit, LIMITS } from './limits.ts';

export { describeValue, duration } from './bounded.ts';

const positiveNumber = (what: string, max: number, why: string) =>
  z
    .number({ error: (issue) => `expected a number for ${what}, got ${describeValue(issue.input)}` })
    .positive({
      error: (issue) => `expected ${what} > 0, got ${String(issue.input)}`,
    })
    .max(max, atMost(what, max, why));

const positiveInt = (what: string, max: number, why: string) =>
  z
    .number({ error: (issue) => `expected a whole number for ${what}, got ${describeValue(issue.input)}` })
    .int({ error: (issue) => `expected a whole number for ${what}, got ${String(issue.input)}` })
    .positive({ error: (issue) => `expected ${what} ≥ 1, got ${String(issue.input)}` })
    .max(max, atMost(what, max, why));

export const MESH_KINDS = ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint', 'linkerd', 'existing'] as const;
export const PLATFORMS = ['local', 'endpoints', 'kind', 'kubeconfig'] as const;
export const LOAD_ENGINES = ['k6', 'k6-operator'] as const;

const NAME = /^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/;
const name = (what: string) =>
  text(what, 40).regex(NAME, {
    error: (issue) =>
      `expected a ${what} of lowercase letters, digits and '-' (≤ 40 chars, used in namespace names), got ${describeValue(issue.input)}`,
  });

export const localTargetSchema = z
  .strictObject({
    hops: z.number().int().min(0).max(4).default(0).describe('forwarding proxy hops in front of the echo server'),
    delay: duration('server delay per request').optional().describe('injected server delay per request'),
    jitter: duration('server delay jitter').optional().describe('uniform jitter added to the delay'),
    port: z.number().int().min(1).max(65535).optional().describe('fixed port of the outermost listener (default: a free port)'),
  })
  .describe('local platform: how the tool builds this mode from its own echo server and proxy');

const urlField = z
  .url({
    protocol: /^https?$/,
    error: (issue) => `expected an http(s) URL such as http://127.0.0.1:8080/, got ${describeValue(issue.input)}`,
  })
  .max(LIMITS.text, { error: `expected a URL of at most ${formatLimit(LIMITS.text)} characters` })
  .describe('endpoints platform: HTTP URL of this mode');
const grpcField = text('a gRPC address')
  .regex(/^[^\s:/]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, {
    error: (issue) => `expected a gRPC address host:port, got ${describeValue(issue.input)}`,
  })
  .describe('endpoints platform: gRPC address host:port of this mode');
const envField = stringMap('env').describe('environment passed to the k6 script for this mode');
const labelsField = stringMap('namespaceLabels').describe(
  "labels put on the mode's namespace (kind, kubeconfig), beside the mesh's own enrolment",
);
const echoImageField = pinnedWorkloadImage('echo server').describe(
  "this mode's echo server image (kind, kubeconfig), instead of kubernetes.images.echo: the workload under test, e.g. a new build of an app",
);
/**
 * A mode's own Istio control plane: an Istio revision installed beside the run's (istioctl install
 * --revision), the mode's namespace labelled istio.io/rev (a waypoint mode's waypoint bound to it).
 * How two arms of an istio-sidecar or istio-waypoint mode differ in Istio version, hub or values. Unset fields are kubernetes.istio's; `set` replaces
 * kubernetes.istio.set when given.
 */
const istioRevisionField = z
  .strictObject({
    revision: text('istio.revision', 40)
      .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, {
        error: (issue) => `expected a revision name of lowercase letters, digits and inner dashes, got ${describeValue(issue.input)}`,
      })
      .optional()
      .describe("the revision's name (default mp-<mode>, e.g. mp-istio-sidecar-head)"),
    version: text('istio.version', 40)
      .regex(/^\d+\.\d+\.\d+$/, { error: (issue) => `expected an Istio version such as 1.29.2, got ${describeValue(issue.input)}` })
      .optional()
      .describe("this revision's Istio version (default kubernetes.istio.version): its istioctl installs it"),
    hub: text('istio.hub').optional().describe("this revision's image registry (default kubernetes.istio.hub)"),
    set: stringMap('istio.set').optional().describe("this revision's istioctl --set values, in place of kubernetes.istio.set"),
  })
  .describe(
    "istio-sidecar and istio-waypoint modes on kind and kubeconfig: this mode's own Istio revision (istioctl install --revision) for its sidecars or its waypoint, e.g. another Istio version beside the run's",
  );
const serverManifestsField = text('serverManifests').describe(
  "this mode's own server manifests (multi-document YAML, kind and kubeconfig) in place of kubernetes.manifests.server or the built-in echo server, e.g. a new version of the app's Deployment; they must define the Service echo",
);
const annotationsField = stringMap('namespaceAnnotations').describe(
  "annotations put on the mode's namespace (kind, kubeconfig), beside the mesh's own enrolment, e.g. Linkerd's config.linkerd.io/proxy-cpu-limit",
);

/**
 * What one arm changes of its mode: the rest is the mode's own. Env, local, labels and annotations
 * merge key by key over the mode's; url, grpc, echoImage and serverManifests replace it; istio's fields replace the
 * mode's one by one, and when either arm has istio both run under their own revision. No port:
 * both arms run at once.
 */
export const armOverridesSchema = z
  .strictObject({
    url: urlField.optional(),
    grpc: grpcField.optional(),
    env: envField.optional(),
    local: z
      .strictObject({
        hops: z.number().int().min(0).max(4).optional().describe('forwarding proxy hops in front of the echo server'),
        delay: duration('server delay per request').optional().describe('injected server delay per request'),
        jitter: duration('server delay jitter').optional().describe('uniform jitter added to the delay'),
      })
      .optional()
      .describe('local platform: hops, delay and jitter of this arm'),
    namespaceLabels: labelsField.optional(),
    namespaceAnnotations: annotationsField.optional(),
    echoImage: echoImageField.optional(),
    serverManifests: serverManifestsField.optional(),
    istio: istioRevisionField.optional(),
  })
  .describe("one arm's changes to its mode");

export const modeSchema = z
  .strictObject({
    name: name('mode name').describe('mode name, e.g. baseline, istio-sidecar'),
    mesh: z.enum(MESH_KINDS).optional().describe('mesh mode on Kubernetes platforms; defaults to the name when it is one'),
    url: urlField.optional(),
    grpc: grpcField.optional(),
    env: envField.optional(),
    local: localTargetSchema.optional(),
    namespaceLabels: labelsField.optional(),
    namespaceAnnotations: annotationsField.optional(),
    echoImage: echoImageField.optional(),
    serverManifests: serverManifestsField.optional(),
    istio: istioRevisionField.optional(),
    arms: z
      .strictObject({
        base: armOverridesSchema.optional().describe('what the base arm changes (default: nothing, the mode as written)'),
        head: armOverridesSchema.describe('what the head arm changes: the change under test'),
      })
      .optional()
      .describe(
        'A/B: run this mode as two arms, <name>-base and <name>-head, in the same randomized blocks, and gate head against base (gates.ab)',
      ),
  })
  .describe('one way of serving the same workload (no mesh, a mesh mode, a URL)');

const repetitionsError = (issue: { input?: unknown }) =>
  `expected a whole number of repetitions ≥ 1 or "auto", got ${describeValue(issue.input)}`;

const generatorsError = (issue: { input?: unknown }) =>
  `expected a whole number of k6 instances ≥ 1 or "auto", got ${describeValue(issue.input)}`;

/**
 * The default repetition: 30 s + 5 s warm-up, as published mesh benchmarks measure. A run with arms
 * measures 6 s + 2 s: its gate decides on many paired blocks, and at 30 s + 5 s its 12-minute budget
 * would hold 10 blocks of two arms, the A/B gate's first look and nothing after. At 8 s a repetition,
 * the 12 minutes hold the 40 blocks (with a baseline mode in the first 10) that bench/ab-gate needs
 * at r 5 % per block with outlier blocks and three gated modes; a clean run decides in about 20
 * blocks on average (docs/methodology-statistics.md).
 */
export const REPETITION_DEFAULTS = { duration: '30s', warmup: '5s', abDuration: '6s', abWarmup: '2s' } as const;

/** A profile's repetition length as run: what it says, else the default for a run with or without arms. */
export function repetitionLength(
  profile: Pick<LoadProfileConfig, 'duration' | 'warmup'>,
  arms: boolean,
): { duration: string; warmup: string } {
  return {
    duration: profile.duration ?? (arms ? REPETITION_DEFAULTS.abDuration : REPETITION_DEFAULTS.duration),
    warmup: profile.warmup ?? (arms ? REPETITION_DEFAULTS.abWarmup : REPETITION_DEFAULTS.warmup),
  };
}

export const loadProfileSchema = z
  .strictObject({
    name: name('load profile name').optional().describe('profile name; defaults to "<rate>rps" or "<vus>vus"'),
    model: z.enum(['open', 'closed']).default('open').describe('open: constant arrival rate (default); closed: constant VUs'),
    rate: positiveNumber('load.rate (requests per second)', LIMITS.rate, ', ten times the largest published mesh benchmark')
      .optional()
      .describe('target requests per second (open model)'),
    vus: positiveInt('load.vus', LIMITS.vus, ' (k6 runs 30,000-40,000 per large machine)')
      .optional()
      .describe('virtual users (closed model); open model: override the computed pool'),
    duration: duration('load.duration')
      .optional()
      .describe(
        `measured time per repetition (default ${REPETITION_DEFAULTS.duration}; ${REPETITION_DEFAULTS.abDuration} when a mode has arms)`,
      ),
    warmup: duration('load.warmup')
      .optional()
      .describe(
        `load before measuring, excluded from results (default ${REPETITION_DEFAULTS.warmup}; ${REPETITION_DEFAULTS.abWarmup} with arms)`,
      ),
    repetitions: z
      .union(
        [
          z.literal('auto'),
          z
            .number()
            .int({ error: repetitionsError })
            .min(1, { error: repetitionsError })
            .max(LIMITS.repetitions, atMost('load.repetitions', LIMITS.repetitions, ' (28 hours of load per mode at 1 s each)')),
        ],
        {
          error: repetitionsError,
        },
      )
      .default('auto')
      .describe(
        'blocks per mode, interleaved across modes: a whole number runs exactly that many; auto (default) starts with plan.budget.minBlocks and adds blocks until every A/B gate and inconclusive regression gate is decided or plan.budget is spent',
      ),
    protocol: z
      .enum(['http', 'grpc'])
      .default('http')
      .describe("request protocol; grpc calls the echo server's gRPC port, or a mode's grpc address on endpoints"),
    method: z.enum(['GET', 'POST']).default('GET').describe('HTTP method; POST sends body or payloadBytes'),
    path: text('load.path').startsWith('/').optional().describe('request path appended to each mode target'),
    body: text('load.body', LIMITS.body).optional().describe('POST body (the echo server sends it back)'),
    payloadBytes: z.number().int().min(0).max(10_000_000).optional().describe('POST body of this many bytes'),
    headers: stringMap('load.headers')
      .optional()
      .describe('HTTP headers sent with every request; values under secret-looking names never reach an output'),
    timeout: duration('load.timeout').default('10s').describe('per-request timeout'),
    maxErrorRate: z
      .number({ error: 'load.maxErrorRate: expected a fraction from 0 to 1 (0.01 = 1%)' })
      .min(0, { error: 'load.maxErrorRate: expected a fraction from 0 to 1 (0.01 = 1%)' })
      .max(1, { error: 'load.maxErrorRate: expected a fraction from 0 to 1 (0.01 = 1%)' })
      .default(0.01)
      .describe('error gate: a mode whose failed requests exceed this fraction fails the run (0 allows none)'),
    expectedLatency: duration('load.expectedLatency').default('50ms').describe('sizes the VU pool: rate × latency × headroom'),
    script: text('load.script').optional().describe("a user's own k6 script, run unchanged"),
    pause: duration('load.pause').default('0s').describe('idle time between repetitions'),
    replicas: z
      .number({ error: (issue) => `expected a whole number of echo pods for load.replicas, got ${describeValue(issue.input)}` })
      .int({ error: (issue) => `expected a whole number of echo pods for load.replicas, got ${String(issue.input)}` })
      .min(1, { error: (issue) => `expected load.replicas ≥ 1 (echo pods during this profile), got ${String(issue.input)}` })
      .max(90, { error: (issue) => `expected load.replicas ≤ 90 (as kubernetes.replicas), got ${String(issue.input)}` })
      .optional()
      .describe('kind/kubeconfig: echo pods per mode during this profile (default kubernetes.replicas); the run scales between profiles'),
    generators: z
      .union(
        [
          z.literal('auto'),
          z
            .number()
            .int({ error: generatorsError })
            .min(1, { error: generatorsError })
            .max(LIMITS.generators, atMost('load.generators', LIMITS.generators, ' k6 instances')),
        ],
        { error: generatorsError },
      )
      .default(1)
      .describe(
        'k6 instances that share each repetition (k6 execution segments; percentiles merged exactly from raw samples); "auto" picks from the rate and the cores',
      ),
    pacer: z
      .enum(['auto', 'on', 'off'])
      .default('auto')
      .describe(
        "open-model HTTP: send the arrivals with mesh-perf's pacer, a k6 extension that paces them from Go through k6's own HTTP client (a tail as low as vegeta's; docs/fidelity.md). auto (default): when the k6 has it (mesh-perf's pinned k6 does), else k6's arrival-rate executor; on: require it; off: k6's executor",
      ),
    engine: z
      .enum(LOAD_ENGINES)
      .default('k6')
      .describe(
        'kind/kubeconfig: k6 runs in the client pods (default), k6-operator runs each repetition as a k6-operator TestRun (the cluster needs k6-operator installed)',
      ),
  })
  .describe('one load profile; a list runs each profile for every mode');

/**
 * How long `load.repetitions: auto` may measure. The default keeps a PR job's load phase under about
 * 8 minutes at the default repetition length (30 s + 5 s warm-up).
 */
export const BUDGET_DEFAULTS = { minBlocks: 3, maxBlocks: 27, maxDuration: '8m' } as const;

/**
 * With arms: 40 blocks (looks at 10/20/30/40), the budget the A/B gate's targets were measured at
 * (bench/ab-gate: at 5 % per-block noise with outlier blocks and three gated modes, 27 blocks caught
 * +5 % in 87 % of runs, 40 in 96 %), and 12 minutes, which hold its 40 blocks for one mode with arms
 * beside a baseline mode at the arms' 6 s + 2 s repetitions (10 × 3 × 8 s, then 30 × 2 × 8 s).
 */
export const AB_BUDGET_DEFAULTS = { maxBlocks: 40, maxDuration: '12m' } as const;

/** plan.budget.maxBlocks as written, else its default (more with arms). */
export function maxBlocksOf(config: {
  plan: { budget: { maxBlocks?: number | undefined } };
  modes: readonly { arms?: unknown }[];
}): number {
  const arms = config.modes.some((m) => m.arms !== undefined);
  return config.plan.budget.maxBlocks ?? (arms ? AB_BUDGET_DEFAULTS.maxBlocks : BUDGET_DEFAULTS.maxBlocks);
}

/** plan.budget.maxDuration as written, else its default (longer with arms). */
export function maxDurationOf(config: {
  plan: { budget: { maxDuration?: string | undefined } };
  modes: readonly { arms?: unknown }[];
}): string {
  const arms = config.modes.some((m) => m.arms !== undefined);
  return config.plan.budget.maxDuration ?? (arms ? AB_BUDGET_DEFAULTS.maxDuration : BUDGET_DEFAULTS.maxDuration);
}

const budgetSchema = z
  .strictObject({
    minBlocks: positiveInt('plan.budget.minBlocks', LIMITS.repetitions, ' (as load.repetitions)')
      .default(BUDGET_DEFAULTS.minBlocks)
      .describe('blocks before the first look (load.repetitions auto)'),
    maxBlocks: positiveInt('plan.budget.maxBlocks', LIMITS.repetitions, ' (as load.repetitions)')
      .optional()
      .describe(
        `most blocks a run measures before it stops undecided; default ${BUDGET_DEFAULTS.maxBlocks}, ${AB_BUDGET_DEFAULTS.maxBlocks} with arms`,
      ),
    maxDuration: duration('plan.budget.maxDuration')
      .optional()
      .describe(
        `most load time (warm-up, measurement, pauses) before it stops undecided; default ${BUDGET_DEFAULTS.maxDuration}, ${AB_BUDGET_DEFAULTS.maxDuration} with arms`,
      ),
  })
  .default({ minBlocks: BUDGET_DEFAULTS.minBlocks })
  .describe('load.repetitions auto: the first look and the most a run may measure');

export const configSchema = z
  .strictObject({
    $schema: text('$schema')
      .optional()
      .describe('the JSON Schema editors check this file against, e.g. ./schema/mesh-perf.schema.json; mesh-perf itself ignores it'),
    suite: name('suite name').default('default').describe('groups results in history'),
    preset: text('preset', 100).optional().describe('start from a preset (mesh-perf presets lists them)'),
    platform: z
      .enum(PLATFORMS)
      .default('local')
      .describe(
        'where the modes run: local (its own echo servers and proxies on 127.0.0.1), endpoints (URLs you give), kind (a cluster it creates), kubeconfig (your cluster)',
      ),
    modes: z
      .array(modeSchema)
      .min(1, { error: 'expected at least one mode' })
      .max(LIMITS.modes, tooMany('modes', LIMITS.modes))
      .describe('what is measured: one entry per mode, all run in the same randomized blocks'),
    baseline: text('baseline', 40).optional().describe('mode that overheads are computed against; default the first mode'),
    load: z
      .union([loadProfileSchema, z.array(loadProfileSchema).min(1).max(LIMITS.profiles, tooMany('load profiles', LIMITS.profiles))])
      .prefault({})
      .describe('the load: one profile, or a list of profiles that every mode runs'),
    plan: z
      .strictObject({
        seed: z
          .number()
          .int()
          .min(0)
          .max(LIMITS.seed, atMost('plan.seed', LIMITS.seed, ' (the shuffle keeps 32 bits)'))
          .optional()
          .describe('seed of the randomized block order; recorded in results'),
        order: z
          .enum(['interleaved', 'sequential'])
          .default('interleaved')
          .describe(
            'interleaved: each block runs every mode once, in a seeded random order; sequential: every repetition of one mode, then the next mode',
          ),
        budget: budgetSchema,
      })
      .default({ order: 'interleaved', budget: { minBlocks: BUDGET_DEFAULTS.minBlocks } })
      .describe('the order of the trials, and how long load.repetitions auto may go on'),
    gates: gatesSchema,
    history: historySchema,
    confirm: confirmSchema,
    github: githubSchema,
    kubernetes: kubernetesSchema,
    out: text('out').optional().describe('results folder; default ./mesh-perf-results/<run-id>'),
    calibrate: z.boolean().default(false).describe('A/A calibration: measure the baseline as two modes'),
  })
  .describe('mesh-perf configuration');

export type ParsedConfig = z.output<typeof configSchema>;
/** A mode as written, arms and all. */
export type ModeSpec = z.output<typeof modeSchema>;
export type ArmOverrides = z.output<typeof armOverridesSchema>;
export type ArmSide = 'base' | 'head';
/** Which mode an expanded arm belongs to, and which side it is. */
export interface ArmRef {
  of: string;
  side: ArmSide;
}
/** A mode as the plan runs it: a mode with arms becomes two, `<name>-base` and `<name>-head`. */
export type ModeConfig = Omit<ModeSpec, 'arms'> & { arm?: ArmRef };
export type LoadProfileConfig = z.output<typeof loadProfileSchema>;
export type MeshKind = (typeof MESH_KINDS)[number];

/**
 * The mesh a mode runs under on Kubernetes: its mesh, else its name when that is a mesh, or for
 * an arm its mode's name. undefined: none, which a cluster refuses (config/applicability.ts).
 */
export function meshOf(mode: Pick<ModeConfig, 'mesh' | 'name' | 'arm'>): MeshKind | undefined {
  const kind = (name: string | undefined) => MESH_KINDS.find((k) => k === name);
  return mode.mesh ?? kind(mode.name) ?? kind(mode.arm?.of);
}
export type PlatformName = (typeof PLATFORMS)[number];
