// kubernetes.images.registry: one mirror for every image mesh-perf deploys (the echo server, the
// k6 client, k6-operator's starter, Istio's hub, Linkerd's images); digests kept, so the digest
// recorded for a run still names the bytes that ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mirrorImage } from '../../../src/config/image-mirror.ts';
import { ConfigError, validateConfig } from '../../../src/config/validate.ts';
import { buildTestRun } from '../../../src/platform/kubernetes/k6-operator/testrun.ts';
import { K6_OPERATOR_STARTER_IMAGE } from '../../../src/platform/kubernetes/k6-operator/version.ts';
import { linkerdControlPlaneValues, linkerdMirrorValues } from '../../../src/platform/kubernetes/mesh/commands.ts';
import { renderWorkload } from '../../../src/platform/kubernetes/workloads.ts';

const MIRROR = 'mirror.example.com:5000/hub';

test('mirrorImage: the host is replaced (Docker Hub implicit), path, tag and digest kept', () => {
  assert.equal(mirrorImage('fortio/fortio:1.69.4', MIRROR), 'mirror.example.com:5000/hub/fortio/fortio:1.69.4');
  assert.equal(
    mirrorImage('grafana/k6:1.4.2@sha256:3656673de3f30424e8ebcfa46acd9558d83b6a43612d0f668ffeac953950c6c7', MIRROR),
    'mirror.example.com:5000/hub/grafana/k6:1.4.2@sha256:3656673de3f30424e8ebcfa46acd9558d83b6a43612d0f668ffeac953950c6c7',
  );
  assert.equal(
    mirrorImage('ghcr.io/grafana/k6-operator:starter-v1.6.0', `${MIRROR}/`),
    'mirror.example.com:5000/hub/grafana/k6-operator:starter-v1.6.0',
  );
  assert.equal(mirrorImage('localhost:5001/x/y:1.0.0', MIRROR), 'mirror.example.com:5000/hub/x/y:1.0.0');
  assert.equal(mirrorImage('nginx:1.27.0', MIRROR), 'mirror.example.com:5000/hub/library/nginx:1.27.0');
  assert.equal(mirrorImage('fortio/fortio:1.69.4', undefined), 'fortio/fortio:1.69.4');
});

const config = (images: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  validateConfig({
    platform: 'kind',
    load: { rate: 100 },
    modes: [{ name: 'baseline' }, { name: 'linkerd', mesh: 'linkerd' }],
    kubernetes: { images, ...extra },
  });

test('every image in the rendered workload (echo Deployment, k6 client Pod) comes from the mirror, digests unchanged', () => {
  const mirrored = config({ registry: MIRROR });
  assert.equal(mirrored.kubernetes.images.echo, 'mirror.example.com:5000/hub/fortio/fortio:1.69.4');
  assert.match(mirrored.kubernetes.images.client, /^mirror\.example\.com:5000\/hub\/grafana\/k6:1\.4\.2@sha256:3656673d/);
  const workload = renderWorkload(mirrored, process.cwd());
  const images = [...workload.server, ...workload.client].flatMap((o) => {
    const spec = (o as { spec?: { template?: { spec?: PodSpec } } & PodSpec }).spec;
    const pod = spec?.template?.spec ?? spec;
    return [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])].map((c) => c.image);
  });
  assert.ok(images.length >= 2, `images found: ${images.join(', ')}`);
  for (const image of images) assert.ok(image.startsWith(`${MIRROR}/`), `${image} is not from the mirror`);
  // A user's own image is mirrored too.
  assert.equal(config({ registry: MIRROR, echo: 'ghcr.io/acme/echo:2.0.0' }).kubernetes.images.echo, `${MIRROR}/acme/echo:2.0.0`);
  // Without a mirror nothing changes.
  assert.equal(config({}).kubernetes.images.echo, 'fortio/fortio:1.69.4');
});

interface PodSpec {
  containers?: { image: string }[];
  initContainers?: { image: string }[];
}

test("k6-operator's starter, and Linkerd's controller, proxy, proxy-init and debug images, come from the mirror", () => {
  const { testRun } = buildTestRun(
    'mesh-perf-0a1b2c3d',
    [{ files: { 'http.js': '' }, entry: 'http.js', args: [], env: {}, summaryFile: 's.json', expectedSeconds: 1 }],
    {
      namespace: 'mp-baseline',
      echoNamespace: 'mp-baseline',
      mode: 'baseline',
      image: `${MIRROR}/grafana/k6:1.4.2`,
      registry: MIRROR,
      resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } },
      ownerLabels: {},
    },
  );
  const spec = (testRun as { spec: Record<string, { image?: string }> }).spec;
  assert.equal(spec.starter?.image, mirrorImage(K6_OPERATOR_STARTER_IMAGE, MIRROR));
  assert.equal(spec.initializer?.image, `${MIRROR}/grafana/k6:1.4.2`);
  assert.equal(spec.runner?.image, `${MIRROR}/grafana/k6:1.4.2`);
  const values = linkerdControlPlaneValues({
    proxy: { cpu: '20m', memory: '32Mi', cpuLimit: '1', memoryLimit: '256Mi' },
    extra: linkerdMirrorValues(MIRROR),
  });
  for (const key of ['controllerImage', 'proxy.image.name', 'proxyInit.image.name', 'debugContainer.image.name'])
    assert.match(values[key] ?? '', /^mirror\.example\.com:5000\/hub\/linkerd\/[a-z-]+$/, key);
  assert.deepEqual(linkerdMirrorValues(undefined), {});
});

test('a registry with a scheme is a config error naming the field and the form expected', () => {
  assert.throws(
    () => config({ registry: 'https://mirror.example.com' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /kubernetes\.images\.registry: expected a registry host and optional path without a scheme/.test(error.message),
  );
});
