// The kind tier: the product's default platform on a real kind cluster. Debian's dockerd runs in
// namespaces of its own (test/support/kind/), kind v0.31.0 creates the default topology (a control
// plane and two workers) from a node image assembled here as kind's own images lay it out, and the
// product runs unchanged with platform kind: `mesh-perf up`, `run` (reusing the cluster),
// `down`; a create that fails once and is retried; a failed run whose kind logs are kept, redacted;
// the node image's bad pins. Baseline, Istio ambient and Linkerd run for real (their data planes
// built from source); Envoy's modes stay GitHub's. Afterwards the machine is as it was, and not a
// packet of 198.18.0.0/15 crossed the host. Components: scripts/kind/build.sh (and the real tier's).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import type { Repetition, RunResult } from '../../src/results/types.ts';
import { KIND_ACTIONS } from '../support/kind/actions/index.ts';
import { pushedImages } from '../support/kind/actions/images.ts';
import { clusterKubectl, deleteLeftCluster, kindClusters, nodeContainers } from '../support/kind/cluster.ts';
import { downKindHost, KindHost, upKindHost } from '../support/kind/host.ts';
import { CGROUP_PARENT, KIND_GATEWAY, paths, POD_SUBNET } from '../support/kind/layout.ts';
import { kindSettings, runKindProduct } from '../support/kind/product.ts';
import { leftoverCgroups } from '../support/real/actions/cgroups.ts';
import { type HostSnapshot, hostSnapshot, nodeProcesses } from '../support/real/host-state.ts';
import { imageRefsFor } from '../support/real/images.ts';
import { leakCounterGone, leakedPackets, startLeakCounter, stopLeakCounter } from '../support/real/leak-counter.ts';

const lines: string[] = [];
const log = (line: string) => {
  lines.push(`${new Date().toISOString().slice(11, 19)} ${line}`);
  if (process.env.MESH_PERF_KIND_VERBOSE) process.stderr.write(`${line}\n`);
};
let host: KindHost;
let before_: HostSnapshot;
let out: string;
const timings: Record<string, number> = {};
const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round((Date.now() - started) / 100) / 10;
  }
};

before(async () => {
  before_ = hostSnapshot();
  startLeakCounter();
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-kind-'));
  host = new KindHost(log);
  await timed('host up', () => upKindHost(KIND_ACTIONS, host));
  log(`kind host up: ${host.timings.map((t) => `${t.action} ${t.seconds.toFixed(1)}`).join(', ')}`);
});

after(async () => {
  if (host?.record.init) await downKindHost(KIND_ACTIONS, host).catch((e: Error) => log(`down after the tests: ${e.message}`));
  stopLeakCounter();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Writes a config of the tier's settings with the given modes, load and kubernetes settings. */
function config(name: string, body: Record<string, unknown>, kubernetes: Record<string, unknown> = {}): string {
  const settings = kindSettings();
  const file = join(out, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      suite: `kind-${name}`,
      ...settings,
      ...body,
      kubernetes: {
        ...settings.kubernetes,
        ...kubernetes,
        kind: { ...(settings.kubernetes.kind as object), ...((kubernetes.kind as object) ?? {}) },
      },
    }),
  );
  return file;
}

