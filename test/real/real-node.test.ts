// The real-node tier: a one-node cluster (real kubelet, containerd, kube-proxy, CoreDNS) in
// namespaces of its own, the product run unchanged against it (`mesh-perf run`, platform
// kubeconfig, its own istioctl install of Istio ambient, k6 in its client pods), what only a real
// data plane shows (ztunnel's own counters, HBONE with SPIFFE identities, ztunnel's CPU from the
// real kubelet), and down leaving the machine as it was with 0 packets to 198.18.0.0/15 on the host.
// Components: scripts/real/build.sh (scripts/test.mjs skips this tier until they are cached).

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { parsePrometheusText } from '../../src/platform/kubernetes/resources/prometheus.ts';
import type { Repetition, RunResult } from '../../src/results/types.ts';
import { ACTIONS } from '../support/real/actions/index.ts';
import { kubectl } from '../support/real/actions/kubelet.ts';
import { RealNodeRefusal } from '../support/real/actions/preflight.ts';
import { type HostSnapshot, hostSnapshot, nodeProcesses } from '../support/real/host-state.ts';
import { linkerdVersion } from '../support/real/images.ts';
import { BRIDGE, NODE_IP, NODE_NAME } from '../support/real/layout.ts';
import { leakCounterGone, leakedPackets, startLeakCounter, stopLeakCounter } from '../support/real/leak-counter.ts';
import { down, NodeContext, up } from '../support/real/node.ts';
import { LINKERD_AB_ARMS, nodeSettings, runProduct } from '../support/real/product.ts';
import { type PodView, riseWithin } from '../support/real/proxy-watch.ts';
import { type Watches, watchMeshes } from '../support/real/watches.ts';

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
let watches: Watches;
const LINKERD_NS = 'mesh-perf-linkerd';
/** Requests each repetition sends: 200 rps for 60 s (warm-up apart). */
const RATE = 200;

const repetitionsOf = (mode: string) => result.modes.find((m) => m.name === mode)!.repetitions;
const pathOf = (rep: Repetition, proxy: string) => rep.path?.proxies.find((p) => p.proxy === proxy);

test('baseline, istio-ambient and linkerd through `mesh-perf run`, unchanged: valid, k6 in the client pods, CPU from the real kubelet', async () => {
  const config = join(out, 'real.yaml');
  const settings = nodeSettings() as { kubernetes: Record<string, unknown> };
  writeFileSync(
    config,
    stringify({
      suite: 'real-node',
      ...settings,
      modes: [{ name: 'baseline' }, { name: 'istio-ambient' }, { name: 'linkerd' }],
      // 60 s: two kubelet samples (10 to 30 s apart) in every window, for every group's CPU. One
      // repetition per mode: this run proves the paths; the A/B run below and bench/real-meshes
      // measure.
      // 200 VUs: a full second of arrivals in flight (the default pool holds half a second), so a
      // stall of this shared 2-core machine shows in the latency tail rather than as dropped
      // iterations that invalidate the repetition (seen once at load average 15: 175 dropped).
      load: { rate: RATE, duration: '60s', warmup: '5s', repetitions: 1, vus: 200 },
      kubernetes: { ...settings.kubernetes, readyTimeout: '4m', sampleInterval: '2s' },
    }),
  );
  watches = watchMeshes(node, LINKERD_NS);
  const started = Date.now();
  const run = await runProduct(node.init, ['run', '--config', config, '--out', join(out, 'results')], log);
  timings.run = (Date.now() - started) / 1000;
  await watches.stop();
  // Read even when the run failed, so the path, mTLS and CPU checks below still say what they saw.
  const written = join(out, 'results', 'results.json');
  if (existsSync(written)) result = JSON.parse(readFileSync(written, 'utf8')) as RunResult;
  assert.equal(run.code, 0, `mesh-perf run exited ${run.code}\n${run.stderr}\n${run.stdout.slice(-3000)}`);
  for (const mode of ['baseline', 'istio-ambient', 'linkerd']) {
    for (const rep of repetitionsOf(mode)) {
      assert.ok(rep.valid, `${mode}: ${rep.invalidReasons.join('; ')}`);
      assert.equal(rep.failures, 0, `${mode}: ${JSON.stringify(rep.errorCauses)}`);
      assert.ok(rep.achievedRps > RATE * 0.95, `${mode}: ${rep.achievedRps} rps`);
      const groups = Object.fromEntries((rep.resources ?? []).map((u) => [`${u.scope}/${u.group}`, u]));
      assert.ok(groups[`${mode}/app`]!.cpuMillicores.avg > 0, `${mode}: ${JSON.stringify(Object.keys(groups))}`);
      assert.ok(groups[`${mode}/client`]!.cpuMillicores.avg > 0);
      log(
        `${mode} rep ${rep.trial}: p50 ${rep.latencyMs!.p50} ms p99 ${rep.latencyMs!.p99} ms, ${rep.achievedRps} rps; ${Object.entries(
          groups,
        )
          .map(([k, u]) => `${k} ${u.cpuMillicores.avg}m`)
          .join(', ')}; path ${JSON.stringify(rep.path?.proxies.map((p) => [p.proxy, p.pods, p.count, p.mtls]))}`,
      );
    }
  }
  const environment = result.run.environment as Record<string, any>;
  assert.equal(environment.nodes.count, 1);
  assert.equal(environment.placement?.sharedNode, NODE_NAME);
  assert.equal(environment.meshes.istio.installedByMeshPerf, true);
  // The Linkerd that ran is the cached CLI's (its images carry that tag), not the product's pin.
  assert.equal(environment.meshes.linkerd.version, linkerdVersion());
  assert.equal(environment.meshes.linkerd.installedByMeshPerf, true);
  assert.match(environment.images.running.baseline.echo, /^mesh-perf\.local\/fortio\/fortio:[\d.]+ \(image ID sha256:[0-9a-f]{64}\)$/);
  log(`run in ${timings.run.toFixed(1)} s`);
});

