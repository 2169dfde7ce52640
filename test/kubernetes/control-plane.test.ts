// Against a real kube-apiserver (+ etcd, controller manager, scheduler, kwok as the kubelet):
// server-side apply of the built-in manifests, explicit rollout waits and the message when a
// rollout never completes, namespace ownership and refusal, missing RBAC, the exec path k6 runs
// through, and the kubelet resource-metrics path.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { NEVER_READY_ANNOTATION } from '../support/k8s/kwok-config.ts';
import { clusterConfig, randomName, recordingLogger } from '../support/k8s/harness.ts';
import { gatewayApiZip } from '../support/k8s/tools.ts';
import { FAKE_NODE_NET } from '../support/k8s/egress-proxy.ts';
import { freePort } from '../../src/util/net.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { Applier, parseManifests } from '../../src/platform/kubernetes/apply.ts';
import { claimNamespace, deleteNamespaces, ownerLabels, suiteSelector } from '../../src/platform/kubernetes/ownership.ts';
import { podTarget, rolloutTarget, waitReady } from '../../src/platform/kubernetes/wait.ts';
import { renderWorkload } from '../../src/platform/kubernetes/workloads.ts';
import { execInPod, uploadFile } from '../../src/platform/kubernetes/exec.ts';
import { InClusterK6Runner } from '../../src/platform/kubernetes/k6-runner.ts';
import { KubeletResourceSampler } from '../../src/platform/kubernetes/resources/kubelet-sampler.ts';
import { EnvironmentError } from '../../src/util/errors.ts';

// Emulated usage per container name (kwok ClusterResourceUsage); the sampler must report these.
const USAGE = {
  echo: { cpu: '12m', memory: '20Mi' },
  k6: { cpu: '40m', memory: '64Mi' },
  'istio-proxy': { cpu: '30m', memory: '48Mi' },
  default: { cpu: '2m', memory: '8Mi' },
};

let cluster: LocalCluster;
let access: ClusterAccess;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2, usage: USAGE });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
});

after(async () => {
  await cluster?.stop();
});

async function deployWorkload(replicas = 2) {
  const config = clusterConfig(cluster, { kubernetes: { replicas } });
  const runId = randomName('run');
  const namespace = randomName('ws');
  await claimNamespace(access, { name: namespace, suite: config.suite, runId });
  const workload = renderWorkload(config, process.cwd());
  const applier = new Applier(access);
  const labels = ownerLabels(config.suite, runId);
  await applier.apply(workload.client, { namespace, labels });
  await waitReady(access, podTarget(namespace, workload.clientPod), 60_000);
  await applier.apply(workload.server, { namespace, labels });
  await waitReady(access, rolloutTarget('Deployment', namespace, 'echo', 'app=echo'), 60_000);
  return { config, runId, namespace, workload, applier, labels };
}

async function getJson(path: string): Promise<any> {
  const response = await rawRequest(access, path);
  assert.equal(response.status, 200, `${path}: ${response.body.slice(0, 200)}`);
  return JSON.parse(response.body);
}

test('server-side apply of every built-in manifest, labelled, converging on re-apply; rollouts waited for', async () => {
  const { namespace, workload, applier, labels, config } = await deployWorkload(2);
  const deployment = await getJson(`/apis/apps/v1/namespaces/${namespace}/deployments/echo`);
  assert.equal(deployment.metadata.labels['app.kubernetes.io/managed-by'], 'mesh-perf');
  assert.equal(deployment.status.readyReplicas, 2);
  assert.equal(deployment.spec.template.spec.containers[0].image, config.kubernetes.images.echo);
  assert.ok(
    deployment.metadata.managedFields.some(
      (f: { manager: string; operation: string }) => f.manager === 'mesh-perf' && f.operation === 'Apply',
    ),
    'server-side apply field manager',
  );
  const service = await getJson(`/api/v1/namespaces/${namespace}/services/echo`);
  assert.deepEqual(
    service.spec.ports.map((p: { port: number }) => p.port),
    [8080, 8079],
  );
  const client = await getJson(`/api/v1/namespaces/${namespace}/pods/${workload.clientPod}`);
  const echoPods = (await getJson(`/api/v1/namespaces/${namespace}/pods?labelSelector=app%3Decho`)).items;
  assert.equal(echoPods.length, 2);
  for (const pod of echoPods) assert.notEqual(pod.spec.nodeName, client.spec.nodeName, 'anti-affinity keeps echo pods off the client node');
  // Re-applying the same manifests changes nothing.
  const before = deployment.metadata.resourceVersion;
  await applier.apply(workload.server, { namespace, labels });
  assert.equal((await getJson(`/apis/apps/v1/namespaces/${namespace}/deployments/echo`)).metadata.resourceVersion, before);
});

