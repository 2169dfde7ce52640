// A/B arms in one cluster (issue 24), as a user runs them (the real CLI process) against the local
// control plane: a mode with arms whose namespaces differ in Linkerd's per-workload proxy
// annotations (config.linkerd.io/proxy-cpu-limit) comes up as two namespaces, `<mode>-base` and
// `<mode>-head`, each with its arm's annotation, its own echo server and client pod; a mode whose
// head arm runs another echo image (a new build of the app) deploys each arm's server with its
// own image, and one whose head arm runs the team's own server manifests applies them as written;
// with kubernetes.images.registry every workload image of the built-in server, both arms' included, comes
// from the mirror; `plan` shows both arms; `down` removes both and leaves someone else's namespace
// alone; an arm whose image cannot be pulled stops the run with exit 3 naming the pod and the
// image, and the run removes what it created. The mode is `existing`
// (a mesh the cluster already runs): the Linkerd CLI cannot be downloaded here, and the namespace
// setup is the same code for every mesh (unit-tested per mesh in platform-pieces.test.ts).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ClusterAccess, loadAccess, rawRequest } from '../../src/platform/kubernetes/access.ts';
import { runCli } from '../support/cli.ts';
import { type LocalCluster, startLocalCluster } from '../support/k8s/cluster.ts';
import { clusterSnapshot, randomName } from '../support/k8s/harness.ts';
import { NEVER_READY_ANNOTATION } from '../support/k8s/kwok-config.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const CPU_LIMIT = 'config.linkerd.io/proxy-cpu-limit';

let cluster: LocalCluster;
let access: ClusterAccess;
let dir: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  dir = mkdtempSync(join(tmpdir(), 'mesh-perf-arms-'));
});

