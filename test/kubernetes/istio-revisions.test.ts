// Two Istio revisions side by side (issue 24), as a user runs them (the real CLI process and the
// real istioctl, built from the Go module proxy) against the local control plane: an
// istio-sidecar mode whose arms differ in their Istio settings comes up with each arm's own
// control plane (istioctl install --revision: istiod-<revision> with the arm's hub and values) and
// each arm's namespace labelled istio.io/rev with its revision, so the real API server sends each
// arm's pods to its own revision's injection webhook (an injector stand-in answers for the
// emulated istiods and records which webhook was called for which namespace). An istio-waypoint
// mode's arms each get their own revision too, their waypoints applied with --revision over the
// run's ztunnel (a waypoint stand-in deploys and programs them, as istiod would). `down` removes
// every control plane and everything else up made. With kubernetes.ingress each arm enters through
// its own revision's Gateway (labelled istio.io/rev; an istiod stand-in deploys each). A revision name someone else's Istio already uses,
// and an Istio in istio-system that is not mesh-perf's, are refused before anything is created.
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
import { injectorStandIn } from '../support/k8s/injector-stand-in.ts';
import { istiodStandIn } from '../support/k8s/istiod-stand-in.ts';
import { waypointStandIn } from '../support/k8s/waypoint-stand-in.ts';
import { localIstioctl } from '../support/k8s/tools.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const WEBHOOKS = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const LIMIT = 'values.global.proxy.resources.limits.cpu';

let cluster: LocalCluster;
let access: ClusterAccess;
let dir: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  dir = mkdtempSync(join(tmpdir(), 'mesh-perf-revisions-'));
});

