// kubernetes.ingress and load[].replicas against the local control plane (real kube-apiserver,
// controller-manager and scheduler; kwok plays the kubelets): Istio installed with the real
// istioctl, the real Gateway API CRDs, the Gateway, its options ConfigMap, the TLS Secret and one
// HTTPRoute per mode applied and validated by the API server; the echo Deployment scaled between
// profiles with the trial waiting for the rollout and the EndpointSlices; the gateway's pods
// grouped in the resource samples; nothing left afterwards, and no key in any log or result.
//
// istiod's pods are emulated here, so nothing would act on the Gateway. A stand-in does the two
// things istiod's gateway controller does that the run waits for: it creates the Deployment
// `<gateway>-istio` with the replicas of the options ConfigMap, owned by the Gateway, and sets
// the Gateway's Programmed condition. Without the stand-in the run must fail and say why.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { localIstioctl } from '../support/k8s/tools.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { istiodStandIn } from '../support/k8s/istiod-stand-in.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { selfSignedCertificate } from '../../src/platform/kubernetes/self-signed.ts';
import { GATEWAY_NAME, GATEWAY_TLS_SECRET } from '../../src/platform/kubernetes/ingress.ts';
import type { LoadProfile } from '../../src/config/validate.ts';
import type { ModeConfig } from '../../src/config/schema.ts';

const USAGE = {
  echo: { cpu: '12m', memory: '20Mi' },
  k6: { cpu: '40m', memory: '64Mi' },
  discovery: { cpu: '25m', memory: '100Mi' },
  'istio-proxy': { cpu: '15m', memory: '30Mi' },
  default: { cpu: '2m', memory: '8Mi' },
};

let cluster: LocalCluster;
let access: ClusterAccess;
let server: Server;
let hits = 0;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2, usage: USAGE });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  // k6 runs on this machine (kwok's exec): an HTTPS server with a self-signed certificate stands
  // for the gateway's listener, so k6's handling of the certificate is exercised too.
  const { certPem, keyPem } = selfSignedCertificate(['127.0.0.1']);
  server = createServer({ cert: certPem, key: keyPem }, (_req, res) => {
    hits++;
    res.end('echo');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-ingress-'));
});

