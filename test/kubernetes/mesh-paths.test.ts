// Meshes as upstream runs them (issue 38), against the local control plane (real kube-apiserver,
// controller-manager and scheduler; kwok plays the kubelets) with Istio installed by the real
// istioctl. Stand-ins do what emulated istiod pods cannot (deploy the gateway and the waypoint,
// inject the sidecar: istiod-, waypoint- and injector-stand-in), and mesh-proxies-stand-in plays
// the mesh's data plane: k6's traffic crosses local listeners counted as each proxy counts it, and
// the API server's pod proxy for each proxy pod's metrics port reaches a local server answering in
// that proxy's format.
//
// What this proves (item 1, k6-operator's runners under STRICT mTLS, is in
// mesh-paths-operator.test.ts): an istio-waypoint mode's namespace carries
// istio.io/ingress-use-waypoint, so the gateway sends it through the waypoint, and the results say
// so (item 3); the run's namespaces and their pods are gone before istioctl removes istio-cni
// (item 4); the platform reads every proxy's counters through the pod proxy before and after each
// repetition, records what each counted per mode with the mTLS policy in force, and the kind e2e
// jobs' check passes on it and fails on a mode whose pods ambient never captured (item 6).
// What it cannot prove: that real proxies count as their sources say (test/fixtures/proxy-metrics
// is written from those sources; issue 37 captures real ones), and real mTLS handshakes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { localIstioctl } from '../support/k8s/tools.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { istiodStandIn } from '../support/k8s/istiod-stand-in.ts';
import { waypointStandIn } from '../support/k8s/waypoint-stand-in.ts';
import { injectorStandIn } from '../support/k8s/injector-stand-in.ts';
import { meshStandIn } from '../support/k8s/mesh-proxies-stand-in.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import type { LoadProfile } from '../../src/config/validate.ts';
import type { ModeConfig } from '../../src/config/schema.ts';
import type { ProxyTraffic } from '../../src/results/types.ts';

const REPO = resolve(import.meta.dirname, '..', '..');

let cluster: LocalCluster;
let access: ClusterAccess;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-paths-'));
});

