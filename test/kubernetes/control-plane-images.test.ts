// The control planes' images as recorded: one entry per component and container, named from the
// pod's component label (or its name without the pod suffixes), the digest the runtime resolved,
// and replicas that ran different images both listed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { componentImages } from '../../src/platform/kubernetes/control-plane-images.ts';

const digest = (c: string) => `sha256:${c.repeat(64)}`;

test('components, containers and digests, as the pods report them', () => {
  const images = componentImages([
    {
      metadata: { name: 'istiod-6c9f8d7b5-x2k4q', labels: { app: 'istiod' } },
      status: {
        containerStatuses: [{ name: 'discovery', image: 'docker.io/istio/pilot:1.30.3', imageID: `docker.io/istio/pilot@${digest('1')}` }],
      },
    },
    {
      metadata: { name: 'ztunnel-abcde', labels: { app: 'ztunnel' } },
      status: { containerStatuses: [{ name: 'istio-proxy', image: 'docker.io/istio/ztunnel:1.30.3', imageID: digest('2') }] },
    },
    {
      metadata: { name: 'ztunnel-fghij', labels: { app: 'ztunnel' } },
      status: { containerStatuses: [{ name: 'istio-proxy', image: 'docker.io/istio/ztunnel:1.30.3', imageID: digest('3') }] },
    },
    {
      metadata: { name: 'linkerd-destination-7d9b8c6f4-9zq2w' },
      status: {
        initContainerStatuses: [{ name: 'linkerd-init', image: 'cr.l5d.io/linkerd/proxy-init:v2.4.1' }],
        containerStatuses: [
          { name: 'linkerd-proxy', image: 'cr.l5d.io/linkerd/proxy:edge-26.9.1', imageID: `cr.l5d.io/linkerd/proxy@${digest('4')}` },
        ],
      },
    },
  ]);
  assert.deepEqual(images, {
    'istiod/discovery': `docker.io/istio/pilot@${digest('1')}`,
    'linkerd-destination/linkerd-init': 'cr.l5d.io/linkerd/proxy-init:v2.4.1',
    'linkerd-destination/linkerd-proxy': `cr.l5d.io/linkerd/proxy@${digest('4')}`,
    // A loaded image reports only its own ID: named with it; two nodes that ran different ones, both.
    'ztunnel/istio-proxy': `docker.io/istio/ztunnel:1.30.3 (image ID ${digest('2')}) | docker.io/istio/ztunnel:1.30.3 (image ID ${digest('3')})`,
  });
});
