// The real-node tier: a one-node cluster (real kubelet, containerd, kube-proxy, CoreDNS) in
// namespaces of its own, the product run unchanged against it (`mesh-perf run`, platform
// kubeconfig, its own istioctl install of Istio ambient, k6 in its client pods), what only a real
// data plane shows (ztunnel's own counters, HBONE with SPIFFE identities, ztunnel's CPU from the
// real kubelet), and down leaving the machine as it was with 0 packets to 198.18.0.0/15 on the host.
// Components: scripts/real/build.sh (scripts/test.mjs skips this tier until they are cached).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ACTIONS } from '../support/real/actions/index.ts';
import { kubectl } from '../support/real/actions/kubelet.ts';
import { RealNodeRefusal } from '../support/real/actions/preflight.ts';
import { hostSnapshot, nodeProcesses, type HostSnapshot } from '../support/real/host-state.ts';
import { leakedPackets, startLeakCounter, stopLeakCounter } from '../support/real/leak-counter.ts';
import { BRIDGE, NODE_IP, NODE_NAME } from '../support/real/layout.ts';
import { down, NodeContext, up } from '../support/real/node.ts';
import { nodeSettings, runProduct } from '../support/real/product.ts';
import { watchZtunnel, type ZtunnelView } from '../support/real/ztunnel-watch.ts';
import { parsePrometheusText } from '../../src/platform/kubernetes/resources/prometheus.ts';
import type { RunResult } from '../../src/results/types.ts';

const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  if (process.env.MESH_PERF_REAL_VERBOSE) process.stderr.write(`${line}\n`);
};
let node: NodeContext;
let before_: HostSnapshot;
let out: string;
let hostPorts: Server[] = [];
const timings: Record<string, number> = {};

before(async () => {
  before_ = hostSnapshot();
  startLeakCounter();
  // The node's ports are its own: the host's 6443 and 2379 in use change nothing.
  hostPorts = await Promise.all(
    [6443, 2379].map(
      (port) =>
        new Promise<Server>((resolve) => {
          const server = createServer();
          server.once('error', () => resolve(server));
          server.listen(port, '0.0.0.0', () => resolve(server));
        }),
    ),
  );
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-real-'));
  node = new NodeContext(log);
  const started = Date.now();
  await up(ACTIONS, node);
  timings.up = (Date.now() - started) / 1000;
  log(`up in ${timings.up.toFixed(1)} s: ${node.timings.map((t) => `${t.action} ${t.seconds.toFixed(1)}`).join(', ')}`);
});

