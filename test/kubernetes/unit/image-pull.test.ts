// A pod whose image cannot be pulled (a mirror that lacks it, a registry that wants credentials):
// the readiness failure names the image, once, and the settings that decide where images come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imagePullHints, podState, type PodView } from '../../../src/platform/kubernetes/wait.ts';

const pod = (name: string, reason: string | undefined, image = 'mirror.example.com/fortio/fortio:1.66'): PodView => ({
  metadata: { name },
  spec: { nodeName: 'n1', containers: [{ name: 'echo', image }] },
  status: {
    phase: 'Pending',
    containerStatuses: [
      { name: 'echo', ready: false, ...(reason ? { state: { waiting: { reason, message: `Back-off pulling image "${image}"` } } } : {}) },
    ],
  },
});

test('an image that cannot be pulled is named once, with the mirror setting that chose its registry', () => {
  const hints = imagePullHints([pod('echo-1', 'ImagePullBackOff'), pod('echo-2', 'ErrImagePull'), pod('echo-3', undefined)]);
  assert.equal(hints.length, 1);
  assert.match(hints[0]!, /image mirror\.example\.com\/fortio\/fortio:1\.66 could not be pulled \(ImagePullBackOff\)/);
  assert.match(hints[0]!, /kubernetes\.images\.registry/);
  assert.match(podState(pod('echo-1', 'ImagePullBackOff')), /echo waiting: ImagePullBackOff: Back-off pulling image "mirror\.example\.com/);
});

test('pods that wait for other reasons give no image hint', () => {
  assert.deepEqual(imagePullHints([pod('echo-1', 'ContainerCreating'), pod('echo-2', 'CrashLoopBackOff')]), []);
});
