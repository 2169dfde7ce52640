// Facts recorded with the results so runs on different clusters are never silently compared:
// Kubernetes version, nodes and their capacity, the CNI, mesh versions, image digests actually
// running, and the requests/limits every mode used. Never credentials or the kubeconfig.
import type { Config } from '../../config/validate.ts';
import type { MeshInstallation } from './mesh/types.ts';
import type { MeshKind } from '../../config/schema.ts';
import { proxyResourcesByMode } from './mesh/proxy-resources.ts';
import { rawRequest, type ClusterAccess } from './access.ts';

const KNOWN_CNIS: [RegExp, string][] = [
  [/^kindnet/, 'kindnet'],
  [/^calico-node/, 'calico'],
  [/^cilium/, 'cilium'],
  [/^kube-flannel|^flannel/, 'flannel'],
  [/^weave-net/, 'weave'],
  [/^aws-node/, 'aws-vpc-cni'],
  [/^antrea-agent/, 'antrea'],
  [/^kube-router/, 'kube-router'],
  [/^azure-cni|^azure-ip-masq/, 'azure-cni'],
];

export function detectCni(daemonSetNames: readonly string[]): string {
  for (const name of daemonSetNames) for (const [pattern, cni] of KNOWN_CNIS) if (pattern.test(name)) return cni;
  return 'unknown';
}

export function quantityToNumber(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text);
  if (!match) return undefined;
  const factor: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  return Number(match[1]) * (match[2] ? factor[match[2]]! : 1);
}

interface NodeView {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: { taints?: { key: string; effect: string }[] };
  status?: {
    capacity?: Record<string, string>;
    nodeInfo?: { kubeletVersion?: string; containerRuntimeVersion?: string; osImage?: string; architecture?: string };
  };
}

export interface EnvironmentInput {
  access: ClusterAccess;
  config: Config;
  platform: string;
  serverVersion: string;
  namespaces: Record<string, string>;
  meshes: MeshInstallation[];
  gatewayApi?: { version: string; installed: boolean };
  /** Each mode's mesh kind, to record which proxy resources applied to it. */
  modes?: { name: string; kind: MeshKind }[];
}

/**
 * What a container ran, as its status says: the repository digest a pull resolved
 * (`docker.io/fortio/fortio@sha256:…`), or, for an image loaded into the node rather than pulled
 * (`kind load`, `ctr images import`: the runtime then reports only the image's own ID, a bare
 * `sha256:…` naming no image), the image's name with that ID.
 */
export function runningImage(image: string, imageID: string | undefined): string {
  if (!imageID) return image;
  return /^sha256:[0-9a-f]{64}$/.test(imageID) ? `${image} (image ID ${imageID})` : imageID;
}

async function getJson<T>(access: ClusterAccess, path: string): Promise<T | undefined> {
  const response = await rawRequest(access, path, { timeoutMs: 15_000 }).catch(() => undefined);
  return response?.status === 200 ? (JSON.parse(response.body) as T) : undefined;
}

export async function collectEnvironment(input: EnvironmentInput): Promise<Record<string, unknown>> {
  const nodes = (await getJson<{ items: NodeView[] }>(input.access, '/api/v1/nodes'))?.items ?? [];
  const daemonSets =
    (await getJson<{ items: { metadata: { name: string } }[] }>(input.access, '/apis/apps/v1/namespaces/kube-system/daemonsets'))?.items ??
    [];
  const images: Record<string, Record<string, string>> = {};
  for (const [mode, namespace] of Object.entries(input.namespaces)) {
    const pods =
      (
        await getJson<{
          items: {
            metadata: { name: string };
            status?: {
              containerStatuses?: { name: string; image: string; imageID?: string }[];
              initContainerStatuses?: { name: string; image: string; imageID?: string }[];
            };
          }[];
        }>(input.access, `/api/v1/namespaces/${namespace}/pods`)
      )?.items ?? [];
    const seen: Record<string, string> = {};
    for (const pod of pods) {
      for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
        seen[c.name] = runningImage(c.image, c.imageID);
      }
    }
    images[mode] = seen;
  }
  const k8s = input.config.kubernetes;
  return {
    platform: input.platform,
    kubernetes: { version: input.serverVersion },
    nodes: {
      count: nodes.length,
      items: nodes.map((n) => ({
        name: n.metadata.name,
        cpuCores: quantityToNumber(n.status?.capacity?.cpu),
        memoryMiB: Math.round((quantityToNumber(n.status?.capacity?.memory) ?? 0) / 1024 ** 2),
        kubelet: n.status?.nodeInfo?.kubeletVersion,
        runtime: n.status?.nodeInfo?.containerRuntimeVersion,
        os: n.status?.nodeInfo?.osImage,
        arch: n.status?.nodeInfo?.architecture,
        schedulable: !(n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule'),
      })),
    },
    cni: detectCni(daemonSets.map((d) => d.metadata.name)),
    meshes: Object.fromEntries(
      input.meshes.map((m) => [m.mesh, { version: m.version, installedByMeshPerf: m.installedByUs, namespace: m.namespace, ...m.details }]),
    ),
    ...(input.gatewayApi ? { gatewayApi: input.gatewayApi } : {}),
    images: { configured: { echo: k8s.images.echo, client: k8s.images.client, ...ownEchoImages(input.config) }, running: images },
    resources: k8s.resources,
    ...(input.modes ? { proxyResources: proxyResourcesByMode(input.modes, input.meshes, k8s.resources.proxy) } : {}),
    replicas: k8s.replicas,
    namespaces: input.namespaces,
  };
}

/** The modes (A/B arms) that run their own echo image instead of kubernetes.images.echo, as configured. */
function ownEchoImages(config: Config): { echoByMode?: Record<string, string> } {
  const own = config.modes.filter((m) => m.echoImage !== undefined).map((m) => [m.name, m.echoImage!] as const);
  return own.length > 0 ? { echoByMode: Object.fromEntries(own) } : {};
}