test("server-side apply sends each object as written: a CRD's x-kubernetes-* schema keys are kept (Linkerd's Server CRD was rejected without them)", async () => {
  // Linkerd's policy CRDs (servers.policy.linkerd.io: `port` is int-or-string) as `linkerd install
  // --crds` renders them; the typed client's serializer dropped every x-kubernetes-* key of a
  // schema, which made this CRD invalid (HTTP 422 "type: Required value") and silently stripped
  // other CRDs' validation rules.
  const group = `${randomName('crd')}.mesh-perf.test`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `servers.${group}` },
    spec: {
      group,
      names: { kind: 'Server', plural: 'servers', singular: 'server', listKind: 'ServerList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1beta1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': [{ rule: 'has(self.port)', message: 'a port is required' }],
                  properties: {
                    port: { description: 'A port name or number.', 'x-kubernetes-int-or-string': true },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
  const applier = new Applier(access);
  await applier.apply([crd as never], { labels: { 'mesh-perf.dev/test': 'crd' } });
  try {
    const stored = await getJson(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/servers.${group}`);
    const spec = stored.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    assert.equal(spec.properties.port['x-kubernetes-int-or-string'], true);
    assert.equal(spec.properties.extra['x-kubernetes-preserve-unknown-fields'], true);
    assert.deepEqual(spec['x-kubernetes-validations'], [{ rule: 'has(self.port)', message: 'a port is required' }]);
    assert.equal(stored.metadata.labels['mesh-perf.dev/test'], 'crd');
    // A re-apply converges (same field manager), and an object of that kind is served.
    await applier.apply([crd as never], { labels: { 'mesh-perf.dev/test': 'crd' } });
    const [server] = await applier.apply(
      [{ apiVersion: `${group}/v1beta1`, kind: 'Server', metadata: { name: 'echo' }, spec: { port: 'http', extra: { any: 1 } } } as never],
      { namespace: 'default' },
    );
    assert.equal((server as { spec: { port: string } }).spec.port, 'http');
  } finally {
    await rawRequest(access, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/servers.${group}`, { method: 'DELETE' });
  }
});

test('a rollout that never completes fails with the pods, their waiting reason and the events', async () => {
  const runId = randomName('run');
  const namespace = randomName('stuck');
  await claimNamespace(access, { name: namespace, suite: 's', runId });
  const [deployment] = parseManifests(
    `apiVersion: apps/v1
kind: Deployment
metadata: { name: never }
spec:
  replicas: 1
  selector: { matchLabels: { app: never } }
  template:
    metadata: { labels: { app: never }, annotations: { ${NEVER_READY_ANNOTATION}: "true" } }
    spec: { containers: [{ name: app, image: "registry.invalid/nothing:1" }] }
`,
    'inline',
  );
  await new Applier(access).apply([deployment!], { namespace });
  // Let the emulated kubelet report the pull failure first, so the message has it to show.
  for (let i = 0; i < 240; i++) {
    const pods = (await getJson(`/api/v1/namespaces/${namespace}/pods?labelSelector=app%3Dnever`)).items;
    if (pods[0]?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ImagePullBackOff') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  await assert.rejects(waitReady(access, rolloutTarget('Deployment', namespace, 'never', 'app=never'), 4000), (error: unknown) => {
    assert.ok(error instanceof EnvironmentError);
    assert.match(error.message, new RegExp(`Deployment never in namespace ${namespace} did not become ready within 4s`));
    assert.match(
      error.message,
      /pod never-[a-z0-9]+-[a-z0-9]+: Pending; app waiting: ImagePullBackOff: Back-off pulling image registry\.invalid\/nothing:1/,
    );
    return true;
  });
});

test('namespace ownership: created with labels, reused by the same run, refused when foreign or another run’s', async () => {
  const suite = randomName('s');
  const name = randomName('own');
  assert.equal(await claimNamespace(access, { name, suite, runId: 'r1', labels: { 'istio-injection': 'enabled' } }), 'created');
  const created = await getJson(`/api/v1/namespaces/${name}`);
  assert.deepEqual(
    { ...created.metadata.labels, 'kubernetes.io/metadata.name': undefined },
    {
      'app.kubernetes.io/managed-by': 'mesh-perf',
      'mesh-perf.dev/suite': suite,
      'mesh-perf.dev/run-id': 'r1',
      'istio-injection': 'enabled',
      'kubernetes.io/metadata.name': undefined,
    },
  );
  assert.equal(await claimNamespace(access, { name, suite, runId: 'r1' }), 'existing');
  await assert.rejects(
    claimNamespace(access, { name, suite, runId: 'r2' }),
    /belongs to another mesh-perf run \(mesh-perf\.dev\/run-id=r1\).*mesh-perf down --config FILE/s,
  );

  const foreign = randomName('foreign');
  const response = await rawRequest(access, '/api/v1/namespaces', {
    method: 'POST',
    contentType: 'application/json',
    body: JSON.stringify({ metadata: { name: foreign, labels: { team: 'payments' } } }),
  });
  assert.equal(response.status, 201);
  await assert.rejects(claimNamespace(access, { name: foreign, suite, runId: 'r1' }), (error: unknown) => {
    assert.ok(error instanceof EnvironmentError);
    assert.match(error.message, new RegExp(`namespace ${foreign} already exists and is not managed by mesh-perf`));
    return true;
  });
  // Removing the suite deletes ours and never the foreign namespace.
  assert.deepEqual(await deleteNamespaces(access, suiteSelector(suite), 60_000), [name]);
  assert.equal((await rawRequest(access, `/api/v1/namespaces/${name}`)).status, 404);
  const kept = await getJson(`/api/v1/namespaces/${foreign}`);
  assert.equal(kept.metadata.labels.team, 'payments');
  await assert.rejects(deleteNamespaces(access, 'team=payments', 1000), /refusing to delete namespaces by a selector without/);
});

test('missing RBAC names the verb and the resource', async () => {
  // A user the CA signed but no role binds: authenticated, authorised for nothing.
  const dir = cluster.dir;
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'nobody.key']);
  run(['req', '-new', '-key', 'nobody.key', '-subj', '/CN=nobody', '-out', 'nobody.csr']);
  run(['x509', '-req', '-in', 'nobody.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-out', 'nobody.crt']);
  const admin = readFileSync(cluster.kubeconfigPath, 'utf8');
  const b64 = (f: string) => readFileSync(join(dir, f)).toString('base64');
  const nobody = admin
    .replace(/client-certificate-data: .*/, `client-certificate-data: ${b64('nobody.crt')}`)
    .replace(/client-key-data: .*/, `client-key-data: ${b64('nobody.key')}`);
  const path = join(dir, 'nobody.kubeconfig');
  writeFileSync(path, nobody, { mode: 0o600 });
  const weak = loadAccess({ kubeconfig: path });
  await assert.rejects(claimNamespace(weak, { name: randomName('rbac'), suite: 's', runId: 'r' }), (error: unknown) => {
    assert.ok(error instanceof EnvironmentError);
    assert.match(
      error.message,
      /missing permission: the API server refused to get namespaces\/rbac-[0-9a-f]+ \(HTTP 403: .*"nobody".*\)\. Grant the kubeconfig's user the "get" verb on namespaces/,
    );
    return true;
  });
});

