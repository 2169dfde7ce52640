// A whole run through the project's pipeline on the kubeconfig platform against the local
// control plane, modes baseline and istio-ambient: Istio installed with the real istioctl, k6
// run in each mode's client pod through the exec API (kwok runs it on this machine, so the
// targets point at a real local echo server instead of cluster DNS), CPU/memory sampled from
// the emulated kubelet metrics per container group, environment metadata recorded, and nothing
// of the run left in the cluster afterwards.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { startLocalCluster, type LocalCluster } from '../support/k8s/cluster.ts';
import { localIstioctl } from '../support/k8s/tools.ts';
import { TOOL_PINS } from '../../src/tools/pins.ts';
import { clusterConfig, recordingLogger } from '../support/k8s/harness.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { KubernetesPlatform } from '../../src/platform/kubernetes/platform.ts';
import { loadAccess, rawRequest } from '../../src/platform/kubernetes/access.ts';

const USAGE = {
  echo: { cpu: '12m', memory: '20Mi' },
  k6: { cpu: '40m', memory: '64Mi' },
  discovery: { cpu: '25m', memory: '100Mi' },
  'istio-proxy': { cpu: '15m', memory: '30Mi' },
  'install-cni': { cpu: '3m', memory: '10Mi' },
  default: { cpu: '2m', memory: '8Mi' },
};

let cluster: LocalCluster;
let server: Server;
let hits = 0;
let out: string;

