// The product against a real kind cluster, unchanged: `node dist/cli.js` with platform kind inside
// the kind host's network namespace (where kind maps the API server's port), DOCKER_HOST at the
// host's dockerd, and the product's own overrides of its pinned downloads for kind, istioctl and
// the Linkerd CLI (MESH_PERF_KIND, MESH_PERF_ISTIOCTL, MESH_PERF_LINKERD: what would be downloaded
// on a runner is built here). The config differs from a runner's only in what this machine must
// change: the node image (built here, pinned by the digest the registry gave it), the image
// registry (kubernetes.images.registry), the pods' and Services' ranges (in 198.18.0.0/15), and
// Linkerd's version (the cached build's) and cluster networks (which include that range).
import { componentPath } from '../real/components.ts';
import { imageRefsFor, linkerdVersion } from '../real/images.ts';
import { BENCHMARK_RANGE } from '../real/layout.ts';
import { type ProductRun, runProduct } from '../real/product.ts';
import { pushedImages } from './actions/images.ts';
import { kindComponentPath } from './components.ts';
import type { KindHost } from './host.ts';
import { POD_SUBNET, REGISTRY, SERVICE_SUBNET } from './layout.ts';

/** The settings a config needs to run on the tier's kind (a test merges its modes and load into them). */
export function kindSettings(): { platform: 'kind'; kubernetes: Record<string, unknown> } {
  const refs = imageRefsFor(REGISTRY);
  return {
    platform: 'kind',
    kubernetes: {
      kind: { nodeImage: pushedImages().node, podSubnet: POD_SUBNET, serviceSubnet: SERVICE_SUBNET },
      images: { registry: REGISTRY, echo: refs.echo(), client: refs.client() },
      linkerd: { version: linkerdVersion(), set: { clusterNetworks: BENCHMARK_RANGE } },
    },
  };
}

/** The environment of anything that drives kind from outside the host: the product, act. */
export function kindProductEnv(host: KindHost, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...host.dockerEnv(env),
    MESH_PERF_KIND: kindComponentPath('kind'),
    MESH_PERF_ISTIOCTL: componentPath('istioctl'),
    MESH_PERF_LINKERD: componentPath('linkerd-cli'),
    COLUMNS: '100',
  };
}

/** `mesh-perf <args>` in the kind host's network namespace. */
export function runKindProduct(
  host: KindHost,
  args: string[],
  onLine: (line: string) => void = () => {},
  env: NodeJS.ProcessEnv = {},
): Promise<ProductRun> {
  return runProduct(host.init, args, onLine, { ...kindProductEnv(host), ...env });
}