test('exec path: k6 runs in the client pod, progress streams back, the summary is read with cat', async () => {
  const { namespace, workload } = await deployWorkload(1);
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const pod = { namespace, pod: workload.clientPod, container: workload.clientContainer };
    const runner = new InClusterK6Runner(access, () => pod);
    assert.match(await runner.version(), /^\d+\.\d+\.\d+$/);
    const script = `import http from 'k6/http';
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '3s', preAllocatedVUs: 2 } } };
export default function () { http.get(__ENV.TARGET); }
export function handleSummary(data) { return { 'summary.json': JSON.stringify({ reqs: data.metrics.http_reqs.values.count, mode: __ENV.MESH_PERF_MODE }), 'extra.txt': 'hello' }; }
`;
    const progress: { elapsedS: number; requests?: number }[] = [];
    const outcome = await runner.run(
      {
        files: { 'test.js': script },
        entry: 'test.js',
        args: [],
        env: { TARGET: url, MESH_PERF_MODE: 'baseline' },
        summaryFile: 'summary.json',
        expectedSeconds: 3,
      },
      (p) => progress.push(p),
      new AbortController().signal,
    );
    assert.equal(outcome.exitCode, 0, outcome.stderrTail);
    const summary = JSON.parse(outcome.summary!);
    assert.equal(summary.mode, 'baseline', '-e values reach __ENV');
    assert.equal(summary.reqs, hits, 'every request k6 counted reached the server');
    assert.ok(hits >= 40, `hits ${hits}`);
    assert.deepEqual(outcome.extraFiles, { 'extra.txt': 'hello' });
    assert.ok(progress.length > 0 && progress.at(-1)!.requests! > 0, 'progress lines parsed');

    const failing = await runner.run(
      {
        files: { 'bad.js': 'throw new Error("boom at init");\nexport default function () {}\n' },
        entry: 'bad.js',
        args: [],
        env: {},
        summaryFile: 'summary.json',
        expectedSeconds: 1,
      },
      () => {},
      new AbortController().signal,
    );
    assert.equal(failing.exitCode, 107, 'k6 script exception exit code survives the exec path');
    assert.equal(failing.summary, undefined);
    assert.match(failing.stderrTail, /boom at init/);

    // Larger than one upload chunk, read back byte for byte.
    const big = `${'x'.repeat(150_000)}é\n`;
    const path = `/tmp/mesh-perf-k6/${randomName('big')}/f.txt`;
    await uploadFile(access, pod, path, big);
    const cat = await execInPod(access, pod, ['cat', path]);
    assert.equal(cat.stdout, big);
    await execInPod(access, pod, ['rm', '-rf', path.replace(/\/f\.txt$/, '')]);
  } finally {
    server.close();
  }
});

