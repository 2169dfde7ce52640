// `mesh-perf up` and `mesh-perf down` as a user runs them (the real CLI process) against the
// local control plane, with modes baseline and istio-ambient: up installs Istio's ambient
// profile with a real istioctl (built from the Go module proxy), creates labelled namespaces,
// rolls out the echo servers and k6 client pods; down leaves no namespace, cluster-scoped
// object or webhook behind. A namespace that is not ours survives both. The run names a registry
// mirror (kubernetes.images.registry): every image up deploys, istioctl's istiod, ztunnel and CNI
// included, names the mirror (kwok pulls nothing, so the image fields are what is checked). With kubernetes.ingress,
// up also deploys the ingress gateway (Gateway, options ConfigMap, TLS Secret, HTTPRoutes; an
// istiod stand-in adds the Deployment and Service istiod would), and down removes all of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { localIstioctl } from '../support/k8s/tools.ts';
import { clusterSnapshot, objectNames, randomName } from '../support/k8s/harness.ts';
import { istiodStandIn } from '../support/k8s/istiod-stand-in.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { CLUSTER_SCOPED_PATHS } from '../../src/platform/kubernetes/mesh/cleanup.ts';
import { GATEWAY_DEPLOYMENT, GATEWAY_NAME, GATEWAY_OPTIONS, GATEWAY_TLS_SECRET } from '../../src/platform/kubernetes/ingress.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

let cluster: LocalCluster;
let access: ClusterAccess;
let dir: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  dir = mkdtempSync(join(tmpdir(), 'mesh-perf-updown-'));
});

