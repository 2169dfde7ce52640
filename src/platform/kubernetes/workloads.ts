// The workload of every mode, rendered from manifests/ (or the user's own manifests): the echo
// server Deployment + Service and the long-lived k6 client pod, with the image digests,
// replicas and requests/limits from the config, identical across modes but for a mode's (or an
// A/B arm's) own echo image.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Config } from '../../config/validate.ts';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import { parseManifests } from './apply.ts';

export const ECHO_SERVICE = 'echo';
export const ECHO_HTTP_PORT = 8080;
export const ECHO_GRPC_PORT = 8079;
const PROXY_CONTAINERS = new Set(['istio-proxy', 'linkerd-proxy']);

/** manifests/ ships next to the code (repo checkout or package): walk up from this module to find it. */
export function manifestsDir(start = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'manifests', 'echo.yaml'))) return join(dir, 'manifests');
    if (dirname(dir) === dir)
      throw new EnvironmentError(`cannot find the built-in manifests (manifests/echo.yaml) above ${start}; reinstall mesh-perf`);
  }
}

/** Replaces ${NAME} placeholders; a placeholder without a value is an error, not an empty string. */
export function renderTemplate(text: string, values: Record<string, string>, source: string): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${source}: no value for placeholder \${${name}}`);
    return value;
  });
}

export function templateValues(config: Config, echoImage?: string): Record<string, string> {
  const k8s = config.kubernetes;
  return {
    REPLICAS: String(k8s.replicas),
    ECHO_PORT_NAME: k8s.serviceProtocol === 'tcp' ? 'tcp-echo' : 'http',
    ECHO_APP_PROTOCOL: k8s.serviceProtocol === 'tcp' ? 'tcp' : 'http',
    ECHO_IMAGE: echoImage ?? k8s.images.echo,
    CLIENT_IMAGE: k8s.images.client,
    APP_CPU: k8s.resources.app.cpu,
    APP_MEMORY: k8s.resources.app.memory,
    APP_CPU_LIMIT: k8s.resources.app.cpuLimit,
    APP_MEMORY_LIMIT: k8s.resources.app.memoryLimit,
    CLIENT_CPU: k8s.resources.client.cpu,
    CLIENT_MEMORY: k8s.resources.client.memory,
    CLIENT_CPU_LIMIT: k8s.resources.client.cpuLimit,
    CLIENT_MEMORY_LIMIT: k8s.resources.client.memoryLimit,
  };
}

function readManifest(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `kubernetes.manifests.${what}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

export interface Workload {
  server: KubernetesObject[];
  client: KubernetesObject[];
  /** Name of the client pod and the container k6 runs in. */
  clientPod: string;
  clientContainer: string;
}

const ARM_OF = 'mesh-perf.dev/arm-of';
const ARM_SIDE = 'mesh-perf.dev/arm';

type PodSpecPatch = { affinity?: Record<string, unknown>; topologySpreadConstraints?: unknown[] };
type DeploymentPatch = KubernetesObject & {
  spec?: { template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpecPatch } };
};

/**
 * The built-in echo Deployment of an A/B arm: its pods spread one per node (maxSkew 1 over
 * hostnames) and prefer the nodes where the other arm's pods run, so both arms stand on the same
 * nodes and a node's own speed is common to them rather than a difference between them. Both are
 * preferences (ScheduleAnyway, preferred affinity): a one-node cluster still runs both arms' pods.
 */
export function spreadWithOtherArm(object: KubernetesObject, arm: { of: string; side: 'base' | 'head' }): KubernetesObject {
  if (object.kind !== 'Deployment' || object.metadata?.name !== ECHO_SERVICE) return object;
  const deployment = structuredClone(object) as DeploymentPatch;
  const template = deployment.spec?.template;
  if (!template) return object;
  template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [ARM_OF]: arm.of, [ARM_SIDE]: arm.side } };
  const spec: PodSpecPatch = (template.spec ??= {});
  spec.topologySpreadConstraints = [
    ...(spec.topologySpreadConstraints ?? []),
    {
      maxSkew: 1,
      topologyKey: 'kubernetes.io/hostname',
      whenUnsatisfiable: 'ScheduleAnyway',
      labelSelector: { matchLabels: { app: 'echo', [ARM_OF]: arm.of, [ARM_SIDE]: arm.side } },
    },
  ];
  const affinity = (spec.affinity ?? {}) as { podAffinity?: { preferredDuringSchedulingIgnoredDuringExecution?: unknown[] } };
  affinity.podAffinity = {
    ...affinity.podAffinity,
    preferredDuringSchedulingIgnoredDuringExecution: [
      ...(affinity.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      {
        weight: 100,
        podAffinityTerm: {
          topologyKey: 'kubernetes.io/hostname',
          labelSelector: { matchLabels: { [ARM_OF]: arm.of, [ARM_SIDE]: arm.side === 'base' ? 'head' : 'base' } },
          namespaceSelector: { matchLabels: { 'app.kubernetes.io/managed-by': 'mesh-perf' } },
        },
      },
    ],
  };
  spec.affinity = affinity;
  return deployment;
}

/** `echoImage`: a mode's own (modes[].echoImage, an arm's), in place of kubernetes.images.echo. */
export function renderWorkload(
  config: Config,
  cwd: string,
  dir = manifestsDir(),
  /**
   * A mode's own: its echo image (the built-in server with it), or its server manifests (in place
   * of kubernetes.manifests.server); an A/B arm's side, whose built-in server spreads its pods
   * over the same nodes as the other arm's (spreadWithOtherArm).
   */
  mode: { echoImage?: string; serverManifests?: string; arm?: { of: string; side: 'base' | 'head' } } = {},
): Workload {
  const values = templateValues(config, mode.echoImage);
  const own = { ...config.kubernetes.manifests, ...(mode.serverManifests ? { server: mode.serverManifests } : {}) };
  const builtIn = () => {
    const objects = parseManifests(
      renderTemplate(readFileSync(join(dir, 'echo.yaml'), 'utf8'), values, 'manifests/echo.yaml'),
      'manifests/echo.yaml',
    );
    return mode.arm ? objects.map((o) => spreadWithOtherArm(o, mode.arm!)) : objects;
  };
  const server = own.server ? parseManifests(readManifest(resolve(cwd, own.server), 'server'), own.server) : builtIn();
  if (!server.some((o) => o.kind === 'Service' && o.metadata?.name === ECHO_SERVICE)) {
    throw new UsageError(
      `${mode.serverManifests ? 'serverManifests' : 'kubernetes.manifests.server'} (${own.server}) must define a Service named "${ECHO_SERVICE}" with port ${ECHO_HTTP_PORT} (HTTP), the address every mode's k6 client targets`,
    );
  }
  const client = own.client
    ? parseManifests(readManifest(resolve(cwd, own.client), 'client'), own.client)
    : parseManifests(
        renderTemplate(readFileSync(join(dir, 'k6-client.yaml'), 'utf8'), values, 'manifests/k6-client.yaml'),
        'manifests/k6-client.yaml',
      );
  const pods = client.filter((o) => o.kind === 'Pod');
  if (pods.length !== 1)
    throw new UsageError(`kubernetes.manifests.client must define exactly one Pod (the k6 client), found ${pods.length}`);
  const pod = pods[0] as KubernetesObject & { spec?: { containers?: { name: string }[] } };
  const container = pod.spec?.containers?.find((c) => !PROXY_CONTAINERS.has(c.name))?.name;
  if (!container) throw new UsageError('kubernetes.manifests.client: the Pod has no container to run k6 in');
  return { server, client, clientPod: pod.metadata!.name!, clientContainer: container };
}