test('resource metrics path: kubelet /metrics/resource through the node proxy, grouped and per 1000 rps', async () => {
  const { namespace, config } = await deployWorkload(2);
  const log = recordingLogger();
  const sampler = new KubeletResourceSampler(access, { intervalMs: 300, modeNamespaces: { baseline: namespace }, meshNamespaces: [], log });
  sampler.start('baseline');
  await new Promise((r) => setTimeout(r, 2000));
  const usage = await sampler.stop(500);
  assert.deepEqual(
    log.lines.filter((l) => l.startsWith('WARN')),
    [],
  );
  const byGroup = Object.fromEntries(usage.map((u) => [u.group, u]));
  assert.deepEqual(Object.keys(byGroup).sort(), ['app', 'client']);
  const replicas = config.kubernetes.replicas;
  assert.equal(byGroup.app!.scope, 'baseline');
  assert.equal(byGroup.app!.memoryMiB.avg, 20 * replicas, 'two echo pods at 20Mi each');
  assert.equal(byGroup.client!.memoryMiB.max, 64);
  // Emulated CPU is steady; the rate between scrapes matches it within scrape-timing noise.
  assert.ok(
    Math.abs(byGroup.app!.cpuMillicores.avg - 12 * replicas) < 12 * replicas * 0.25,
    `app cpu ${JSON.stringify(byGroup.app!.cpuMillicores)}`,
  );
  assert.ok(Math.abs(byGroup.client!.cpuMillicores.avg - 40) < 10, `client cpu ${JSON.stringify(byGroup.client!.cpuMillicores)}`);
  assert.ok(byGroup.app!.samples >= 3);
  assert.equal(byGroup.app!.cpuPer1000Rps, Math.round((byGroup.app!.cpuMillicores.avg / 0.5) * 1000) / 1000);
  assert.equal(byGroup.client!.memoryMiBPer1000Rps, Math.round((byGroup.client!.memoryMiB.avg / 0.5) * 1000) / 1000);
});

test('one sampler serves every repetition of a run: a window too short for CPU is said once per mode, not once per repetition', async () => {
  const { namespace } = await deployWorkload(1);
  const log = recordingLogger();
  const sampler = new KubeletResourceSampler(access, {
    intervalMs: 300,
    modeNamespaces: { baseline: namespace, sidecar: namespace },
    meshNamespaces: [],
    log,
  });
  for (const mode of ['baseline', 'baseline', 'sidecar', 'sidecar']) {
    sampler.start(mode);
    await new Promise((r) => setTimeout(r, 900));
    // A measured window of 50 ms holds no two kubelet samples.
    const now = Date.now();
    await sampler.stop(500, { startMs: now - 50, endMs: now });
  }
  const tooShort = log.lines.filter((l) => l.includes('held fewer than the two kubelet samples'));
  assert.equal(tooShort.length, 2, log.lines.join('\n'));
  assert.match(tooShort[0]!, /mode baseline: the measured window \(0\.1 s\)/);
  assert.match(tooShort[1]!, /mode sidecar: /);
});