after(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: REPO,
      env: { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 8 * 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function get(path: string): Promise<any> {
  const response = await rawRequest(access, path);
  assert.equal(response.status, 200, `${path}: ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

test('up deploys baseline and istio-ambient with the real istioctl; down removes everything it made', async () => {
  const suite = randomName('updown');
  const prefix = randomName('mp');
  const config = join(dir, 'mesh-perf.yaml');
  writeFileSync(
    config,
    `platform: kubeconfig
suite: ${suite}
modes:
  - name: baseline
  - name: istio-ambient
load: { rate: 10 }
kubernetes:
  kubeconfig: ${cluster.kubeconfigPath}
  namespacePrefix: ${prefix}
  readyTimeout: 3m
  images: { registry: mirror.example.test/hub }
`,
  );
  // Someone else's namespace: must be untouched by up and down.
  assert.equal(
    (
      await rawRequest(access, '/api/v1/namespaces', {
        method: 'POST',
        contentType: 'application/json',
        body: JSON.stringify({ metadata: { name: 'payments' } }),
      })
    ).status,
    201,
  );
  const before = await clusterSnapshot(access);

  const up = await cli(['up', '--config', config]);
  assert.equal(up.code, 0, up.stderr);
  assert.match(up.stdout, new RegExp(`baseline\\s+namespace ${prefix}-baseline`));
  assert.match(up.stdout, new RegExp(`istio-ambient\\s+namespace ${prefix}-istio-ambient`));

  const ambient = await get(`/api/v1/namespaces/${prefix}-istio-ambient`);
  assert.equal(ambient.metadata.labels['app.kubernetes.io/managed-by'], 'mesh-perf');
  assert.equal(ambient.metadata.labels['mesh-perf.dev/suite'], suite);
  assert.equal(ambient.metadata.labels['mesh-perf.dev/mode'], 'istio-ambient');
  assert.equal(ambient.metadata.labels['istio.io/dataplane-mode'], 'ambient');
  const baseline = await get(`/api/v1/namespaces/${prefix}-baseline`);
  assert.equal(baseline.metadata.labels['istio.io/dataplane-mode'], undefined);
  // Istio's ambient profile, installed by istioctl: istiod, ztunnel, CNI, the injector webhook.
  const istiod = await get('/apis/apps/v1/namespaces/istio-system/deployments/istiod');
  assert.ok(istiod.status.readyReplicas >= 1);
  await get('/apis/apps/v1/namespaces/istio-system/daemonsets/ztunnel');
  await get('/apis/apps/v1/namespaces/istio-system/daemonsets/istio-cni-node');
  const peer = await get('/apis/security.istio.io/v1/namespaces/istio-system/peerauthentications/default');
  assert.equal(peer.spec.mtls.mode, 'STRICT');
  const webhooks = await objectNames(access, '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations');
  assert.ok(
    webhooks.some((w) => w.startsWith('istio')),
    `webhooks: ${webhooks.join(', ')}`,
  );
  for (const mode of ['baseline', 'istio-ambient']) {
    const echo = await get(`/apis/apps/v1/namespaces/${prefix}-${mode}/deployments/echo`);
    assert.equal(echo.status.readyReplicas, 1);
    const client = await get(`/api/v1/namespaces/${prefix}-${mode}/pods/mesh-perf-client`);
    assert.equal(client.status.phase, 'Running');
  }
  // Every container of every pod up made (Istio's, the echo servers', the clients') through the mirror.
  const images = (await get('/api/v1/pods')).items.flatMap((pod: any) =>
    [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map(
      (c: any) => `${pod.metadata.namespace}/${pod.metadata.name}: ${c.image}`,
    ),
  );
  assert.ok(
    images.some((i: string) => i.startsWith('istio-system/istiod')),
    images.join('\n'),
  );
  assert.ok(
    images.some((i: string) => i.startsWith('istio-system/ztunnel')),
    images.join('\n'),
  );
  for (const image of images) assert.match(image, /: mirror\.example\.test\/hub\//);
  const grown = await clusterSnapshot(access);
  assert.ok(
    grown['/apis/apiextensions.k8s.io/v1/customresourcedefinitions']!.length >
      before['/apis/apiextensions.k8s.io/v1/customresourcedefinitions']!.length,
    'Istio CRDs were installed',
  );

  const down = await cli(['down', '--config', config]);
  assert.equal(down.code, 0, down.stderr);
  assert.match(down.stdout, /meshes: istio/);
  assert.deepEqual(await clusterSnapshot(access), before, 'nothing up created is left');
  assert.equal((await get('/api/v1/namespaces/payments')).metadata.name, 'payments');

  const again = await cli(['down', '--config', config]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, new RegExp(`Nothing of suite "${suite}" found`));
});

/** Namespaced kinds an ingress run creates (or istiod creates for it), listed across namespaces. */
const NAMESPACED_PATHS = [
  '/api/v1/namespaces',
  '/api/v1/pods',
  '/api/v1/services',
  '/api/v1/secrets',
  '/api/v1/configmaps',
  '/api/v1/serviceaccounts',
  '/apis/apps/v1/deployments',
  '/apis/gateway.networking.k8s.io/v1/gateways',
  '/apis/gateway.networking.k8s.io/v1/httproutes',
];

test('up with an ingress gateway, then down: the gateway and everything labelled by the run are gone', async () => {
  const suite = randomName('ingress-down');
  const prefix = randomName('mp');
  const config = join(dir, 'ingress.yaml');
  writeFileSync(
    config,
    `platform: kubeconfig
suite: ${suite}
modes:
  - name: baseline
load: { rate: 10 }
kubernetes:
  kubeconfig: ${cluster.kubeconfigPath}
  namespacePrefix: ${prefix}
  readyTimeout: 3m
  ingress: { replicas: 2, tls: true }
`,
  );
  const before = await clusterSnapshot(access);
  const ingressNs = `${prefix}-ingress`;
  const standIn = istiodStandIn(access, ingressNs, { service: true });
  const up = await cli(['up', '--config', config]);
  standIn.stop();
  assert.equal(up.code, 0, up.stderr);
  assert.match(up.stdout, new RegExp(`ingress gateway\\s+namespace ${ingressNs} \\(Gateway ${GATEWAY_NAME}, 2 pods, HTTPS\\)`));
  const runId = /Deployed run (\S+)/.exec(up.stdout)![1]!;
  const runLabel = `mesh-perf.dev/run-id=${runId}`;

  // What up and the gateway controller made: all of it is there before down.
  const made = [
    `/apis/gateway.networking.k8s.io/v1/namespaces/${ingressNs}/gateways/${GATEWAY_NAME}`,
    `/api/v1/namespaces/${ingressNs}/configmaps/${GATEWAY_OPTIONS}`,
    `/api/v1/namespaces/${ingressNs}/secrets/${GATEWAY_TLS_SECRET}`,
    `/apis/apps/v1/namespaces/${ingressNs}/deployments/${GATEWAY_DEPLOYMENT}`,
    `/api/v1/namespaces/${ingressNs}/services/${GATEWAY_DEPLOYMENT}`,
    `/api/v1/namespaces/${ingressNs}/pods/mesh-perf-client`,
    `/apis/gateway.networking.k8s.io/v1/namespaces/${prefix}-baseline/httproutes/${GATEWAY_NAME}-baseline`,
  ];
  for (const path of made) await get(path);
  const labelled = async () => {
    const found: string[] = [];
    for (const path of [...NAMESPACED_PATHS, ...CLUSTER_SCOPED_PATHS])
      found.push(...(await objectNames(access, `${path}?labelSelector=${encodeURIComponent(runLabel)}`)).map((n) => `${path}: ${n}`));
    return found;
  };
  const beforeDown = await labelled();
  for (const kind of ['namespaces', 'secrets', 'configmaps', 'gateways', 'httproutes'])
    assert.ok(
      beforeDown.some((l) => l.includes(`/${kind}: `)),
      `up labelled its ${kind} with the run: ${beforeDown.join(', ')}`,
    );

  const down = await cli(['down', '--config', config]);
  assert.equal(down.code, 0, down.stderr);
  assert.match(down.stdout, new RegExp(ingressNs));
  for (const path of made) assert.equal((await rawRequest(access, path)).status, 404, `${path} is gone`);
  assert.deepEqual(await labelled(), [], `nothing labelled ${runLabel} is left`);
  assert.deepEqual(await clusterSnapshot(access), before, 'nothing up created is left');
  for (const output of [up.stdout, up.stderr, down.stdout, down.stderr]) assert.doesNotMatch(output, /PRIVATE KEY|BEGIN CERTIFICATE/);
});