after(async () => {
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

/**
 * When, during teardown, the run's workload namespaces were all gone and when istio-cni-node (whose
 * agent removes /opt/cni/bin/istio-cni as it stops) was deleted: polled, so each is known within
 * the poll interval.
 */
function watchTeardown(namespaces: () => string[]): { stop(): Promise<{ namespacesGoneAt?: number; cniDeletedAt?: number }> } {
  let stopped = false;
  const seen: { namespacesGoneAt?: number; cniDeletedAt?: number } = {};
  // Each counts only once it has existed: before the run neither does.
  let cniExisted = false;
  let namespacesExisted = false;
  const loop = (async () => {
    while (!stopped) {
      const now = Date.now();
      const ds = await rawRequest(access, '/apis/apps/v1/namespaces/istio-system/daemonsets/istio-cni-node');
      const cniLive = ds.status === 200 && !JSON.parse(ds.body).metadata?.deletionTimestamp;
      if (cniLive) cniExisted = true;
      else if (cniExisted && seen.cniDeletedAt === undefined) seen.cniDeletedAt = now;
      const present = await Promise.all(
        namespaces().map(async (n) => (await rawRequest(access, `/api/v1/namespaces/${n}`)).status === 200),
      );
      if (present.every(Boolean)) namespacesExisted = true;
      else if (namespacesExisted && !present.some(Boolean) && seen.namespacesGoneAt === undefined) seen.namespacesGoneAt = now;
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

test("ingress in front of sidecar, ambient and waypoint modes: each mode's proxies counted its traffic, the baseline's none; the waypoint is in the gateway's path; workloads go before Istio", {
  timeout: 900_000,
}, async () => {
  const config = clusterConfig(cluster, {
    modes: [
      { name: 'baseline' },
      { name: 'istio-sidecar' },
      { name: 'istio-ambient' },
      { name: 'istio-waypoint' },
      { name: 'uncaptured', mesh: 'istio-ambient' },
    ],
    // 60 VUs (3 s of arrivals; the product sizes 20 here): a path test, not a load test. At load 21
    // in a CI rehearsal, 20 VUs waiting on the stand-in proxies left 4 iterations dropped in the
    // uncaptured mode, a second invalid reason beside the one this test is about.
    load: { rate: 20, vus: 60, duration: '3s', warmup: '1s', repetitions: 1 },
    out: join(out, 'ingress'),
    kubernetes: { readyTimeout: '3m', sampleInterval: '500ms', ingress: { replicas: 1 } },
  });
  const prefix = config.kubernetes.namespacePrefix;
  const ns = (mode: string) => `${prefix}-${mode}`;
  const ingressNs = `${prefix}-ingress`;
  const gateway = istiodStandIn(access, ingressNs);
  const waypoints = waypointStandIn(access, [ns('istio-waypoint')]);
  const injector = await injectorStandIn(access, cluster.dir, { inject: true });
  const mesh = await meshStandIn(access, cluster, {
    ingressNamespace: ingressNs,
    modes: [
      { name: 'baseline', kind: 'baseline', namespace: ns('baseline') },
      { name: 'istio-sidecar', kind: 'istio-sidecar', namespace: ns('istio-sidecar') },
      { name: 'istio-ambient', kind: 'istio-ambient', namespace: ns('istio-ambient') },
      { name: 'istio-waypoint', kind: 'istio-waypoint', namespace: ns('istio-waypoint') },
      { name: 'uncaptured', kind: 'istio-ambient', namespace: ns('uncaptured'), uncaptured: true },
    ],
  });
  const teardown = watchTeardown(() => [...config.modes.map((m) => ns(m.name)), ingressNs]);
  const log = recordingLogger();
  class Routed extends KubernetesPlatform {
    override async beforeTrial(mode: ModeConfig, profile: LoadProfile, generators: number): Promise<void> {
      await super.beforeTrial(mode, profile, generators);
      await mesh.routePods();
    }
  }
  let outcome: Awaited<ReturnType<typeof runPipeline>>;
  try {
    outcome = await runPipeline(config, {
      log,
      signal: new AbortController().signal,
      platform: (context) =>
        new Routed(context, {
          env: { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path },
          targetOverride: (mode) => ({ url: mesh.urlFor(mode) }),
        }),
    });
  } finally {
    gateway.stop();
    await waypoints.stop();
    await injector.stop();
    await mesh.stop();
  }
  const when = await teardown.stop();
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const result = outcome.result;
  const entry = (mode: string) => result.modes.find((m) => m.name === mode)!;

  // Item 3: the waypoint mode's namespace is labelled, so the gateway (as Istio decides it) goes
  // through the waypoint; the results record the label and say it.
  assert.deepEqual(mesh.paths.get('istio-waypoint'), ['gateway', 'waypoint', 'ztunnel']);
  assert.equal(entry('istio-waypoint').enrolment?.labels['istio.io/ingress-use-waypoint'], 'true');
  assert.equal(entry('istio-waypoint').target, 'istio-waypoint via ingress gateway and the waypoint (istio.io/ingress-use-waypoint=true)');
  assert.equal(entry('istio-ambient').target, 'istio-ambient via ingress gateway');

  // The mTLS policy in force per mode, as the cluster's PeerAuthentications resolve.
  const strict = { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' };
  assert.deepEqual(entry('istio-sidecar').mtls, strict);
  assert.deepEqual(entry('istio-waypoint').mtls, strict);
  assert.deepEqual(entry('baseline').mtls, { mode: 'none', source: 'no mesh' });

  // Item 6: what each proxy counted, read through the API server's pod proxy.
  const proxies = (mode: string) =>
    Object.fromEntries((entry(mode).repetitions[0]!.path?.proxies ?? []).map((p: ProxyTraffic) => [p.proxy, p]));
  const requests = (mode: string) => entry(mode).repetitions[0]!.requests;
  for (const mode of ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint', 'uncaptured'])
    assert.ok(
      proxies(mode).gateway!.count >= requests(mode),
      `${mode}: the gateway counted ${proxies(mode).gateway?.count} of ${requests(mode)}: ${JSON.stringify(entry(mode).repetitions[0]!.path)}`,
    );
  assert.ok(proxies('istio-sidecar').sidecar!.count >= requests('istio-sidecar'));
  assert.equal(proxies('istio-sidecar').sidecar!.mtls, proxies('istio-sidecar').sidecar!.count);
  assert.deepEqual(proxies('istio-sidecar').sidecar!.peers, [`spiffe://cluster.local/ns/${ingressNs}/sa/mesh-perf-gateway-istio`]);
  assert.ok(proxies('istio-waypoint').waypoint!.count >= requests('istio-waypoint'));
  for (const mode of ['istio-ambient', 'istio-waypoint']) {
    const z = proxies(mode).ztunnel!;
    assert.ok(z.count > 0 && z.mtls === z.count && z.bytesReceived! > 0, `${mode}: ${JSON.stringify(z)}`);
  }
  // ztunnel is read for every mode of an ambient run: the baseline's traffic, and the uncaptured
  // mode's, left it where it was.
  assert.equal(proxies('baseline').ztunnel!.count, 0);
  assert.ok(proxies('baseline').ztunnel!.pods >= 1);
  assert.equal(proxies('uncaptured').ztunnel!.count, 0);
  assert.ok(
    log.lines.some((l) => /^WARN mode uncaptured: ztunnel counted none of its traffic/.test(l)),
    log.lines.filter((l) => l.startsWith('WARN')).join('\n'),
  );
  // ...and its figures are not the mode's: the repetition is invalid, the others are not for their path.
  for (const rep of entry('uncaptured').repetitions) {
    assert.equal(rep.valid, false);
    assert.match(
      rep.invalidReasons.join('\n'),
      /^the traffic did not cross its ztunnel: \d+ ztunnel pods? counted none of its \d+ requests/m,
    );
  }
  for (const mode of ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint'])
    for (const rep of entry(mode).repetitions)
      assert.doesNotMatch(rep.invalidReasons.join('\n'), /did not cross|captured the traffic/, mode);
  assert.equal(result.verdict, 'invalid');

  // The kind e2e jobs' check, on the results as written.
  const file = join(config.out!, 'results.json');
  const check = (...modes: string[]) =>
    spawnSync(process.execPath, [join(REPO, 'scripts/assert-mesh-path.mjs'), file, ...modes], { encoding: 'utf8' });
  const ok = check('istio-sidecar', 'istio-ambient', 'istio-waypoint');
  assert.equal(ok.status, 0, ok.stdout);
  const bypass = check('uncaptured');
  assert.equal(bypass.status, 1);
  // mesh-perf itself found the bypass (the repetition is invalid), and the check says why. On a
  // loaded machine the same repetition may also be invalid for dropped iterations (a CI rehearsal
  // at load 21: "4 dropped iterations ...; the traffic did not cross its ztunnel: ..."), said first.
  assert.match(
    bypass.stdout,
    /::error::mode uncaptured \[\S+\]: no valid repetition \(repetition \d+: (.*; )?the traffic did not cross its ztunnel: /,
  );

  // Item 4: every workload namespace (and so every pod in it) was gone before istio-cni-node was deleted.
  assert.ok(when.namespacesGoneAt !== undefined && when.cniDeletedAt !== undefined, JSON.stringify(when));
  assert.ok(
    when.namespacesGoneAt <= when.cniDeletedAt,
    `istio-cni-node deleted ${when.namespacesGoneAt - when.cniDeletedAt} ms before the last workload namespace went`,
  );
});