test('a node whose kubelet never answers is named in a warning; the other nodes still give usage', async () => {
  const { namespace } = await deployWorkload(1);
  // A node object no kwok serves: its address leads to a closed port, so the node proxy fails.
  const ghost = randomName('ghost-node');
  const closedPort = await freePort();
  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: ghost },
    spec: { unschedulable: true, taints: [{ key: 'mesh-perf.test/ghost', effect: 'NoSchedule' }] },
  };
  assert.equal(
    (await rawRequest(access, '/api/v1/nodes', { method: 'POST', body: JSON.stringify(node), contentType: 'application/json' })).status,
    201,
  );
  try {
    const status = {
      status: {
        addresses: [{ type: 'InternalIP', address: `${FAKE_NODE_NET}99` }],
        daemonEndpoints: { kubeletEndpoint: { Port: closedPort } },
      },
    };
    const patched = await rawRequest(access, `/api/v1/nodes/${ghost}/status`, {
      method: 'PATCH',
      body: JSON.stringify(status),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 200, patched.body);
    const log = recordingLogger();
    const sampler = new KubeletResourceSampler(access, {
      intervalMs: 300,
      modeNamespaces: { baseline: namespace },
      meshNamespaces: [],
      log,
    });
    sampler.start('baseline');
    await new Promise((r) => setTimeout(r, 1500));
    const usage = await sampler.stop(500);
    const warnings = log.lines.filter((l) => l.startsWith('WARN'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0]!,
      new RegExp(`node ${ghost} unavailable during mode baseline \\(node ${ghost}: .+\\); containers on that node are missing`),
    );
    const app = usage.find((u) => u.group === 'app');
    assert.equal(app?.memoryMiB.avg, 20, JSON.stringify(usage));
    // The silent node is asked once per scrape, not retried, so the others keep their pace.
    assert.ok(app!.samples >= 3, `samples ${app!.samples}`);
  } finally {
    await rawRequest(access, `/api/v1/nodes/${ghost}`, { method: 'DELETE' });
  }
});

test('Gateway API CRDs from the pinned module zip: applied with our labels, kept when present, removed by label', async () => {
  const { ensureGatewayApi, GATEWAY_CRD, standardCrdDocuments } = await import('../../src/platform/kubernetes/mesh/gateway-api.ts');
  const { deleteLabelledClusterObjects } = await import('../../src/platform/kubernetes/mesh/cleanup.ts');
  gatewayApiZip(); // cached by scripts/k8s/build.sh; fails with the command to run when missing
  const config = clusterConfig(cluster);
  const context = {
    access,
    applier: new Applier(access),
    config,
    flags: {},
    log: recordingLogger(),
    signal: new AbortController().signal,
    ownerLabels: ownerLabels(config.suite, 'gw-run'),
    readyTimeoutMs: 60_000,
  };
  assert.deepEqual(await ensureGatewayApi(context), { version: `v${config.kubernetes.gatewayApi.version}`, installed: true });
  const crd = await getJson(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${GATEWAY_CRD}`);
  assert.equal(crd.metadata.labels['mesh-perf.dev/component'], 'gateway-api');
  // Every validation rule arrives as written (the typed client's serializer dropped 10 of its 16).
  const rules = (value: unknown): string[] =>
    value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, v]) =>
          key === 'x-kubernetes-validations' ? (v as { rule: string }[]).map((r) => r.rule) : rules(v),
        )
      : [];
  const sorted = (list: string[]) => [...list].sort();
  const written = parseManifests(
    standardCrdDocuments(readFileSync(gatewayApiZip()), config.kubernetes.gatewayApi.version).find((d) =>
      d.includes(`name: ${GATEWAY_CRD}`),
    )!,
    'gateway CRD',
  )[0] as unknown as { spec: { versions: unknown } };
  assert.ok(rules(written.spec.versions).length > 0);
  assert.deepEqual(sorted(rules(crd.spec.versions)), sorted(rules(written.spec.versions)));
  assert.ok(crd.status.conditions.some((c: { type: string; status: string }) => c.type === 'Established' && c.status === 'True'));
  const second = await ensureGatewayApi(context);
  assert.equal(second.installed, false, 'already present: left as is');
  const deleted = await deleteLabelledClusterObjects(access, `app.kubernetes.io/managed-by=mesh-perf,mesh-perf.dev/run-id=gw-run`);
  assert.ok(deleted.includes(`customresourcedefinitions/${GATEWAY_CRD}`), deleted.join(', '));
  // One read: the CRD is either gone (404) or carries its deletion timestamp. (Two reads raced:
  // the first saw it being deleted, the second got the 404 Status and looked for its metadata.)
  const after = await rawRequest(access, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${GATEWAY_CRD}`);
  assert.ok(
    after.status === 404 || (after.status === 200 && JSON.parse(after.body).metadata.deletionTimestamp !== undefined),
    `deleted or being deleted: HTTP ${after.status}`,
  );
});
