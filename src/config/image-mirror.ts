// One registry mirror for every image mesh-perf deploys (kubernetes.images.registry): the image's
// own registry host is replaced by the mirror, the repository path, tag and digest stay. A digest
// still names the same bytes whichever registry serves them (the kubelet verifies it), so a
// recorded digest stays honest. Pure.

/** Docker Hub's implicit prefix: `fortio/fortio` is `docker.io/fortio/fortio`. */
const REGISTRY_HOST = /^([a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?|localhost(:\d+)?)\//;

/** `mirror.example/hub` + `ghcr.io/grafana/k6-operator:x` → `mirror.example/hub/grafana/k6-operator:x`. */
export function mirrorImage(image: string, registry: string | undefined): string {
  if (!registry) return image;
  const path = image.replace(REGISTRY_HOST, '');
  // Docker Hub's official images live under library/ (`nginx` is `docker.io/library/nginx`).
  const repository = REGISTRY_HOST.test(image) || path.includes('/') ? path : `library/${path}`;
  return `${registry.replace(/\/+$/, '')}/${repository}`;
}
