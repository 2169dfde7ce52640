// Fields that mean nothing on the chosen platform, and values k6 cannot run. Both used to pass
// validation and then either be ignored (`mesh: istio-sidecar` on local ran as a direct
// connection and passed) or fail only after the run had started; now they are config errors
// naming the field and the platform. Pure.
import { type LoadProfileConfig, MESH_KINDS, meshOf, type ParsedConfig } from './schema.ts';
import { parseDurationMs } from './duration.ts';
import type { ConfigProblem } from './problem.ts';

/** k6 schedules in whole seconds for short runs; below 1 s the measured window is noise or nothing. */
export const MIN_K6_DURATION_MS = 1000;
/** Rates are sent to k6 per 1000 s (src/load/script.ts), so the smallest rate it can hold is 0.001 rps. */
export const MIN_RATE = 0.001;

/** A mode's or an arm's own echo image at `path`: meaningless off a cluster, and over the user's own server manifests. */
export function echoImageProblems(config: ParsedConfig, echoImage: string | undefined, path: string): ConfigProblem[] {
  if (echoImage === undefined) return [];
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig')
    return [
      {
        path,
        message: `does not apply to platform "${config.platform}": the local and endpoints platforms deploy no image; it is the echo server image on kind and kubeconfig`,
      },
    ];
  const server = config.kubernetes?.manifests?.server;
  return server
    ? [
        {
          path,
          message: `cannot replace the image of kubernetes.manifests.server (${server}), which is applied as written; set the image in those manifests, or remove manifests.server`,
        },
      ]
    : [];
}

/** A mode's or an arm's own server manifests at `path`: a cluster's, and never beside an echo image they would ignore. */
export function serverManifestsProblems(
  config: ParsedConfig,
  serverManifests: string | undefined,
  echoImage: string | undefined,
  path: string,
): ConfigProblem[] {
  if (serverManifests === undefined) return [];
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig')
    return [
      {
        path,
        message: `does not apply to platform "${config.platform}": the local and endpoints platforms deploy nothing; server manifests are applied on kind and kubeconfig`,
      },
    ];
  return echoImage !== undefined
    ? [
        {
          path,
          message: `is applied as written, so echoImage (${echoImage}) beside it would be ignored; set the image in ${serverManifests}, or remove one of the two`,
        },
      ]
    : [];
}

export function platformProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const platform = config.platform;
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  const usesGrpc = profiles.some((p) => p.protocol === 'grpc');
  const usesHttp = profiles.some((p) => p.protocol === 'http');
  const kubernetes = platform === 'kind' || platform === 'kubeconfig';
  config.modes.forEach((mode, i) => {
    const at = `modes[${i}]`;
    const notOn = (field: string, why: string) =>
      problems.push({ path: `${at}.${field}`, message: `does not apply to platform "${platform}": ${why}` });
    if (platform === 'local') {
      // A preset's mesh modes carry `local.hops` to approximate the mesh with proxy hops; a mesh
      // without it would silently run as a direct connection.
      if (mode.mesh && mode.mesh !== 'baseline' && !mode.local) {
        notOn(
          'mesh',
          `no mesh is installed locally, so "${mode.mesh}" would run as a direct connection; remove it, or add local: { hops: N } to approximate the mesh with proxy hops`,
        );
      }
      if (mode.url) notOn('url', 'the local platform starts its own echo server per mode; use platform endpoints to measure a URL');
      if (mode.grpc) notOn('grpc', 'the local platform starts its own servers; use platform endpoints to measure a gRPC address');
    }
    if (platform === 'endpoints' && mode.local)
      notOn('local', 'it describes servers the local platform starts; on endpoints set url (or grpc) for each mode');
    // On a cluster each mode is deployed in a mesh: its mesh, or the mesh it is named after. Said
    // here, with the config, rather than by the platform after the run has started.
    if (kubernetes && meshOf(mode) === undefined)
      problems.push({
        path: `${at}.mesh`,
        message: `is required on platform "${platform}" for mode "${mode.name}" (its name is not a mesh); expected one of ${MESH_KINDS.join(', ')}`,
      });
    if (kubernetes && mode.url)
      notOn('url', 'the tool deploys the workload in the cluster and finds its address itself; use platform endpoints to measure a URL');
    if (kubernetes && mode.grpc)
      notOn(
        'grpc',
        'the tool deploys the workload in the cluster and finds its address itself; use platform endpoints to measure a gRPC address',
      );
    problems.push(...echoImageProblems(config, mode.echoImage, `${at}.echoImage`));
    problems.push(...serverManifestsProblems(config, mode.serverManifests, mode.echoImage, `${at}.serverManifests`));
    if (!kubernetes && (mode.namespaceLabels || mode.namespaceAnnotations)) {
      notOn(
        mode.namespaceLabels ? 'namespaceLabels' : 'namespaceAnnotations',
        'namespaces exist only on the kind and kubeconfig platforms',
      );
    }
    if (platform === 'endpoints' && mode.url && mode.grpc) {
      // Both are meaningful only when the load profiles use both protocols.
      if (!usesGrpc)
        problems.push({
          path: `${at}.grpc`,
          message: `is set beside url but no load profile has protocol grpc; remove one of url and grpc (got url ${JSON.stringify(mode.url)}, grpc ${JSON.stringify(mode.grpc)})`,
        });
      else if (!usesHttp)
        problems.push({
          path: `${at}.url`,
          message: `is set beside grpc but every load profile has protocol grpc; remove one of url and grpc (got url ${JSON.stringify(mode.url)}, grpc ${JSON.stringify(mode.grpc)})`,
        });
    }
    if (mode.grpc) {
      const port = Number(mode.grpc.slice(mode.grpc.lastIndexOf(':') + 1));
      if (!(port >= 1 && port <= 65535))
        problems.push({ path: `${at}.grpc`, message: `expected a port from 1 to 65535 in host:port, got ${JSON.stringify(mode.grpc)}` });
    }
  });
  if (platform === 'local') problems.push(...portCollisions(config));
  if (!kubernetes) problems.push(...clusterOnlyProblems(config));
  return problems;
}