before(async () => {
  cluster = await startLocalCluster({ nodes: 2, usage: USAGE });
  server = createServer((_req, res) => {
    hits++;
    res.end('echo');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-k8s-run-'));
});

after(async () => {
  server?.close();
  await cluster?.stop();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('results carry latency, resource usage per container group and environment metadata; the run cleans up', async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }, { name: 'istio-ambient' }],
    load: { rate: 20, duration: '3s', warmup: '1s', repetitions: 1 },
    out,
    kubernetes: { readyTimeout: '3m', sampleInterval: '500ms' },
  });
  const log = recordingLogger();
  const env = { ...process.env, MESH_PERF_ISTIOCTL: localIstioctl().path };
  const outcome = await runPipeline(config, {
    log,
    signal: new AbortController().signal,
    platform: (context) => new KubernetesPlatform(context, { env, targetOverride: () => ({ url }) }),
  });
  assert.equal(outcome.error, undefined, `${outcome.error?.message}\n${log.lines.join('\n')}`);
  const result = outcome.result;
  assert.ok(hits > 0);

  for (const mode of ['baseline', 'istio-ambient']) {
    const entry = result.modes.find((m) => m.name === mode)!;
    assert.equal(entry.repetitions.length, 1);
    const rep = entry.repetitions[0]!;
    assert.ok(rep.requests > 0 && rep.latencyMs!.p50 > 0, `${mode}: ${rep.requests} requests`);
    const groups = Object.fromEntries((rep.resources ?? []).map((u) => [`${u.scope}/${u.group}`, u]));
    // The mode's own containers, attributed to the mode.
    assert.equal(groups[`${mode}/app`]?.memoryMiB.avg, 20, `${mode}: ${JSON.stringify(Object.keys(groups))}`);
    assert.equal(groups[`${mode}/client`]?.memoryMiB.avg, 64);
    assert.ok(Math.abs(groups[`${mode}/client`]!.cpuMillicores.avg - 40) < 10, JSON.stringify(groups[`${mode}/client`]));
    assert.equal(
      groups[`${mode}/app`]!.cpuPer1000Rps,
      Math.round((groups[`${mode}/app`]!.cpuMillicores.avg / (rep.achievedRps / 1000)) * 1000) / 1000,
    );
    // Istio's shared parts, in their own namespace, measured during every mode's repetition.
    assert.equal(groups['istio-system/control-plane']?.memoryMiB.avg, 100);
    assert.equal(
      groups['istio-system/ztunnel']?.memoryMiB.avg,
      2 * 30,
      `one ztunnel per node, two nodes: ${JSON.stringify(groups['istio-system/ztunnel'])}\n${log.lines.filter((l) => l.startsWith('WARN')).join('\n')}`,
    );
    assert.equal(groups['istio-system/cni']?.memoryMiB.avg, 2 * 10);
  }

  const environment = result.run.environment as Record<string, any>;
  assert.equal(environment.platform, 'kubeconfig');
  assert.equal(environment.kubernetes.version, `v${cluster.kubernetesVersion}`);
  assert.equal(environment.nodes.count, 2);
  assert.equal(environment.nodes.items[0].cpuCores, 4);
  assert.equal(environment.nodes.items[0].memoryMiB, 16 * 1024);
  assert.equal(environment.meshes.istio.installedByMeshPerf, true);
  assert.equal(environment.meshes.istio.version, localIstioctl().version.split('-').slice(0, 2).join('-'));
  assert.deepEqual(environment.resources, config.kubernetes.resources);
  // Which proxy resources applied per mode: none for the baseline, the per-node ztunnel for ambient.
  assert.deepEqual(environment.proxyResources.baseline, {});
  assert.deepEqual(Object.keys(environment.proxyResources['istio-ambient']), ['ztunnel']);
  assert.equal(environment.images.configured.echo, config.kubernetes.images.echo);
  assert.ok(environment.images.running.baseline.echo.startsWith('fortio/fortio'), JSON.stringify(environment.images.running));
  assert.equal(result.run.tools.k6, TOOL_PINS.k6!.version);

  // Teardown removed the run's namespaces and its Istio installation.
  const access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  const namespaces = JSON.parse(
    (await rawRequest(access, '/api/v1/namespaces?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dmesh-perf')).body,
  ).items;
  assert.deepEqual(namespaces, []);
  const crds = JSON.parse((await rawRequest(access, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body).items.map(
    (c: { metadata: { name: string } }) => c.metadata.name,
  );
  assert.ok(!crds.some((name: string) => name.endsWith('istio.io')), crds.join(', '));
});

test('cancelling mid-repetition stops k6 in the client pod and removes everything the run created', async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const config = clusterConfig(cluster, {
    modes: [{ name: 'baseline' }],
    load: { rate: 20, duration: '60s', warmup: '1s', repetitions: 1 },
    out,
  });
  const log = recordingLogger();
  const controller = new AbortController();
  const before = hits;
  let runId = '';
  const outcome = await runPipeline(config, {
    log,
    signal: controller.signal,
    platform: (context) => {
      runId = context.runId;
      const platform = new KubernetesPlatform(context, { targetOverride: () => ({ url }) });
      // Cancel once load is flowing (a request reached the server after the platform was ready).
      const timer = setInterval(() => {
        if (hits > before + 20) {
          clearInterval(timer);
          controller.abort();
        }
      }, 100);
      return platform;
    },
  });
  assert.ok(controller.signal.aborted);
  assert.ok(outcome.result.run.aborted, 'the run records that it was cancelled');
  assert.equal(outcome.result.verdict, 'invalid');
  // k6 ran on this machine (kwok's exec): no process of this run may survive.
  const { execFileSync } = await import('node:child_process');
  let survivors = '';
  try {
    survivors = execFileSync('pgrep', ['-f', `MESH_PERF_RUN=${runId}`], { encoding: 'utf8' });
  } catch {
    survivors = ''; // pgrep exits 1 when nothing matches
  }
  assert.equal(survivors.trim(), '', `k6 still running for run ${runId}`);
  const access = loadAccess({ kubeconfig: cluster.kubeconfigPath });
  const namespaces = JSON.parse(
    (await rawRequest(access, `/api/v1/namespaces?labelSelector=${encodeURIComponent(`mesh-perf.dev/run-id=${runId}`)}`)).body,
  ).items;
  assert.deepEqual(namespaces, []);
});