after(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The real CLI as a user runs it, from the repository root. */
const cli = (args: string[]) => runCli(args, { cwd: REPO, timeoutMs: 5 * 60_000 });

type Namespace = { metadata: { labels: Record<string, string>; annotations: Record<string, string>; deletionTimestamp?: string } };

/** The namespace, or its HTTP status when there is none to read. */
async function namespace(name: string): Promise<{ code: number; found?: Namespace }> {
  const response = await rawRequest(access, `/api/v1/namespaces/${name}`);
  return response.status === 200 ? { code: 200, found: JSON.parse(response.body) as Namespace } : { code: response.status };
}

/**
 * A team's own server manifests, as an arm's serverManifests: the Service echo (what every mode's
 * client targets) and a Deployment echo with `image`, `labels` on it and its pods, and `annotations`
 * on its pods.
 */
function serverManifests(image: string, labels: Record<string, string>, annotations: Record<string, string> = {}): string {
  const podLabels = JSON.stringify({ app: 'echo', ...labels });
  return `apiVersion: v1
kind: Service
metadata: { name: echo }
spec:
  selector: { app: echo }
  ports: [{ name: http, port: 8080, targetPort: 8080 }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: echo, labels: ${JSON.stringify(labels)} }
spec:
  replicas: 1
  selector: { matchLabels: { app: echo } }
  template:
    metadata: { labels: ${podLabels}, annotations: ${JSON.stringify(annotations)} }
    spec:
      containers: [{ name: echo, image: ${image}, ports: [{ containerPort: 8080 }] }]
`;
}

test('arms in a cluster: two namespaces with each arm its own proxy annotation, both removed by down', { timeout: 600_000 }, async () => {
  const suite = randomName('arms');
  const prefix = randomName('mp');
  const config = join(dir, 'mesh-perf.yaml');
  // The head arm of "app" runs the team's own manifests (a new version of their Deployment).
  writeFileSync(join(dir, 'app-v2.yaml'), serverManifests('example.test/team/app:2.0.0', { version: 'v2' }));
  writeFileSync(
    config,
    `platform: kubeconfig
suite: ${suite}
modes:
  - name: baseline
    arms:
      head: { echoImage: example.test/team/echo:2.0.0 }
  - name: meshed
    mesh: existing
    namespaceAnnotations: { "${CPU_LIMIT}": "1" }
    arms:
      head:
        namespaceAnnotations: { "${CPU_LIMIT}": "2" }
  - name: app
    mesh: baseline
    arms:
      head: { serverManifests: ${join(dir, 'app-v2.yaml')} }
load: { rate: 10 }
kubernetes:
  kubeconfig: ${cluster.kubeconfigPath}
  namespacePrefix: ${prefix}
  readyTimeout: 2m
  images: { registry: mirror.example.test/hub }
`,
  );
  const plan = await cli(['plan', '--config', config]);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /A\/B: meshed-head against meshed-base on p50/);
  assert.match(plan.stdout, /A\/B: baseline-head against baseline-base on p50/);
  assert.match(plan.stdout, /head arm app-head: server manifests .*app-v2\.yaml/);
  assert.match(plan.stdout, /base arm app-base: server manifests \(the built-in echo server\)/);

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
  const up = await cli(['up', '--config', config]);
  assert.equal(up.code, 0, `${up.stderr}\n${up.stdout}`);
  for (const [side, limit] of [
    ['base', '1'],
    ['head', '2'],
  ] as const) {
    const ns = await namespace(`${prefix}-meshed-${side}`);
    assert.equal(ns.code, 200, `namespace of the ${side} arm`);
    assert.equal(ns.found!.metadata.annotations[CPU_LIMIT], limit, `${side} arm's proxy setting`);
    assert.equal(ns.found!.metadata.labels['mesh-perf.dev/mode'], `meshed-${side}`);
    const echo = await rawRequest(access, `/apis/apps/v1/namespaces/${prefix}-meshed-${side}/deployments/echo`);
    assert.equal(echo.status, 200, `the ${side} arm's echo server`);
    // Each arm on two pods (kubernetes.replicas' default with arms), spread over the nodes and drawn
    // toward the other arm's, so a node's speed is common to both arms.
    type PodTemplate = { topologySpreadConstraints?: { topologyKey: string }[]; affinity?: { podAffinity?: unknown } };
    const deployment = JSON.parse(echo.body) as { spec: { replicas: number; template: { spec: PodTemplate } } };
    assert.equal(deployment.spec.replicas, 2, `the ${side} arm's pods`);
    assert.equal(deployment.spec.template.spec.topologySpreadConstraints?.[0]?.topologyKey, 'kubernetes.io/hostname');
    assert.match(
      JSON.stringify(deployment.spec.template.spec.affinity?.podAffinity),
      new RegExp(`"mesh-perf.dev/arm":"${side === 'base' ? 'head' : 'base'}"`),
    );
  }
  // Both arms' pods stand on the same nodes. (Spreading one per node is a preference: echo pods
  // refuse the nodes of client pods, which leaves one of this cluster's two nodes.)
  const nodesOf = async (namespace: string) => {
    const pods = JSON.parse((await rawRequest(access, `/api/v1/namespaces/${namespace}/pods?labelSelector=app%3Decho`)).body) as {
      items: { spec: { nodeName?: string } }[];
    };
    return pods.items.map((p) => p.spec.nodeName ?? '').sort();
  };
  const [baseNodes, headNodes] = [await nodesOf(`${prefix}-meshed-base`), await nodesOf(`${prefix}-meshed-head`)];
  assert.equal(baseNodes.length, 2);
  assert.deepEqual(baseNodes, headNodes, 'both arms on the same nodes');
  // Each arm's server runs its own image; every workload image comes from the mirror.
  type Spec = { containers: { image: string }[] };
  const images = async (path: string) => {
    const response = await rawRequest(access, path);
    assert.equal(response.status, 200, path);
    const object = JSON.parse(response.body) as { spec: Spec & { template?: { spec: Spec } } };
    return (object.spec.template?.spec ?? object.spec).containers.map((c) => c.image);
  };
  const echoImages = (arm: string) => images(`/apis/apps/v1/namespaces/${prefix}-${arm}/deployments/echo`);
  assert.deepEqual(await echoImages('baseline-base'), ['mirror.example.test/hub/fortio/fortio:1.69.4']);
  assert.deepEqual(await echoImages('baseline-head'), ['mirror.example.test/hub/team/echo:2.0.0']);
  assert.deepEqual(await echoImages('meshed-head'), ['mirror.example.test/hub/fortio/fortio:1.69.4']);
  // An arm's own manifests are applied as written (no mirror: the team's image, the team's labels).
  assert.deepEqual(await echoImages('app-base'), ['mirror.example.test/hub/fortio/fortio:1.69.4']);
  assert.deepEqual(await echoImages('app-head'), ['example.test/team/app:2.0.0']);
  const v2 = await rawRequest(access, `/apis/apps/v1/namespaces/${prefix}-app-head/deployments/echo`);
  assert.equal(JSON.parse(v2.body).metadata.labels.version, 'v2');
  for (const arm of ['baseline-base', 'baseline-head', 'meshed-base', 'meshed-head', 'app-base', 'app-head'])
    for (const image of await images(`/api/v1/namespaces/${prefix}-${arm}/pods/mesh-perf-client`))
      assert.match(image, /^mirror\.example\.test\/hub\/grafana\/k6:/, `${arm}'s client`);

  const down = await cli(['down', '--config', config]);
  assert.equal(down.code, 0, down.stderr);
  for (const side of ['meshed-base', 'meshed-head', 'baseline-base', 'baseline-head', 'app-base', 'app-head']) {
    const ns = await namespace(`${prefix}-${side}`);
    // Deleted, or still terminating: either way marked for deletion by down.
    assert.ok(ns.code === 404 || ns.found?.metadata.deletionTimestamp, `${side}: ${ns.code}`);
  }
  assert.equal((await namespace('payments')).code, 200, 'a namespace that is not ours survives');
});

