// The images the meshes' control planes and node agents ran (istiod, ztunnel, istio-cni, Linkerd's
// controllers and their proxies), as the pods' statuses report them: recorded per run
// (run.provenance.images), so two runs on the same mesh version but different builds or digests are
// told apart. Read from the meshes' own namespaces; a namespace that cannot be listed is skipped.
import { listJson } from './api-json.ts';
import type { ClusterAccess } from './access.ts';
import { runningImage } from './environment.ts';

interface ContainerStatus {
  name: string;
  image: string;
  imageID?: string;
}

export interface PodView {
  metadata: { name: string; labels?: Record<string, string> };
  status?: { containerStatuses?: ContainerStatus[]; initContainerStatuses?: ContainerStatus[] };
}

/** Labels that name a control plane's component, in the order they are trusted. */
const COMPONENT_LABELS = ['app', 'linkerd.io/control-plane-component', 'app.kubernetes.io/name', 'k8s-app'];

/** The workload a pod belongs to: its component label, else its name without the ReplicaSet and pod suffixes. */
function componentOf(pod: PodView): string {
  const labels = pod.metadata.labels ?? {};
  for (const key of COMPONENT_LABELS) if (labels[key]) return labels[key]!;
  return pod.metadata.name.replace(/-[a-z0-9]{8,10}-[a-z0-9]{5}$/, '').replace(/-[a-z0-9]{5}$/, '');
}

/** "<component>/<container>" → the image it ran; replicas that ran different images are listed together. Pure. */
export function componentImages(pods: readonly PodView[]): Record<string, string> {
  const seen = new Map<string, Set<string>>();
  for (const pod of pods) {
    const component = componentOf(pod);
    for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const key = `${component}/${c.name}`;
      let images = seen.get(key);
      if (!images) seen.set(key, (images = new Set()));
      images.add(runningImage(c.image, c.imageID));
    }
  }
  return Object.fromEntries([...seen].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, images]) => [key, [...images].sort().join(' | ')]));
}

/** The images of every pod in the meshes' namespaces (istio-system, linkerd, …). */
export async function controlPlaneImages(access: ClusterAccess, namespaces: readonly string[]): Promise<Record<string, string>> {
  const pods: PodView[] = [];
  for (const namespace of [...new Set(namespaces)].sort()) {
    const items = await listJson<PodView>(access, `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`, {
      verb: 'list',
      resource: 'pods',
      namespace,
    }).catch(() => undefined);
    pods.push(...(items ?? []));
  }
  return componentImages(pods);
}