after(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (args: string[]) => runCli(args, { cwd: REPO, timeoutMs: 8 * 60_000, env: { MESH_PERF_ISTIOCTL: localIstioctl().path } });

type Json = any;

/** Output as one line: the CLI wraps at the terminal's width. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

async function get(path: string): Promise<{ status: number; body?: Json }> {
  const response = await rawRequest(access, path);
  return response.status === 200 ? { status: 200, body: JSON.parse(response.body) } : { status: response.status };
}

function writeConfig(name: string, suite: string, prefix: string, waypoints = false, ingress = false): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `platform: kubeconfig
suite: ${suite}
modes:
  - name: istio-sidecar
    arms:
      base:
        istio: { set: { "${LIMIT}": "1000m" } }
      head:
        istio: { hub: canary.example.test/istio, set: { "${LIMIT}": "2000m" } }
${
  waypoints
    ? `  - name: istio-waypoint
    arms:
      head:
        istio: { set: { "${LIMIT}": "2000m" } }
`
    : ''
}load: { rate: 10 }
kubernetes:
  kubeconfig: ${cluster.kubeconfigPath}
  namespacePrefix: ${prefix}
  readyTimeout: 2m
${ingress ? '  ingress: { replicas: 1 }\n' : ''}`,
  );
  return path;
}

test('Istio revisions side by side: each sidecar arm its own istiod and webhook, each waypoint arm its own waypoint revision, each arm its own ingress gateway; down removes all', {
  timeout: 900_000,
}, async () => {
  const suite = randomName('rev');
  const prefix = randomName('mp');
  const config = writeConfig('revisions.yaml', suite, prefix, true, true);
  const arms = ['istio-sidecar-base', 'istio-sidecar-head', 'istio-waypoint-base', 'istio-waypoint-head'];

  const plan = await cli(['plan', '--config', config]);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /A\/B: istio-sidecar-head against istio-sidecar-base/);
  assert.match(flat(plan.stdout), /base arm istio-sidecar-base: Istio revision mp-istio-sidecar-base \(1\.30\.3, 1 --set value\)/);
  assert.match(
    flat(plan.stdout),
    /head arm istio-sidecar-head: Istio revision mp-istio-sidecar-head \(1\.30\.3, hub canary\.example\.test\/istio, 1 --set value\)/,
  );

  assert.match(
    flat(plan.stdout),
    /head arm istio-waypoint-head: Istio revision mp-istio-waypoint-head \(1\.30\.3, 1 --set value\) for its waypoint/,
  );
  assert.match(
    flat(plan.stdout),
    /base arm istio-sidecar-base: [^\n]*; through its revision's own ingress gateway mesh-perf-gateway-mp-istio-sidecar-base/,
  );

  const before = await clusterSnapshot(access);
  const injector = await injectorStandIn(access, cluster.dir);
  const waypoints = waypointStandIn(access, [`${prefix}-istio-waypoint-base`, `${prefix}-istio-waypoint-head`]);
  // Each arm enters through its own revision's Gateway, which that revision's istiod would deploy.
  const gateways = arms.map((arm) => istiodStandIn(access, `${prefix}-ingress`, { gateway: `mesh-perf-gateway-mp-${arm}` }));
  try {
    const up = await cli(['up', '--config', config]);
    assert.equal(up.code, 0, `${up.stderr}\n${up.stdout}`);
    assert.match(
      flat(up.stdout),
      /ingress gateway namespace \S+-ingress \(Gateways mesh-perf-gateway-mp-istio-sidecar-base, mesh-perf-gateway-mp-istio-sidecar-head, /,
    );
    for (const [i, arm] of arms.entries()) {
      const { gateway } = await gateways[i]!.seen;
      assert.equal(gateway.metadata.labels['istio.io/rev'], `mp-${arm}`, `${arm}'s Gateway is its revision's`);
      const route = await get(`/apis/gateway.networking.k8s.io/v1/namespaces/${prefix}-${arm}/httproutes/mesh-perf-gateway-${arm}`);
      assert.deepEqual(route.body.spec.parentRefs, [
        { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: `mesh-perf-gateway-mp-${arm}`, namespace: `${prefix}-ingress` },
      ]);
    }
    const noDefault = await get(`/apis/gateway.networking.k8s.io/v1/namespaces/${prefix}-ingress/gateways/mesh-perf-gateway`);
    assert.equal(noDefault.status, 404, "no mode enters through the run's own gateway, so there is none");
    for (const [side, image, limit] of [
      ['base', /^docker\.io\/istio\/pilot:/, '1000m'],
      ['head', /^canary\.example\.test\/istio\/pilot:/, '2000m'],
    ] as const) {
      const revision = `mp-istio-sidecar-${side}`;
      const istiod = await get(`/apis/apps/v1/namespaces/istio-system/deployments/istiod-${revision}`);
      assert.equal(istiod.status, 200, `the ${side} arm's control plane`);
      assert.ok(istiod.body.status.readyReplicas >= 1, `istiod-${revision} ready`);
      assert.match(istiod.body.spec.template.spec.containers[0].image, image, `${side} arm's hub`);
      // The revision's injector carries its values: the arm's proxy CPU limit.
      const injectorConfig = await get(`/api/v1/namespaces/istio-system/configmaps/istio-sidecar-injector-${revision}`);
      assert.equal(injectorConfig.status, 200);
      assert.match(injectorConfig.body.data.values, new RegExp(`"cpu":\\s*"${limit}"`), `${side} arm's proxy limit`);
      const ns = await get(`/api/v1/namespaces/${prefix}-istio-sidecar-${side}`);
      assert.equal(ns.body.metadata.labels['istio.io/rev'], revision);
      assert.equal(ns.body.metadata.labels['istio-injection'], undefined, 'istio-injection would win over the revision');
      const echo = await get(`/apis/apps/v1/namespaces/${prefix}-istio-sidecar-${side}/deployments/echo`);
      // Two pods per arm (kubernetes.replicas' default with arms): an arm's instance offset is in its interval.
      assert.equal(echo.body.status.readyReplicas, 2, `the ${side} arm's echo servers`);
    }
    // The real API server matched each arm's namespace to its own revision's webhook, never the other's.
    const called = (namespace: string) => [...new Set(injector.calls.filter((c) => c.namespace === namespace).map((c) => c.configuration))];
    assert.deepEqual(called(`${prefix}-istio-sidecar-base`), ['istio-sidecar-injector-mp-istio-sidecar-base']);
    assert.deepEqual(called(`${prefix}-istio-sidecar-head`), ['istio-sidecar-injector-mp-istio-sidecar-head']);
    // Each waypoint arm: its own control plane, its waypoint bound to it by istioctl's --revision,
    // its namespace ambient (the run's ztunnel) and using that waypoint.
    for (const side of ['base', 'head']) {
      const revision = `mp-istio-waypoint-${side}`;
      const namespace = `${prefix}-istio-waypoint-${side}`;
      assert.equal((await get(`/apis/apps/v1/namespaces/istio-system/deployments/istiod-${revision}`)).status, 200);
      assert.equal(waypoints.gateways.get(namespace)?.metadata.labels['istio.io/rev'], revision, `${side} waypoint's revision`);
      const ns = await get(`/api/v1/namespaces/${namespace}`);
      assert.equal(ns.body.metadata.labels['istio.io/dataplane-mode'], 'ambient');
      assert.equal(ns.body.metadata.labels['istio.io/use-waypoint'], 'waypoint');
      assert.equal(ns.body.metadata.labels['istio.io/rev'], undefined, "an ambient namespace keeps the run's ztunnel");
    }

    const down = await cli(['down', '--config', config]);
    assert.equal(down.code, 0, down.stderr);
    assert.match(down.stdout, /meshes: istio/);
    for (const arm of arms) {
      assert.equal((await get(`/apis/apps/v1/namespaces/istio-system/deployments/istiod-mp-${arm}`)).status, 404);
      assert.equal((await get(`${WEBHOOKS}/istio-sidecar-injector-mp-${arm}`)).status, 404);
    }
    assert.deepEqual(await clusterSnapshot(access), before, 'nothing up created is left');
  } finally {
    for (const gateway of gateways) gateway.stop();
    await Promise.allSettled(gateways.map((g) => g.seen));
    await injector.stop();
    await waypoints.stop();
  }
});

test("a revision name someone else's Istio uses, or someone else's istio-system: refused, nothing created", {
  timeout: 300_000,
}, async () => {
  const suite = randomName('rev');
  const prefix = randomName('mp');
  const config = writeConfig('collision.yaml', suite, prefix);
  const theirs = 'istio-sidecar-injector-mp-istio-sidecar-head';
  const created = await rawRequest(access, WEBHOOKS, {
    method: 'POST',
    contentType: 'application/json',
    body: JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: theirs, labels: { 'istio.io/rev': 'mp-istio-sidecar-head' } },
      webhooks: [
        {
          name: 'rev.namespace.sidecar-injector.istio.io',
          clientConfig: { url: 'https://127.0.0.1:1/inject' },
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          namespaceSelector: { matchLabels: { 'istio.io/rev': 'mp-istio-sidecar-head' } },
        },
      ],
    }),
  });
  assert.equal(created.status, 201, created.body);
  const before = await clusterSnapshot(access);
  const webhookBefore = (await get(`${WEBHOOKS}/${theirs}`)).body;

  const up = await cli(['up', '--config', config]);
  assert.equal(up.code, 3, `${up.stderr}\n${up.stdout}`);
  assert.doesNotMatch(up.stderr, /left what was created in place/, 'nothing was created, so nothing is left');
  assert.match(
    flat(up.stderr),
    /Istio revision "mp-istio-sidecar-head" \(istio-sidecar-head\) already exists in this cluster \(MutatingWebhookConfiguration istio-sidecar-injector-mp-istio-sidecar-head, not mesh-perf's\); nothing was changed/,
  );
  assert.deepEqual(await clusterSnapshot(access), before, 'nothing was created');
  assert.equal(
    (await get(`${WEBHOOKS}/${theirs}`)).body.metadata.resourceVersion,
    webhookBefore.metadata.resourceVersion,
    'theirs untouched',
  );
  assert.equal((await rawRequest(access, `${WEBHOOKS}/${theirs}`, { method: 'DELETE' })).status, 200);

  // Someone else's Istio in istio-system: mesh-perf adds no control plane to it.
  const ns = await rawRequest(access, '/api/v1/namespaces', {
    method: 'POST',
    contentType: 'application/json',
    body: JSON.stringify({ metadata: { name: 'istio-system' } }),
  });
  assert.equal(ns.status, 201, ns.body);
  const foreign = await clusterSnapshot(access);
  const refused = await cli(['up', '--config', config]);
  assert.equal(refused.code, 3, `${refused.stderr}\n${refused.stdout}`);
  assert.match(flat(refused.stderr), /istio-system exists and is not mesh-perf's, so nothing was changed/);
  assert.deepEqual(await clusterSnapshot(access), foreign, 'nothing was created');
  assert.equal((await get('/api/v1/namespaces/istio-system')).body.metadata.labels?.['app.kubernetes.io/managed-by'], undefined);
});
