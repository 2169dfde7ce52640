// What the cluster pulls, in the tier's registry: the kind node image (node-image.ts: built once
// per set of inputs, pushed, pinned by digest) and the workload's and meshes' images (the real
// tier's: the echo server, the k6 client, Istio ambient's, Linkerd's; pushed under the registry's
// name, as a runner's mirror would serve them through kubernetes.images.registry). What was pushed,
// with digests, is kept in the state directory for the product's config (product.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { imageArchives, workloadSpecs } from '../../real/images.ts';
import type { Action } from '../host.ts';
import { paths, REGISTRY } from '../layout.ts';
import { ensureNodeImage } from '../node-image.ts';

const PUSH = fileURLToPath(new URL('../push-oci.ts', import.meta.url));

export interface PushedImages {
  /** The node image, name:tag@sha256:… */
  node: string;
  /** Every other reference pushed, with its manifest digest. */
  images: Record<string, string>;
}

export function pushedImages(): PushedImages {
  return JSON.parse(readFileSync(paths.pushed(), 'utf8')) as PushedImages;
}

export const images: Action = {
  name: 'images',
  async up(host) {
    const node = await ensureNodeImage(host);
    const archives = imageArchives(workloadSpecs(REGISTRY));
    const out = await host.exec(process.execPath, ['--import', 'tsx', PUSH, ...archives.map((a) => a.archive)], {
      namespaces: ['net'],
      timeoutMs: 600_000,
    });
    if (out.code !== 0) throw new Error(`pushing the workload images to ${REGISTRY}: ${out.stderr.trim().slice(-2000)}`);
    const pushed: PushedImages = { node, images: JSON.parse(out.stdout.trim().split('\n').pop()!) as Record<string, string> };
    writeFileSync(paths.pushed(), `${JSON.stringify(pushed, null, 2)}\n`);
  },
};