after(async () => {
  server?.close();
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

async function json(path: string): Promise<any> {
  const response = await rawRequest(access, path);
  return response.status === 200 ? JSON.parse(response.body) : undefined;
}

/** The platform, observed at the start of each trial: what the scaling left in the cluster. */
class ObservedPlatform extends KubernetesPlatform {
  readonly atTrialStart: { mode: string; profile: string; ready: number; endpoints: number; routes: string[] }[] = [];

  override async beforeTrial(mode: ModeConfig, profile: LoadProfile, generators: number): Promise<void> {
    await super.beforeTrial(mode, profile, generators);
    const namespace = this.namespaceOf(mode.name);
    const echo = await json(`/apis/apps/v1/namespaces/${namespace}/deployments/echo`);
    const slices = await json(
      `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices?labelSelector=kubernetes.io%2Fservice-name%3Decho`,
    );
    const routes = await json(`/apis/gateway.networking.k8s.io/v1/namespaces/${namespace}/httproutes`);
    this.atTrialStart.push({
      mode: mode.name,
      profile: profile.name,
      ready: echo.status.readyReplicas ?? 0,
      endpoints: slices.items
        .flatMap((s: any) => s.endpoints ?? [])
        .filter((e: any) => e.conditions?.ready !== false && !e.conditions?.terminating).length,
      routes: routes.items.map((r: any) => `${r.metadata.name}→${r.spec.parentRefs[0].namespace}/${r.spec.parentRefs[0].name}`),
    });
  }
}

test('modes reach the workload through the gateway; profiles scale the echo pods; the gateway is its own group; nothing is left', {
  timeout: 600_000,
}, async () => {
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const config = clusterConfig(cluster, {
    modes: [
      { name: 'no-mesh', mesh: 'baseline' },
      { name: 'ambient', mesh: 'istio-ambient' },
    ],
    load: [
      { name: 'one', rate: 20, duration: '3s', warmup: '1s', repetitions: 1, replicas: 1 },
      { name: 'three', rate: 20, duration: '3s', warmup: '1s', repetitions: 1, replicas: 3 },
    ],
    out,
    kubernetes: { readyTimeout: '3m', sampleInterval: '500ms', ingress: { replicas: 2, tls: true } },
  });
  const log = recordingLogger();
  const env = { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path };
  const ingressNs = `${config.kubernetes.namespacePrefix}-ingress`;
  const standIn = istiodStandIn(access, ingressNs);
  let platform!: ObservedPlatform;
  let runId = '';
  const before = hits;
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => {
      runId = context.runId;
      platform = new ObservedPlatform(context, { env, targetOverride: () => ({ url }) });
      return platform;
    },
  });
  standIn.stop();
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  assert.ok(hits > before, 'k6 reached the HTTPS server, skipping verification of the self-signed certificate');

  // What the API server accepted: the Gateway (class istio, HTTPS listener with our Secret,
  // routes only from this run's namespaces), 2 replicas in the options, a kubernetes.io/tls Secret.
  const { gateway, secret, options } = await standIn.seen;
  assert.equal(gateway.spec.gatewayClassName, 'istio');
  assert.equal(gateway.spec.listeners[0].protocol, 'HTTPS');
  assert.equal(gateway.spec.listeners[0].tls.certificateRefs[0].name, GATEWAY_TLS_SECRET);
  assert.equal(gateway.spec.listeners[0].allowedRoutes.namespaces.selector.matchLabels['mesh-perf.dev/run-id'], runId);
  assert.equal(gateway.metadata.labels['mesh-perf.dev/run-id'], runId, 'the Gateway carries the run labels');
  assert.deepEqual(JSON.parse(options.data.deployment), { spec: { replicas: 2 } });
  assert.equal(secret.type, 'kubernetes.io/tls');
  assert.ok(secret.data['tls.key'] && secret.data['tls.crt']);

  assert.deepEqual((outcome.result.run.environment as Record<string, unknown>).ingress, {
    namespace: ingressNs,
    gateway: GATEWAY_NAME,
    gatewayClassName: 'istio',
    replicas: 2,
    tls: true,
  });

  // Scaling: each trial started with exactly its profile's pods ready and listed as endpoints,
  // and each mode's HTTPRoute attached to the run's Gateway.
  assert.equal(platform.atTrialStart.length, 4);
  for (const t of platform.atTrialStart) {
    const want = t.profile === 'one' ? 1 : 3;
    assert.equal(t.ready, want, JSON.stringify(t));
    assert.equal(t.endpoints, want, JSON.stringify(t));
    assert.deepEqual(t.routes, [`${GATEWAY_NAME}-${t.mode}→${ingressNs}/${GATEWAY_NAME}`]);
  }
  assert.ok(
    log.lines.some((l) => /^ambient: 3 echo pods ready and listed as endpoints after [\d.]+ s$/.test(l)),
    log.lines.join('\n'),
  );

  // Every repetition: the gateway's two pods as their own group, the one client in the gateway's
  // namespace, the mode's app pods; the target says it went through the gateway.
  for (const entry of outcome.result.modes) {
    assert.match(entry.target!, /via ingress gateway$/);
    const rep = entry.repetitions[0]!;
    assert.ok(rep.requests > 0 && rep.iterationMs, `${entry.name}/${entry.profile}: ${rep.requests} requests`);
    const groups = Object.fromEntries((rep.resources ?? []).map((u) => [`${u.scope}/${u.group}`, u]));
    assert.equal(
      groups[`${ingressNs}/gateway`]?.memoryMiB.avg,
      2 * 30,
      `${entry.name}/${entry.profile}: ${JSON.stringify(Object.keys(groups))}`,
    );
    assert.equal(groups[`${ingressNs}/client`]?.memoryMiB.avg, 64);
    assert.equal(groups[`${entry.name}/app`]?.memoryMiB.avg, (entry.profile === 'one' ? 1 : 3) * 20, `${entry.name}/${entry.profile}`);
    assert.equal(groups[`${entry.name}/client`], undefined, 'no client in the mode namespaces');
  }

  // The key and certificate were never printed or written.
  const key = Buffer.from(secret.data['tls.key'], 'base64').toString();
  const written = readdirSync(out)
    .map((f) => readFileSync(join(out, f), 'utf8'))
    .join('\n');
  for (const text of [log.lines.join('\n'), written]) {
    assert.doesNotMatch(text, /PRIVATE KEY|BEGIN CERTIFICATE/);
    assert.ok(!text.includes(secret.data['tls.key']) && !text.includes(key.split('\n')[1]!));
  }

  // Teardown: the run's namespaces (ingress included) and the CRDs it installed are gone.
  const left = await json(`/api/v1/namespaces?labelSelector=${encodeURIComponent(`mesh-perf.dev/run-id=${runId}`)}`);
  assert.deepEqual(
    left.items.map((n: any) => n.metadata.name),
    [],
  );
  // A CRD is deleted once its objects are: give the API server a moment to finish.
  let crds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const items = (await json('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).items as {
      metadata: { name: string; deletionTimestamp?: string };
    }[];
    crds = items
      .filter((c) => c.metadata.name.endsWith('gateway.networking.k8s.io') || c.metadata.name.endsWith('istio.io'))
      .map((c) => `${c.metadata.name}${c.metadata.deletionTimestamp ? ' (terminating)' : ''}`);
    if (crds.length === 0) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  assert.deepEqual(crds, [], 'the Gateway API and Istio CRDs this run installed are gone');
});

test('a gateway that never becomes ready: the message names the Gateway and why, exit 3, everything removed', {
  timeout: 600_000,
}, async () => {
  const config = clusterConfig(cluster, {
    modes: [{ name: 'no-mesh', mesh: 'baseline' }],
    load: { rate: 10, duration: '2s', warmup: '0s', repetitions: 1 },
    out,
    // Long enough for istioctl's own waits on the emulated nodes; the Gateway gets as long.
    kubernetes: { readyTimeout: '90s', ingress: { replicas: 1, tls: false } },
  });
  const log = recordingLogger();
  let runId = '';
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => {
      runId = context.runId;
      return new KubernetesPlatform(context, {
        env: { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path },
        targetOverride: () => ({ url: 'http://127.0.0.1:9/' }),
      });
    },
  });
  const error = outcome.error as Error & { exitCode?: number };
  assert.ok(error, 'the run failed');
  assert.equal(error.exitCode, 3);
  const ingressNs = `${config.kubernetes.namespacePrefix}-ingress`;
  assert.match(
    error.message,
    new RegExp(`kubernetes\\.ingress: Gateway ${GATEWAY_NAME} in namespace ${ingressNs} was not Programmed within 90s`),
  );
  assert.match(error.message, /the Gateway has no status yet: nothing \(istiod\) has accepted it|condition Programmed=/);
  const left = await json(`/api/v1/namespaces?labelSelector=${encodeURIComponent(`mesh-perf.dev/run-id=${runId}`)}`);
  assert.deepEqual(left.items, []);
});