const product = (args: string[], env: NodeJS.ProcessEnv = {}) => runKindProduct(host, args, log, env);
/** The product's output on one line: it wraps at the terminal's width. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const said = (run: { code: number; stdout: string; stderr: string }) =>
  `exit ${run.code}\n${run.stderr.slice(-4000)}\n${run.stdout.slice(-3000)}`;

let result: RunResult;
const RATE = 100;
const MODES = ['baseline', 'istio-ambient', 'linkerd'];
const repetitionsOf = (mode: string) => result.modes.find((m) => m.name === mode)!.repetitions;
const pathOf = (rep: Repetition, proxy: string) => rep.path?.proxies.find((p) => p.proxy === proxy);

test('mesh-perf up creates the default kind cluster (a control plane, two workers) and deploys the modes; run uses what up left: baseline, istio-ambient and linkerd valid; down deletes it', async (t) => {
  t.after(() => deleteLeftCluster(host, 'mesh-perf'));
  const file = config(
    'modes',
    {
      modes: MODES.map((name) => ({ name })),
      // 45 s: at least two kubelet samples in every window, for every group's CPU; one repetition
      // each: this run proves the paths on kind, the real tier and the benches measure.
      load: { rate: RATE, duration: '45s', warmup: '5s', repetitions: 1, vus: 100 },
    },
    { readyTimeout: '6m', sampleInterval: '2s' },
  );

  const up = await timed('mesh-perf up', () => product(['up', '--config', file]));
  assert.equal(up.code, 0, said(up));
  assert.deepEqual(await kindClusters(host), ['mesh-perf']);
  assert.deepEqual(await nodeContainers(host, 'mesh-perf'), ['mesh-perf-control-plane', 'mesh-perf-worker', 'mesh-perf-worker2']);

  // The nodes are kind's: kubelet v1.35.0 on containerd 2.2 from the pinned image, Ready.
  const nodes = await clusterKubectl(host, 'mesh-perf', [
    'get',
    'nodes',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name} {.status.nodeInfo.kubeletVersion} {.status.nodeInfo.containerRuntimeVersion} {.status.conditions[?(@.type=="Ready")].status} {.spec.podCIDR}{"\\n"}{end}',
  ]);
  const nodeLines = nodes.trim().split('\n');
  assert.equal(nodeLines.length, 3, nodes);
  for (const line of nodeLines) assert.match(line, /^mesh-perf-\S+ v1\.35\.0 containerd:\/\/2\.2\.0 True 198\.18\.\d+\.0\/24$/, nodes);

  // Client and echo on different workers, so every request crosses kindnetd's routes between nodes.
  const pods = await clusterKubectl(host, 'mesh-perf', [
    'get',
    'pods',
    '-A',
    '-o',
    'jsonpath={range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.nodeName} {.status.podIP}{"\\n"}{end}',
  ]);
  for (const mode of MODES) {
    const inMode = pods.split('\n').filter((l) => l.startsWith(`mesh-perf-${mode} `));
    const client = inMode.find((l) => l.split(' ')[1]!.startsWith('mesh-perf-client'))?.split(' ');
    const echo = inMode.find((l) => l.split(' ')[1]!.startsWith('echo-'))?.split(' ');
    assert.ok(client && echo, `${mode}: ${pods}`);
    assert.notEqual(client[2], echo[2], `${mode}: client and echo on one node\n${pods}`);
    assert.ok(client[3]!.startsWith('198.18.') && echo[3]!.startsWith('198.18.'), `pod IPs in ${POD_SUBNET}: ${pods}`);
  }
  const kindnet = await clusterKubectl(host, 'mesh-perf', [
    'get',
    'daemonset',
    '-n',
    'kube-system',
    'kindnet',
    '-o',
    'jsonpath={.status.numberReady}',
  ]);
  assert.equal(kindnet, '3');
  const routes = await host.docker(['exec', 'mesh-perf-worker', 'ip', 'route']);
  assert.match(routes, /198\.18\.\d+\.0\/24 via 198\.18\.1\.\d+ dev eth0/, `kindnetd's route to another node's pods:\n${routes}`);

  const run = await timed('mesh-perf run', () => product(['run', '--config', file, '--out', join(out, 'modes')]));
  const written = join(out, 'modes', 'results.json');
  if (existsSync(written)) result = JSON.parse(readFileSync(written, 'utf8')) as RunResult;
  assert.equal(run.code, 0, said(run));
  assert.match(flat(run.stdout + run.stderr), /reusing the existing kind cluster "mesh-perf" \(it will be left in place\)/);
  assert.match(flat(run.stdout + run.stderr), /using what `mesh-perf up` left: mesh-perf-baseline \(run [^)]+\), mesh-perf-istio-ambient/);
  for (const mode of MODES) {
    for (const rep of repetitionsOf(mode)) {
      assert.ok(rep.valid, `${mode}: ${rep.invalidReasons.join('; ')}`);
      assert.equal(rep.failures, 0, `${mode}: ${JSON.stringify(rep.errorCauses)}`);
      const groups = Object.fromEntries((rep.resources ?? []).map((u) => [`${u.scope}/${u.group}`, u]));
      // The kubelet's stats under kind's nested cgroups: every group of the mode has its CPU.
      assert.ok((groups[`${mode}/app`]?.cpuMillicores.avg ?? 0) > 0, `${mode}: ${JSON.stringify(rep.resources)}`);
      assert.ok((groups[`${mode}/client`]?.cpuMillicores.avg ?? 0) > 0, `${mode}: ${JSON.stringify(rep.resources)}`);
      log(
        `${mode}: p50 ${rep.latencyMs!.p50} ms p99 ${rep.latencyMs!.p99} ms, ${rep.achievedRps} rps; ${Object.entries(groups)
          .map(([k, u]) => `${k} ${u.cpuMillicores.avg}m`)
          .join(', ')}; path ${JSON.stringify(rep.path?.proxies.map((p) => [p.proxy, p.pods, p.count, p.mtls]))}`,
      );
    }
  }
  const environment = result.run.environment as Record<string, any>;
  assert.equal(environment.nodes.count, 3);
  assert.equal(environment.placement, undefined, 'client and server on separate nodes');
  assert.equal(environment.meshes.istio.installedByMeshPerf, true);
  assert.equal(environment.meshes.linkerd.installedByMeshPerf, true);
  // What ran, as the node reports it: the pushed echo image, by its tag or (containerd's record of
  // an image pulled from a registry) by its digest.
  const echo = imageRefsFor(`${KIND_GATEWAY}:5000`).echo();
  const repository = echo.slice(0, echo.lastIndexOf(':'));
  assert.match(environment.images.running.baseline.echo, new RegExp(`^${repository.replace(/[.]/g, '\\.')}(:|@sha256:[0-9a-f]{64})`));

  const down = await timed('mesh-perf down', () => product(['down', '--config', file]));
  assert.equal(down.code, 0, said(down));
  assert.match(down.stdout, /Deleted kind cluster "mesh-perf"/);
  assert.deepEqual(await kindClusters(host), []);
  assert.deepEqual(await nodeContainers(host, 'mesh-perf'), []);
});

test('Istio ambient on kind: ztunnel carried every ambient request under mutual TLS with SPIFFE identities (the product’s path evidence) and none of the others’', () => {
  for (const rep of repetitionsOf('istio-ambient')) {
    const z = pathOf(rep, 'ztunnel');
    assert.ok(z && z.count > 0, `ztunnel in the ambient path: ${JSON.stringify(rep.path)}`);
    assert.equal(z.mtls, z.count, 'every connection under mutual TLS');
    assert.ok(
      z.peers.length > 0 && z.peers.every((p) => /^spiffe:\/\/cluster\.local\/ns\/[a-z0-9-]+\/sa\/[a-z0-9-]+$/.test(p)),
      z.peers.join(),
    );
    const ztunnel = (rep.resources ?? []).find((u) => u.scope === 'istio-system' && u.group === 'ztunnel');
    assert.ok(ztunnel && ztunnel.cpuPer1000Rps! > 0, JSON.stringify(rep.resources));
  }
  for (const mode of ['baseline', 'linkerd'])
    for (const rep of repetitionsOf(mode)) assert.equal(pathOf(rep, 'ztunnel')?.count ?? 0, 0, mode);
});

test("Linkerd on kind: the echo pod's linkerd-proxy counted the linkerd mode's requests under mTLS with the client's identity, none in plaintext; its CPU is the mode's sidecar group", () => {
  for (const rep of repetitionsOf('linkerd')) {
    const l = pathOf(rep, 'linkerd-proxy');
    assert.ok(l && l.count > 0, `linkerd-proxy in the linkerd path: ${JSON.stringify(rep.path)}`);
    assert.ok(l.mtls >= rep.requests, `linkerd-proxy counted ${l.mtls} mTLS requests for k6's ${rep.requests}`);
    assert.equal(l.plaintext, 0);
    assert.deepEqual(l.peers, ['default.mesh-perf-linkerd.serviceaccount.identity.linkerd.cluster.local']);
    const sidecar = (rep.resources ?? []).find((u) => u.scope === 'linkerd' && u.group === 'sidecar');
    assert.ok(sidecar && sidecar.cpuPer1000Rps! > 0, JSON.stringify(rep.resources));
  }
  for (const mode of ['baseline', 'istio-ambient'])
    for (const rep of repetitionsOf(mode)) assert.equal(pathOf(rep, 'linkerd-proxy')?.count ?? 0, 0, mode);
});

test("a create that fails once is retried; a run that then fails keeps kind's logs in its results, credentials masked; the cluster it made is deleted (exit 3)", async (t) => {
  t.after(() => deleteLeftCluster(host, 'mesh-perf-fail'));
  // The worker's container fails to start once (the harness's runtime refuses its create), as a
  // node that could not start does; the product deletes the half-made cluster and creates it again.
  writeFileSync(paths.failOnce(), 'mesh-perf-fail-worker');
  // A server that logs a connection URL with a password and never becomes ready.
  const manifests = join(out, 'never-ready.yaml');
  const client = imageRefsFor(`${KIND_GATEWAY}:5000`).client();
  writeFileSync(
    manifests,
    [
      stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'echo' },
        spec: {
          selector: { matchLabels: { app: 'echo' } },
          template: {
            metadata: { labels: { app: 'echo' } },
            spec: {
              containers: [
                {
                  name: 'echo',
                  image: client,
                  command: ['/bin/sh', '-c', 'echo "connecting to https://app:s3cr3t-db-passw0rd@db.example/app"; sleep 3600'],
                  readinessProbe: { exec: { command: ['/bin/false'] }, periodSeconds: 2 },
                },
              ],
            },
          },
        },
      }),
      stringify({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'echo' },
        spec: { selector: { app: 'echo' }, ports: [{ name: 'http', port: 8080 }] },
      }),
    ].join('---\n'),
  );
  const file = config(
    'fail',
    { modes: [{ name: 'baseline' }], load: { rate: 10, duration: '5s', warmup: '1s', repetitions: 1 } },
    {
      kind: { clusterName: 'mesh-perf-fail' },
      manifests: { server: manifests },
      readyTimeout: '60s',
    },
  );
  const run = await timed('failed run', () => product(['run', '--config', file, '--out', join(out, 'fail')]));
  assert.equal(run.code, 3, said(run));
  const text = flat(run.stdout + run.stderr);
  assert.match(text, /creating kind cluster "mesh-perf-fail" \(2 workers\), second attempt/);
  assert.equal(existsSync(paths.failOnce()), false, 'the first create met the refusal');
  const logs = join(out, 'fail', 'diagnostics', 'kind-logs');
  assert.ok(existsSync(logs), `kind's logs kept: ${text.slice(-2000)}`);
  assert.deepEqual(
    readdirSync(logs)
      .filter((n) => n.startsWith('mesh-perf-fail-'))
      .sort(),
    ['mesh-perf-fail-control-plane', 'mesh-perf-fail-worker', 'mesh-perf-fail-worker2'],
  );
  const all = readdirSync(logs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
  assert.match(all, /connecting to https:\/\/\*\*\*@db\.example\/app/, "the server's log line is kept, its password masked");
  assert.doesNotMatch(all, /s3cr3t-db-passw0rd/);
  assert.deepEqual(await kindClusters(host), []);
});

test("the node image's pins: a digest the registry does not have is exit 2 naming both digests; a registry that cannot be reached is exit 3 naming it; nothing is created", async () => {
  const node = pushedImages().node;
  const [name, digest] = node.split('@') as [string, string];
  const wrong = `sha256:${'0'.repeat(64)}`;
  const pinned = config('wrong-digest', { modes: [{ name: 'baseline' }], load: { rate: 10 } }, { kind: { nodeImage: `${name}@${wrong}` } });
  const run = await product(['run', '--config', pinned, '--out', join(out, 'wrong-digest')]);
  assert.equal(run.code, 2, said(run));
  assert.match(
    flat(run.stderr),
    new RegExp(
      `kubernetes\\.kind\\.nodeImage ".*": the pinned digest ${wrong} is not in ${KIND_GATEWAY.replace(/\./g, '\\.')}:5000, where .*kindest/node:v1\\.35\\.0 is ${digest}`,
    ),
  );
  const unreachable = config(
    'unreachable',
    { modes: [{ name: 'baseline' }], load: { rate: 10 } },
    {
      kind: { nodeImage: `${KIND_GATEWAY}:5999/kindest/node:v1.35.0@${digest}` },
    },
  );
  const run2 = await product(['run', '--config', unreachable, '--out', join(out, 'unreachable')]);
  assert.equal(run2.code, 3, said(run2));
  assert.match(
    flat(run2.stderr),
    new RegExp(`the kind node image's registry ${KIND_GATEWAY.replace(/\./g, '\\.')}:5999 cannot be reached`),
  );
  assert.deepEqual(await kindClusters(host), []);
});

test('no Docker: the product says kind needs it and how to get it (exit 3), before any cluster is attempted', async () => {
  const run = await product(
    ['run', '--config', config('no-docker', { modes: [{ name: 'baseline' }], load: { rate: 10 } }), '--out', join(out, 'no-docker')],
    {
      PATH: '/usr/local/sbin:/usr/sbin:/sbin:/bin'
        .split(':')
        .filter((d) => !existsSync(join(d, 'docker')))
        .join(':'),
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    },
  );
  assert.equal(run.code, 3, said(run));
  assert.match(
    flat(run.stderr),
    /kind needs Docker, and docker is not on PATH: install Docker Engine \(https:\/\/docs\.docker\.com\/engine\/install\//,
  );
});

test('kubernetes.kind.keep: the run that created the cluster leaves it, saying so; the next run reuses it and leaves it too; down deletes it', async (t) => {
  t.after(() => deleteLeftCluster(host, 'mesh-perf-keep'));
  const file = config(
    'keep',
    { modes: [{ name: 'baseline' }], load: { rate: 10, duration: '5s', warmup: '1s', repetitions: 1 } },
    { kind: { clusterName: 'mesh-perf-keep', keep: true } },
  );
  const first = await timed('kept run', () => product(['run', '--config', file, '--out', join(out, 'keep-1')]));
  assert.equal(first.code, 0, said(first));
  assert.match(flat(first.stdout + first.stderr), /kind cluster "mesh-perf-keep" kept \(kubernetes\.kind\.keep\)/);
  assert.deepEqual(await kindClusters(host), ['mesh-perf-keep']);
  const second = await timed('reusing run', () => product(['run', '--config', file, '--out', join(out, 'keep-2')]));
  assert.equal(second.code, 0, said(second));
  const text = flat(second.stdout + second.stderr);
  assert.match(text, /reusing the existing kind cluster "mesh-perf-keep" \(it will be left in place\)/);
  assert.doesNotMatch(text, /Creating cluster|creating kind cluster/);
  assert.deepEqual(await kindClusters(host), ['mesh-perf-keep']);
  const down = await product(['down', '--config', file]);
  assert.equal(down.code, 0, said(down));
  assert.deepEqual(await kindClusters(host), []);
});

test("a stopped cluster of the product's name (a restart stopped its nodes) is refused, not reused, naming its nodes (exit 3); mesh-perf down deletes it", async (t) => {
  t.after(() => deleteLeftCluster(host, 'mesh-perf-stopped'));
  // What kind leaves of a cluster after Docker or the machine restarted: its node container, labelled, not running.
  await host.docker([
    'create',
    '--label',
    'io.x-k8s.kind.cluster=mesh-perf-stopped',
    '--name',
    'mesh-perf-stopped-control-plane',
    pushedImages().node,
  ]);
  const file = config('stopped', { modes: [{ name: 'baseline' }], load: { rate: 10 } }, { kind: { clusterName: 'mesh-perf-stopped' } });
  const run = await product(['run', '--config', file, '--out', join(out, 'stopped')]);
  assert.equal(run.code, 3, said(run));
  assert.match(
    flat(run.stderr),
    /the kind cluster "mesh-perf-stopped" exists but not all its nodes are running \(mesh-perf-stopped-control-plane created\), as after a restart .*kind delete cluster --name mesh-perf-stopped/,
  );
  const down = await product(['down', '--config', file]);
  assert.equal(down.code, 0, said(down));
  assert.match(down.stdout, /Deleted kind cluster "mesh-perf-stopped"/);
  assert.deepEqual(await nodeContainers(host, 'mesh-perf-stopped'), []);
});

test('down leaves the machine as it was: no process, bridge, rule, mount or cgroup of the kind host; 0 packets to 198.18.0.0/15 on the host', async () => {
  const ns = host.record.namespaces!;
  await timed('host down', () => downKindHost(KIND_ACTIONS, host));
  assert.deepEqual(nodeProcesses(ns), []);
  assert.deepEqual(leftoverCgroups(CGROUP_PARENT), []);
  const leaked = leakedPackets();
  stopLeakCounter();
  assert.equal(leaked, 0, 'packets to or from 198.18.0.0/15 crossed the host');
  assert.ok(leakCounterGone(), "the leak counter's own table is gone");
  assert.deepEqual(hostSnapshot(), before_);
  log(`tier timings ${JSON.stringify(timings)}`);
  if (process.env.MESH_PERF_KIND_TIMINGS)
    writeFileSync(process.env.MESH_PERF_KIND_TIMINGS, `${JSON.stringify({ timings, actions: host.timings, log: lines }, null, 2)}\n`);
});