/** Two local modes on one fixed port: the second's server would fail to start after the run began. */
function portCollisions(config: ParsedConfig): ConfigProblem[] {
  const owner = new Map<number, number>();
  const problems: ConfigProblem[] = [];
  config.modes.forEach((mode, i) => {
    const port = mode.local?.port;
    if (port === undefined) return;
    const first = owner.get(port);
    if (first === undefined) owner.set(port, i);
    else
      problems.push({
        path: `modes[${i}].local.port`,
        message: `port ${port} is also the port of modes[${first}] "${config.modes[first]!.name}"; each mode listens on a port of its own`,
      });
  });
  return problems;
}

/** Settings of the Kubernetes platforms written for a run that has no cluster: refused, not ignored. */
function clusterOnlyProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const list = Array.isArray(config.load);
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  const why = 'echo pods and gateways exist only on the kind and kubeconfig platforms';
  profiles.forEach((profile, i) => {
    if (profile.replicas !== undefined)
      problems.push({
        path: `${list ? `load[${i}]` : 'load'}.replicas`,
        message: `does not apply to platform "${config.platform}": ${why}; remove it or use platform kind or kubeconfig`,
      });
  });
  if (config.kubernetes.ingress)
    problems.push({
      path: 'kubernetes.ingress',
      message: `does not apply to platform "${config.platform}": ${why}; remove it or use platform kind or kubeconfig`,
    });
  return problems;
}

export function k6LimitProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const list = Array.isArray(config.load);
  const profiles: LoadProfileConfig[] = Array.isArray(config.load) ? config.load : [config.load];
  profiles.forEach((profile, i) => {
    const at = list ? `load[${i}]` : 'load';
    // An unset duration or warm-up takes a default k6 can measure (REPETITION_DEFAULTS).
    const durationMs = profile.duration === undefined ? undefined : parseDurationMs(profile.duration);
    if (durationMs !== undefined && durationMs > 0 && durationMs < MIN_K6_DURATION_MS) {
      problems.push({
        path: `${at}.duration`,
        message: `expected at least 1s (k6 cannot measure a shorter window), got ${JSON.stringify(profile.duration)}`,
      });
    }
    const warmupMs = profile.warmup === undefined ? undefined : parseDurationMs(profile.warmup);
    if (warmupMs !== undefined && warmupMs > 0 && warmupMs < MIN_K6_DURATION_MS) {
      problems.push({ path: `${at}.warmup`, message: `expected 0s or at least 1s, got ${JSON.stringify(profile.warmup)}` });
    }
    if (profile.model === 'open' && profile.rate !== undefined && profile.rate > 0) {
      if (profile.rate < MIN_RATE) {
        problems.push({
          path: `${at}.rate`,
          message: `expected at least ${MIN_RATE} requests per second (k6's finest arrival rate), got ${profile.rate}`,
        });
      } else if (durationMs !== undefined && durationMs >= MIN_K6_DURATION_MS && profile.rate * (durationMs / 1000) < 1) {
        problems.push({
          path: `${at}.rate`,
          message: `${profile.rate} rps for ${profile.duration} sends no request at all; raise the rate or the duration (rate × duration must reach 1 request)`,
        });
      }
    }
    problems.push(...generatorProblems(profile, at));
  });
  return problems;
}

/**
 * k6 instances of a profile (load.generators): each needs a share of the schedule it can run. k6
 * splits any script's scenarios, but a user's script would run its setup() and teardown() once
 * per instance and judge its own thresholds on a part of the requests, so it runs as one.
 */
function generatorProblems(profile: LoadProfileConfig, at: string): ConfigProblem[] {
  const n = profile.generators;
  if (typeof n !== 'number' || n <= 1) return [];
  const path = `${at}.generators`;
  if (profile.script !== undefined)
    return [
      {
        path,
        message: `expected 1 with a user's own script (load.script), got ${n}: each k6 instance would run its setup() and teardown() and judge its thresholds on only its part of the requests`,
      },
    ];
  if (profile.model === 'open' && profile.rate !== undefined && profile.rate / n < 1)
    return [
      {
        path,
        message: `${n} k6 instances would share ${profile.rate} rps, under 1 rps each; expected at most ${Math.max(1, Math.floor(profile.rate))} for this rate`,
      },
    ];
  if (profile.model === 'closed' && profile.vus !== undefined && n > profile.vus)
    return [
      {
        path,
        message: `${n} k6 instances would share ${profile.vus} VUs, some with none (k6 splits the VUs between them); expected at most ${profile.vus}`,
      },
    ];
  return [];
}
