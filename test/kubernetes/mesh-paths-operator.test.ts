// k6-operator under Istio's STRICT mTLS (issue 38 item 1), against the local control plane (real
// kube-apiserver, controller-manager and scheduler; kwok plays the kubelets) with Istio installed
// by the real istioctl, the sidecar injected by injector-stand-in and k6-operator's controller
// played by OperatorStandIn (test/kubernetes/mesh-paths.test.ts says what the stand-ins prove and
// what they cannot). What this proves: the runners' port 6565 accepts plaintext under Istio's
// STRICT policy, as the cluster's PeerAuthentications resolve, and the results say so. Its own
// file, with its own control plane, so that the suite runs it beside the ingress paths of
// mesh-paths.test.ts (scripts/test-tiers.mjs) instead of after them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { localIstioctl } from '../support/k8s/tools.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { injectorStandIn } from '../support/k8s/injector-stand-in.ts';
import { OperatorStandIn } from '../support/k8s/k6-operator-stand-in.ts';
import { installTestRunCrd } from '../support/k8s/testrun-crd.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest, type ClusterAccess } from '../../src/platform/kubernetes/access.ts';
import { effectiveMtls, type PeerAuthenticationView } from '../../src/platform/kubernetes/mesh/peer-authentication.ts';
import { RUNNER_API_PORT, RUNNER_POD_LABELS } from '../../src/platform/kubernetes/k6-operator/testrun.ts';
import type { LoadProfile } from '../../src/config/validate.ts';
import type { ModeConfig } from '../../src/config/schema.ts';

let cluster: LocalCluster;
let access: ClusterAccess;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2 });
  access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-operator-mtls-'));
});

after(async () => {
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

async function json(path: string): Promise<any> {
  const response = await rawRequest(access, path);
  return response.status === 200 ? JSON.parse(response.body) : undefined;
}

test("k6-operator under Istio's STRICT mTLS: the runners' port 6565 accepts the controller's plaintext, nothing else does; the results say so", {
  timeout: 900_000,
}, async () => {
  await installTestRunCrd(access);
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }, { name: 'istio-sidecar' }],
    load: { rate: 20, duration: '2s', warmup: '1s', repetitions: 1, engine: 'k6-operator' },
    out: join(out, 'operator'),
    kubernetes: { readyTimeout: '3m' },
  });
  const sidecarNs = `${config.kubernetes.namespacePrefix}-istio-sidecar`;
  const operators = ['baseline', 'istio-sidecar'].map((m) => new OperatorStandIn(access, `${config.kubernetes.namespacePrefix}-${m}`));
  for (const o of operators) o.start();
  const injector = await injectorStandIn(access, cluster.dir, { inject: true });
  const resolved: Record<string, string> = {};
  class Observed extends KubernetesPlatform {
    override async beforeTrial(mode: ModeConfig, profile: LoadProfile, generators: number): Promise<void> {
      await super.beforeTrial(mode, profile, generators);
      if (mode.name !== 'istio-sidecar') return;
      // What istiod would make of the PeerAuthentications the API server holds now.
      const list = async (namespace: string) =>
        ((await json(`/apis/security.istio.io/v1/namespaces/${namespace}/peerauthentications`))?.items ?? []).map(
          (p: PeerAuthenticationView) => ({ ...p, metadata: { ...p.metadata, namespace } }),
        );
      const policies = [...(await list('istio-system')), ...(await list(sidecarNs))];
      const runner = { namespace: sidecarNs, labels: { ...RUNNER_POD_LABELS, k6_cr: 'mesh-perf-x' }, port: RUNNER_API_PORT };
      resolved.runnerApi = effectiveMtls(policies, runner).mode;
      resolved.runnerOther = effectiveMtls(policies, { ...runner, port: 9090 }).mode;
      resolved.echo = effectiveMtls(policies, { namespace: sidecarNs, labels: { app: 'echo' }, port: 8080 }).mode;
    }
  }
  const log = recordingLogger();
  const echo = createServer((_req, res) => res.end('echo'));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  let outcome: Awaited<ReturnType<typeof runPipeline>>;
  try {
    outcome = await runPipeline(config, {
      log,
      signal: new AbortController().signal,
      platform: (context) =>
        new Observed(context, {
          env: { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path },
          targetOverride: () => ({ url: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/` }),
        }),
    });
  } finally {
    for (const o of operators) await o.stop();
    await injector.stop();
    echo.close();
  }
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  // k6-operator's controller polls http://<runner>:6565/v1/status and its starter PATCHes it, in
  // plaintext from outside the mesh: only that port of the runners is PERMISSIVE.
  assert.deepEqual(resolved, { runnerApi: 'PERMISSIVE', runnerOther: 'STRICT', echo: 'STRICT' });
  const sidecar = outcome.result.modes.find((m) => m.name === 'istio-sidecar')!;
  assert.deepEqual(sidecar.mtls, {
    mode: 'STRICT',
    source: 'PeerAuthentication istio-system/default (mesh-wide)',
    exceptions: [`port 6565 PERMISSIVE for pods app=k6,runner=true (PeerAuthentication ${sidecarNs}/mesh-perf-k6-runners)`],
  });
  assert.deepEqual([...operators[1]!.stages.values()], [['initialization', 'initialized', 'created', 'started']]);
});