after(async () => {
  if (node?.record.init) await down(ACTIONS, node).catch((e: Error) => log(`down after the tests: ${e.message}`));
  stopLeakCounter();
  for (const server of hostPorts) server.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('the node: a real kubelet Ready, its PID 1 and network its own, no route off the machine', async () => {
  const ready = await kubectl(node, [
    'get',
    'node',
    NODE_NAME,
    '-o',
    'jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.nodeInfo.kubeletVersion} {.status.nodeInfo.containerRuntimeVersion}',
  ]);
  assert.match(ready, /^True v1\.\d+\.\d+ containerd:\/\/1\.6\./);
  assert.equal((await node.sh('cat /proc/1/cmdline | tr "\\0" " "')).split(' ')[0], 'mesh-perf-real-init');
  const links = (await node.sh('ip -br link'))
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(/\s+/)[0]!.split('@')[0]!);
  // lo, the bridge, and one veth per pod (their peers are in the pods' namespaces).
  assert.deepEqual(
    links.filter((l) => !l.startsWith('veth')),
    ['lo', BRIDGE],
  );
  assert.doesNotMatch(await node.sh('ip route show table main'), /default/);
  assert.match(await node.sh(`ip -4 -br addr show ${BRIDGE}`), new RegExp(`${NODE_IP.replace(/\./g, '\\.')}/24`));
  // Nothing of the node is on the host: its bridge and its rules live in its own namespace.
  assert.deepEqual(hostSnapshot().links, before_.links);
});

let result: RunResult;
let ztunnel: ZtunnelView;

test('baseline and istio-ambient through `mesh-perf run`, unchanged: valid repetitions, k6 in the client pods, CPU from the real kubelet', async () => {
  const config = join(out, 'real.yaml');
  const settings = nodeSettings() as { kubernetes: Record<string, unknown> };
  writeFileSync(
    config,
    stringify({
      suite: 'real-node',
      ...settings,
      modes: [{ name: 'baseline' }, { name: 'istio-ambient' }],
      // 60 s: two kubelet samples (10 to 30 s apart) in every window, for every group's CPU.
      load: { rate: 200, duration: '60s', warmup: '5s', repetitions: 2 },
      kubernetes: { ...settings.kubernetes, readyTimeout: '4m', sampleInterval: '2s' },
    }),
  );
  const watch = watchZtunnel(node);
  const started = Date.now();
  const run = await runProduct(node.init, ['run', '--config', config, '--out', join(out, 'results')], log);
  timings.run = (Date.now() - started) / 1000;
  await watch.stop();
  ztunnel = watch.view;
  assert.equal(run.code, 0, `mesh-perf run exited ${run.code}\n${run.stderr}\n${run.stdout.slice(-3000)}`);
  result = JSON.parse(readFileSync(join(out, 'results', 'results.json'), 'utf8')) as RunResult;
  for (const mode of ['baseline', 'istio-ambient']) {
    const entry = result.modes.find((m) => m.name === mode)!;
    assert.equal(entry.repetitions.length, 2, mode);
    for (const rep of entry.repetitions) {
      assert.ok(rep.valid, `${mode}: ${rep.invalidReasons.join('; ')}`);
      assert.equal(rep.failures, 0, `${mode}: ${JSON.stringify(rep.errorCauses)}`);
      assert.ok(rep.achievedRps > 190, `${mode}: ${rep.achievedRps} rps`);
      const groups = Object.fromEntries((rep.resources ?? []).map((u) => [`${u.scope}/${u.group}`, u]));
      assert.ok(groups[`${mode}/app`]!.cpuMillicores.avg > 0, `${mode}: ${JSON.stringify(Object.keys(groups))}`);
      assert.ok(groups[`${mode}/client`]!.cpuMillicores.avg > 0);
      log(
        `${mode} rep ${rep.trial}: p50 ${rep.latencyMs!.p50} ms p99 ${rep.latencyMs!.p99} ms, ${rep.achievedRps} rps; ${Object.entries(
          groups,
        )
          .map(([k, u]) => `${k} ${u.cpuMillicores.avg}m`)
          .join(', ')}`,
      );
    }
  }
  const environment = result.run.environment as Record<string, any>;
  assert.equal(environment.nodes.count, 1);
  assert.equal(environment.placement?.sharedNode, NODE_NAME);
  assert.equal(environment.meshes.istio.installedByMeshPerf, true);
  assert.match(environment.images.running.baseline.echo, /^mesh-perf\.local\/fortio\/fortio:[\d.]+ \(image ID sha256:[0-9a-f]{64}\)$/);
  log(`run in ${timings.run.toFixed(1)} s`);
});

test('ambient for real: ztunnel carried the ambient mode’s traffic (its own counters) and not the baseline’s, over HBONE with SPIFFE identities and mTLS', () => {
  assert.ok(ztunnel?.metrics, `no ztunnel metrics were scraped (${ztunnel?.scrapes} scrapes)`);
  // MESH_PERF_REAL_CAPTURE=DIR keeps what ztunnel served (test/fixtures/ztunnel/ came from here).
  const capture = process.env.MESH_PERF_REAL_CAPTURE;
  if (capture) {
    writeFileSync(join(capture, 'metrics.txt'), ztunnel.metrics!);
    writeFileSync(join(capture, 'access-log.txt'), ztunnel.logs ?? '');
    writeFileSync(join(capture, 'results.json'), JSON.stringify(result, null, 2));
  }
  const samples = parsePrometheusText(ztunnel.metrics!);
  const namespaces = result.run.environment as { namespaces?: Record<string, string> };
  const ambientNs = namespaces.namespaces?.['istio-ambient'] ?? 'mesh-perf-istio-ambient';
  const baselineNs = namespaces.namespaces?.baseline ?? 'mesh-perf-baseline';
  const opened = samples.filter((s) => s.name === 'istio_tcp_connections_opened_total');
  const into = (ns: string) => opened.filter((s) => s.labels.destination_workload_namespace === ns);
  assert.ok(
    into(ambientNs).reduce((n, s) => n + s.value, 0) > 0,
    `no ztunnel connection into ${ambientNs}:\n${opened.map((s) => JSON.stringify(s.labels)).join('\n')}`,
  );
  assert.equal(into(baselineNs).length, 0, 'ztunnel saw baseline traffic');
  const received = samples
    .filter(
      (s) =>
        s.name === 'istio_tcp_received_bytes_total' &&
        s.labels.destination_workload_namespace === ambientNs &&
        s.labels.reporter === 'destination',
    )
    .reduce((n, s) => n + s.value, 0);
  const ambientRequests = result.modes.find((m) => m.name === 'istio-ambient')!.repetitions.reduce((n, r) => n + r.requests, 0);
  // Every request of the ambient mode's measured windows crossed ztunnel (warm-up requests too: more, never fewer bytes).
  assert.ok(received > ambientRequests * 50, `ztunnel received ${received} bytes for ${ambientRequests} requests`);
  for (const s of into(ambientNs)) {
    assert.equal(s.labels.connection_security_policy, 'mutual_tls', JSON.stringify(s.labels));
    assert.match(s.labels.source_principal ?? '', /^spiffe:\/\/cluster\.local\/ns\/[a-z0-9-]+\/sa\/[a-z0-9-]+$/);
    assert.match(s.labels.destination_principal ?? '', new RegExp(`^spiffe://cluster\\.local/ns/${ambientNs}/sa/`));
  }
  // HBONE: ztunnel's access log has connections to the echo pods' port 15008 with both identities.
  const hbone = (ztunnel.logs ?? '').split('\n').filter((l) => /dst\.addr=[\d.]+:15008/.test(l));
  assert.ok(hbone.length > 0, `no HBONE (:15008) connection in ztunnel's log:\n${(ztunnel.logs ?? '').slice(-2000)}`);
  assert.ok(
    hbone.some((l) => /src\.identity="spiffe:\/\/cluster\.local\/ns\//.test(l) && /dst\.identity="spiffe:\/\/cluster\.local\/ns\//.test(l)),
    hbone.slice(0, 3).join('\n'),
  );
});

test("ztunnel's CPU per 1000 rps is non-zero in the ambient mode and attributed to ztunnel, above what it spends during the baseline's load", () => {
  const ztunnelOf = (mode: string) =>
    result.modes
      .find((m) => m.name === mode)!
      .repetitions.map((r) => (r.resources ?? []).find((u) => u.scope === 'istio-system' && u.group === 'ztunnel'));
  const ambient = ztunnelOf('istio-ambient');
  const baseline = ztunnelOf('baseline');
  for (const usage of ambient) assert.ok(usage && usage.cpuPer1000Rps! > 0, JSON.stringify(usage));
  const avg = (list: typeof ambient) => list.reduce((n, u) => n + (u?.cpuMillicores.avg ?? 0), 0) / list.length;
  assert.ok(avg(ambient) > 3 * avg(baseline) + 5, `ztunnel ${avg(ambient)}m during ambient, ${avg(baseline)}m during baseline`);
  log(
    `ztunnel: ${avg(ambient).toFixed(1)}m during ambient (${ambient.map((u) => u?.cpuPer1000Rps).join(', ')} m per 1000 rps), ${avg(baseline).toFixed(1)}m during baseline`,
  );
});

test('a second node is refused by name while this one is up, and this one is left running', async () => {
  const second = new NodeContext(() => {});
  await assert.rejects(up(ACTIONS, second), (error: Error) => {
    assert.ok(error instanceof RealNodeRefusal);
    assert.match(error.message, new RegExp(`still up \\(init pid ${node.record.init}`));
    assert.match(error.message, /scripts\/real\/node\.ts down/);
    return true;
  });
  // Refused, not taken down: this node still answers.
  assert.match(await kubectl(node, ['get', 'node', NODE_NAME, '-o', 'name']), /node\/mesh-perf-real/);
});

test('down leaves the machine as it was: no process, bridge, netns, iptables chain or nftables table, CNI file, mount or cgroup; 0 packets to 198.18.0.0/15 on the host', async () => {
  const ns = node.record.namespaces!;
  const started = Date.now();
  await down(ACTIONS, node);
  timings.down = (Date.now() - started) / 1000;
  assert.deepEqual(nodeProcesses(ns), []);
  const leaked = leakedPackets();
  stopLeakCounter();
  assert.equal(leaked, 0, 'packets to or from 198.18.0.0/15 crossed the host');
  // The counter's own table is gone too: the host's ruleset is exactly as before.
  assert.deepEqual(hostSnapshot(), before_);
  log(`down in ${timings.down.toFixed(1)} s; tier timings ${JSON.stringify(timings)}`);
  if (process.env.MESH_PERF_REAL_TIMINGS)
    writeFileSync(process.env.MESH_PERF_REAL_TIMINGS, `${JSON.stringify({ ...timings, actions: node.timings, log: lines }, null, 2)}\n`);
});