test('ambient for real: ztunnel counted the ambient mode’s connections (the product’s path evidence) and none of the baseline’s, over HBONE with SPIFFE identities and mTLS', () => {
  // MESH_PERF_REAL_CAPTURE=DIR keeps what the proxies served (test/fixtures/ztunnel/ and
  // test/fixtures/linkerd-proxy/ came from here).
  const capture = process.env.MESH_PERF_REAL_CAPTURE;
  const ztunnel = [...watches.ztunnel.pods.values()][0];
  assert.ok(ztunnel?.metrics, `no ztunnel metrics were scraped (${watches.ztunnel.scrapes} scrapes)`);
  if (capture) {
    writeFileSync(join(capture, 'ztunnel-metrics.txt'), ztunnel.metrics);
    writeFileSync(join(capture, 'ztunnel-access-log.txt'), ztunnel.logs ?? '');
    writeFileSync(join(capture, 'results.json'), JSON.stringify(result, null, 2));
  }
  const ambientNs =
    (result.run.environment as { namespaces?: Record<string, string> }).namespaces?.['istio-ambient'] ?? 'mesh-perf-istio-ambient';
  for (const rep of repetitionsOf('istio-ambient')) {
    const z = pathOf(rep, 'ztunnel');
    assert.ok(z && z.pods === 1 && z.count > 0, `ztunnel in the ambient path: ${JSON.stringify(rep.path)}`);
    assert.equal(z.mtls, z.count, 'every connection under mutual TLS');
    // Every request of the window crossed ztunnel: more bytes than k6's requests ever send.
    assert.ok(z.bytesReceived! > rep.requests * 50, `ztunnel received ${z.bytesReceived} bytes for ${rep.requests} requests`);
    assert.ok(
      z.peers.length > 0 && z.peers.every((p) => /^spiffe:\/\/cluster\.local\/ns\/[a-z0-9-]+\/sa\/[a-z0-9-]+$/.test(p)),
      z.peers.join(),
    );
  }
  // With an ambient mode in the run the product reads ztunnel for every mode: the others crossed none of it.
  for (const mode of ['baseline', 'linkerd'])
    for (const rep of repetitionsOf(mode)) assert.equal(pathOf(rep, 'ztunnel')?.count, 0, `${mode}: ${JSON.stringify(rep.path)}`);
  // What the product does not read: the destination's own principal, and HBONE in ztunnel's access log.
  const into = parsePrometheusText(ztunnel.metrics).filter(
    (s) => s.name === 'istio_tcp_connections_opened_total' && s.labels.destination_workload_namespace === ambientNs,
  );
  for (const s of into) assert.match(s.labels.destination_principal ?? '', new RegExp(`^spiffe://cluster\\.local/ns/${ambientNs}/sa/`));
  const hbone = (ztunnel.logs ?? '').split('\n').filter((l) => /dst\.addr=[\d.]+:15008/.test(l));
  assert.ok(hbone.length > 0, `no HBONE (:15008) connection in ztunnel's log:\n${(ztunnel.logs ?? '').slice(-2000)}`);
  assert.ok(
    hbone.some((l) => /src\.identity="spiffe:\/\/cluster\.local\/ns\//.test(l) && /dst\.identity="spiffe:\/\/cluster\.local\/ns\//.test(l)),
    hbone.slice(0, 3).join('\n'),
  );
});

test("ztunnel's CPU per 1000 rps is non-zero in the ambient mode and attributed to ztunnel, above what it spends during the other modes' load", () => {
  const ztunnelOf = (mode: string) =>
    repetitionsOf(mode).map((r) => (r.resources ?? []).find((u) => u.scope === 'istio-system' && u.group === 'ztunnel'));
  const ambient = ztunnelOf('istio-ambient');
  const others = [...ztunnelOf('baseline'), ...ztunnelOf('linkerd')];
  for (const usage of ambient) assert.ok(usage && usage.cpuPer1000Rps! > 0, JSON.stringify(usage));
  const avg = (list: typeof ambient) => list.reduce((n, u) => n + (u?.cpuMillicores.avg ?? 0), 0) / list.length;
  assert.ok(avg(ambient) > 3 * avg(others) + 5, `ztunnel ${avg(ambient)}m during ambient, ${avg(others)}m during the others`);
  log(
    `ztunnel: ${avg(ambient).toFixed(1)}m during ambient (${ambient.map((u) => u?.cpuPer1000Rps).join(', ')} m per 1000 rps), ${avg(others).toFixed(1)}m during the others`,
  );
});

test("Linkerd for real: linkerd-proxy counted the linkerd mode's requests under mTLS with the client's identity (the product's path evidence), and its counters rose in no other mode's repetition", () => {
  const capture = process.env.MESH_PERF_REAL_CAPTURE;
  const pods = [...watches.linkerd.pods.values()];
  const echo = pods.find((p) => p.pod.startsWith('echo-'));
  const client = pods.find((p) => p.pod.startsWith('mesh-perf-client'));
  assert.ok(
    echo && client,
    `linkerd-proxy scraped on ${pods.map((p) => p.pod).join(', ') || 'no pod'} (${watches.linkerd.scrapes} scrapes)`,
  );
  if (capture) {
    writeFileSync(join(capture, 'linkerd-proxy-echo-metrics.txt'), echo.metrics);
    writeFileSync(join(capture, 'linkerd-proxy-client-metrics.txt'), client.metrics);
  }
  const clientId = `default.${LINKERD_NS}.serviceaccount.identity.linkerd.cluster.local`;
  for (const rep of repetitionsOf('linkerd')) {
    const l = pathOf(rep, 'linkerd-proxy');
    assert.ok(l && l.pods === 1, `linkerd-proxy on the echo pod: ${JSON.stringify(rep.path)}`);
    // Every request of the window (warm-up's too) crossed the echo pod's proxy under mutual TLS,
    // and nothing else is counted (the kubelet's probes and reads of the proxy's own /metrics are
    // not the load: test/fixtures/linkerd-proxy/).
    assert.ok(l.mtls >= rep.requests, `linkerd-proxy counted ${l.mtls} mTLS requests for k6's ${rep.requests}`);
    assert.equal(l.plaintext, 0, `plaintext ${l.plaintext} of ${l.count}`);
    assert.equal(l.count, l.mtls);
    assert.deepEqual(l.peers, [clientId]);
  }
  for (const mode of ['baseline', 'istio-ambient'])
    for (const rep of repetitionsOf(mode))
      assert.equal(pathOf(rep, 'linkerd-proxy')?.count ?? 0, 0, `${mode}: ${JSON.stringify(rep.path)}`);
  // The counters over time, placed in each mode's measured window: both of the mode's proxies (the
  // client's outbound, the echo's inbound) rose at the load's rate in the linkerd repetition, by
  // nothing in the others'.
  for (const mode of ['baseline', 'istio-ambient', 'linkerd']) {
    for (const rep of repetitionsOf(mode)) {
      const from = Date.parse(rep.startedAt) + 2000;
      const to = Date.parse(rep.startedAt) + rep.durationS * 1000 - 2000;
      const followed: [PodView, string][] = [
        [echo, 'inboundMtls'],
        [client, 'outboundMtls'],
      ];
      for (const [pod, series] of followed) {
        const seen = riseWithin(pod, series, from, to);
        assert.ok(seen && seen.seconds > 30, `${mode}: ${pod.pod} scraped too seldom in its window (${JSON.stringify(seen)})`);
        const rate = seen.rise / seen.seconds;
        if (mode === 'linkerd') assert.ok(rate > RATE * 0.9, `${pod.pod} ${series}: ${rate.toFixed(1)}/s during the linkerd mode's load`);
        else assert.equal(seen.rise, 0, `${pod.pod} ${series} rose by ${seen.rise} during ${mode}'s load`);
      }
    }
  }
  // The client's proxy knew the server's identity (outbound, mutual TLS to the echo pod's proxy).
  assert.match(
    client.metrics,
    new RegExp(
      `request_total\\{direction="outbound"[^}]*tls="true",server_id="default\\.${LINKERD_NS}\\.serviceaccount\\.identity\\.linkerd\\.cluster\\.local"`,
    ),
  );
});

test("linkerd-proxy's CPU per 1000 rps is non-zero and attributed to the linkerd mode's sidecar group (the proxies in its echo and client pods), apart from the app and the client", () => {
  for (const rep of repetitionsOf('linkerd')) {
    const group = (name: string) => (rep.resources ?? []).find((u) => u.scope === 'linkerd' && u.group === name);
    const sidecar = group('sidecar');
    assert.ok(sidecar && sidecar.cpuPer1000Rps! > 0, JSON.stringify(rep.resources));
    assert.ok(sidecar.memoryMiB.avg > 0);
    assert.ok(group('app')!.cpuMillicores.avg > 0 && group('client')!.cpuMillicores.avg > 0);
    // Linkerd's control plane is its own group, not the mode's.
    assert.ok(
      (rep.resources ?? []).some((u) => u.scope === 'linkerd-system' || u.group === 'control-plane'),
      JSON.stringify(rep.resources?.map((u) => `${u.scope}/${u.group}`)),
    );
    log(`linkerd-proxy: ${sidecar.cpuMillicores.avg}m (${sidecar.cpuPer1000Rps} m per 1000 rps), ${sidecar.memoryMiB.avg} MiB`);
  }
  for (const mode of ['baseline', 'istio-ambient'])
    for (const rep of repetitionsOf(mode)) assert.equal((rep.resources ?? []).filter((u) => u.group === 'sidecar').length, 0, mode);
});

test('the A/B of two Linkerd proxy settings (namespace annotations as arms) is decided by the A/B gate: head (both proxies, mTLS) slower than base (the client proxy skipped), exit 1', async () => {
  const config = join(out, 'ab.yaml');
  const settings = nodeSettings() as { kubernetes: Record<string, unknown> };
  writeFileSync(
    config,
    stringify({
      suite: 'real-node-ab',
      ...settings,
      modes: [{ name: 'linkerd', arms: LINKERD_AB_ARMS }],
      // repetitions auto: 6 s + 2 s per arm and block; looks at 10 blocks, every 5 after, and where
      // the 10-minute budget ends (about 34 blocks at the measured pace). Most runs decide at 10 or
      // 15 blocks; the budget is for the rest. On the real node the per-block log(head ÷ base)
      // spreads by 0.23 (a CI run: 13 blocks from +13 % to +101 %, every one slower) and neighbours
      // can look alike, which widens the interval (dependence.ts). Resampling that run's blocks
      // (4,000 runs each), a 4-minute budget (13 blocks) failed the change in 88.5 % of runs (70.7 %
      // with AR(1) ρ 0.3 between blocks), 8 minutes in 99.9 % (97.5 %), 10 minutes in 100 %
      // (99.6 %). That CI run ended inconclusive at 13 blocks, which is why this is not 4 minutes.
      load: { rate: RATE },
      plan: { budget: { maxDuration: '10m' } },
      kubernetes: { ...settings.kubernetes, readyTimeout: '4m' },
    }),
  );
  const started = Date.now();
  const run = await runProduct(node.init, ['run', '--config', config, '--out', join(out, 'ab')], log);
  timings.ab = (Date.now() - started) / 1000;
  assert.equal(run.code, 1, `mesh-perf run exited ${run.code} (1: the A/B gate failed)\n${run.stderr}\n${run.stdout.slice(-3000)}`);
  const ab = JSON.parse(readFileSync(join(out, 'ab', 'results.json'), 'utf8')) as RunResult;
  const gate = ab.analysis!.ab!.gates.find((g) => g.mode === 'linkerd' && g.statistic === 'p50')!;
  assert.equal(gate.decision, 'fail', JSON.stringify(gate));
  // The gate fails a head shown slower (its interval above 0) and not shown within the minimum;
  // it does not promise the interval clears the minimum, which this change's (+29 to +60 % across
  // runs, over a 0.66 ms base) did in the morning's runs and missed in two CI runs of the afternoon
  // (low +4.7 % and +7.1 % against 7.6 %). So: shown slower, by an estimate beyond the minimum.
  assert.ok(gate.change.low > 0, `head shown slower: ${JSON.stringify(gate.change)}`);
  assert.ok(gate.change.value > gate.minimum, `head slower by more than the practical minimum: ${JSON.stringify(gate.change)}`);
  for (const arm of ['linkerd-base', 'linkerd-head'])
    for (const rep of ab.modes.find((m) => m.name === arm)!.repetitions) assert.ok(rep.valid, `${arm}: ${rep.invalidReasons.join('; ')}`);
  // What each arm's echo proxy counted says why: base's requests arrived in plaintext (no client
  // proxy), head's under mutual TLS.
  const evidence = (arm: string) => ab.modes.find((m) => m.name === arm)!.repetitions.map((r) => pathOf(r, 'linkerd-proxy')!);
  for (const l of evidence('linkerd-base')) assert.ok(l.plaintext > 0 && l.mtls === 0, JSON.stringify(l));
  for (const l of evidence('linkerd-head')) assert.ok(l.mtls > 0 && l.plaintext === 0, JSON.stringify(l));
  log(
    `A/B: ${gate.decision} at ${gate.pairs} blocks: p50 base ${gate.baseMs} ms, head ${gate.headMs} ms, change ${(gate.change.value * 100).toFixed(1)}% [${(gate.change.low * 100).toFixed(1)}%, ${(gate.change.high * 100).toFixed(1)}%], ${ab.analysis!.stopping?.reason ?? ''} in ${timings.ab.toFixed(0)} s`,
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
  assert.ok(leakCounterGone(), "the leak counter's own table is gone");
  // The counter's own table is gone too: the host's ruleset is exactly as before.
  assert.deepEqual(hostSnapshot(), before_);
  log(`down in ${timings.down.toFixed(1)} s; tier timings ${JSON.stringify(timings)}`);
  if (process.env.MESH_PERF_REAL_TIMINGS)
    writeFileSync(process.env.MESH_PERF_REAL_TIMINGS, `${JSON.stringify({ ...timings, actions: node.timings, log: lines }, null, 2)}\n`);
});