test('an arm whose image cannot be pulled: the run stops within the readiness timeout, exit 3 naming the pod and the image, and removes everything it created', {
  timeout: 480_000,
}, async () => {
  const suite = randomName('pull');
  const prefix = randomName('mp');
  const config = join(dir, 'unpullable.yaml');
  // The head arm's own Deployment: its pods carry the annotation that makes the emulated kubelet
  // report ImagePullBackOff, as a real one does for an image the cluster cannot pull.
  writeFileSync(
    join(dir, 'app-broken.yaml'),
    serverManifests('registry.invalid/team/app:broken', {}, { [NEVER_READY_ANNOTATION]: 'true' }),
  );
  writeFileSync(
    config,
    `platform: kubeconfig
suite: ${suite}
modes:
  - name: app
    mesh: baseline
    arms:
      head: { serverManifests: ${join(dir, 'app-broken.yaml')} }
load: { rate: 10, duration: 2s, warmup: 0s }
kubernetes:
  kubeconfig: ${cluster.kubeconfigPath}
  namespacePrefix: ${prefix}
  readyTimeout: 90s
`,
  );
  const before = await clusterSnapshot(access);
  const started = Date.now();
  const run = await cli(['run', '--config', config, '--out', join(dir, 'unpullable-out')]);
  const seconds = (Date.now() - started) / 1000;
  assert.equal(run.code, 3, `${run.stderr}\n${run.stdout}`);
  const said = run.stderr.replace(/\s+/g, ' ');
  assert.match(said, new RegExp(`in namespace ${prefix}-app-head did not become ready within 90s`), 'names the arm');
  assert.match(said, /pod echo-[a-z0-9]+-[a-z0-9]+: Pending/, 'names the pod');
  assert.match(said, /ImagePullBackOff/);
  assert.match(said, /registry\.invalid\/team\/app:broken/, 'names the image');
  assert.ok(seconds < 330, `stopped within the readiness timeout and the cleanup (${seconds.toFixed(0)} s)`);
  assert.deepEqual(await clusterSnapshot(access), before, 'nothing the run created is left');
});
