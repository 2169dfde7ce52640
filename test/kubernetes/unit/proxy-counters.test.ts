// Reading what a mesh's proxies counted for a mode's traffic (src/platform/kubernetes/mesh/
// proxy-counters.ts), over metrics written from the upstream sources in their exact format
// (test/fixtures/proxy-metrics/README.md says from which lines; not captured from a real proxy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  envoyTraffic,
  expectedProxies,
  linkerdProxyTraffic,
  pathContradictions,
  pathInvalidReasons,
  trafficIncrease,
  trafficOf,
  ztunnelTraffic,
  type TrafficSeries,
} from '../../../src/platform/kubernetes/mesh/proxy-counters.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/proxy-metrics', name), 'utf8');

/** The same text with every counter of the namespace's series raised by `by` (a later read). */
function later(text: string, match: RegExp, by: number): string {
  return text
    .split('\n')
    .map((line) => (match.test(line) && !line.startsWith('#') ? line.replace(/ (\d+)$/, (_, v: string) => ` ${Number(v) + by}`) : line))
    .join('\n');
}

test('ztunnel: connections into the namespace as its destination reported them, with bytes, mTLS and the client identity', () => {
  const series = ztunnelTraffic(fixture('ztunnel.txt'), 'mp-ambient');
  // The source-side series and the other namespace's are not this namespace's inbound.
  assert.equal(series.length, 2);
  const mtls = series.find((s) => s.mtls)!;
  assert.equal(mtls.count, 24);
  assert.equal(mtls.bytes, 1843200);
  assert.equal(mtls.peer, 'spiffe://cluster.local/ns/mp-ambient/sa/default');
  const plaintext = series.find((s) => !s.mtls)!;
  assert.deepEqual([plaintext.count, plaintext.bytes, plaintext.peer], [2, 1200, undefined]);
  assert.equal(ztunnelTraffic(fixture('ztunnel.txt'), 'mp-waypoint')[0]!.peer, 'spiffe://cluster.local/ns/mp-waypoint/sa/waypoint');
  assert.deepEqual(ztunnelTraffic(fixture('ztunnel.txt'), 'mp-baseline'), []);
});

test("a real ztunnel's /metrics (captured on the real-node tier, test/fixtures/ztunnel/): the ambient namespace's connections, bytes, mTLS and client identity; none for the baseline", () => {
  const real = readFileSync(join(import.meta.dirname, '../../fixtures/ztunnel/metrics.txt'), 'utf8');
  const series = ztunnelTraffic(real, 'mesh-perf-istio-ambient');
  // The destination's series only (the source-side one is the client's ztunnel's).
  assert.deepEqual(
    series.map((s) => [s.count, s.bytes, s.mtls, s.peer]),
    [[200, 2730210, true, 'spiffe://cluster.local/ns/mesh-perf-istio-ambient/sa/default']],
  );
  assert.deepEqual(ztunnelTraffic(real, 'mesh-perf-baseline'), []);
  const rose = trafficIncrease('ztunnel', new Map(), new Map([['ztunnel-x', series]]));
  assert.deepEqual([rose.count, rose.mtls, rose.plaintext, rose.bytesReceived], [200, 200, 0, 2730210]);
});

test("Envoy: a sidecar's inbound (reporter destination), a waypoint's, a gateway's outbound (reporter source)", () => {
  const sidecar = envoyTraffic(fixture('envoy-sidecar.txt'), 'mp-sidecar', 'destination');
  assert.deepEqual(
    sidecar.map((s) => [s.count, s.mtls, s.peer]),
    [
      [6000, true, 'spiffe://cluster.local/ns/mp-sidecar/sa/default'],
      [4, true, 'spiffe://cluster.local/ns/mp-sidecar/sa/default'],
      [7, false, undefined],
    ],
  );
  // Histogram lines and the sidecar's own outbound requests are not counted.
  assert.equal(envoyTraffic(fixture('envoy-sidecar.txt'), 'mp-other', 'destination').length, 0);
  const waypoint = envoyTraffic(fixture('envoy-waypoint.txt'), 'mp-waypoint', 'waypoint');
  assert.deepEqual(
    waypoint.map((s) => [s.count, s.mtls, s.peer]),
    [[5998, true, 'spiffe://cluster.local/ns/mp-ingress/sa/mesh-perf-gateway-istio']],
  );
  // A gateway's side cannot tell mutual TLS (istio_stats.cc leaves it unknown for a client).
  const gateway = envoyTraffic(fixture('envoy-gateway.txt'), 'mp-waypoint', 'source');
  assert.deepEqual(
    gateway.map((s) => [s.count, s.mtls]),
    [[6001, undefined]],
  );
  assert.equal(trafficOf('gateway', fixture('envoy-gateway.txt'), 'mp-baseline')[0]!.count, 5990);
});

test('linkerd-proxy: inbound requests, mutual TLS with the client id, the kubelet probe as plaintext', () => {
  const series = linkerdProxyTraffic(fixture('linkerd-proxy.txt'));
  assert.deepEqual(
    series.map((s) => [s.count, s.mtls, s.peer]),
    [
      [6012, true, 'default.mp-linkerd.serviceaccount.identity.linkerd.cluster.local'],
      [31, false, undefined],
    ],
  );
});

test('the increase between two reads, summed over pods: new series and pods count from zero, a reset counts from zero', () => {
  const text = fixture('envoy-sidecar.txt');
  const before = new Map<string, TrafficSeries[]>([
    ['echo-a', trafficOf('sidecar', text, 'mp-sidecar')],
    ['echo-gone', trafficOf('sidecar', text, 'mp-sidecar')],
  ]);
  const after = new Map<string, TrafficSeries[]>([
    ['echo-a', trafficOf('sidecar', later(text, /reporter="destination".*connection_security_policy="mutual_tls"/, 100), 'mp-sidecar')],
    // A pod scaled up between the reads: all its counts are the repetition's.
    ['echo-b', [{ key: 'k', count: 50, mtls: true, peer: 'spiffe://cluster.local/ns/mp-sidecar/sa/default' }]],
  ]);
  const increase = trafficIncrease('sidecar', before, after);
  assert.deepEqual(increase, {
    proxy: 'sidecar',
    pods: 2,
    unit: 'requests',
    count: 250,
    mtls: 250,
    plaintext: 0,
    peers: ['spiffe://cluster.local/ns/mp-sidecar/sa/default'],
  });
  // A counter lower than before: the pod restarted, its count is all new.
  const reset = trafficIncrease(
    'sidecar',
    new Map([['p', [{ key: 'k', count: 900, mtls: false }]]]),
    new Map([['p', [{ key: 'k', count: 30, mtls: false }]]]),
  );
  assert.deepEqual([reset.count, reset.plaintext, reset.mtls], [30, 30, 0]);
  // ztunnel's bytes rise with its connections.
  const z = fixture('ztunnel.txt');
  const zAfter = later(z, /reporter="destination".*destination_workload_namespace="mp-ambient".*mutual_tls/, 4096);
  const rose = trafficIncrease(
    'ztunnel',
    new Map([['zt', ztunnelTraffic(z, 'mp-ambient')]]),
    new Map([['zt', ztunnelTraffic(zAfter, 'mp-ambient')]]),
  );
  assert.deepEqual([rose.unit, rose.count, rose.mtls, rose.bytesReceived], ['connections', 4096, 4096, 4096]);
});

test("which proxies a mode's traffic crosses, and what contradicts it", () => {
  assert.deepEqual(expectedProxies('istio-waypoint', true), ['gateway', 'waypoint', 'ztunnel']);
  assert.deepEqual(expectedProxies('istio-sidecar', false), ['sidecar']);
  assert.deepEqual(expectedProxies('linkerd', false), ['linkerd-proxy']);
  assert.deepEqual(expectedProxies('baseline', false), []);
  assert.deepEqual(expectedProxies('baseline', true), ['gateway']);
  const p = (proxy: 'ztunnel' | 'waypoint' | 'gateway', count: number, pods = 1) => ({
    proxy,
    pods,
    unit: 'requests' as const,
    count,
    mtls: count,
    plaintext: 0,
    peers: [],
  });
  // The bypass of issue 38 item 3: through the gateway, around the waypoint.
  assert.deepEqual(pathContradictions('istio-waypoint', true, [p('gateway', 6000), p('waypoint', 0), p('ztunnel', 12)]), [
    'waypoint counted none of its traffic',
  ]);
  // A baseline whose namespace ambient captured after all.
  assert.deepEqual(pathContradictions('baseline', false, [p('ztunnel', 12)]), [
    'ztunnel counted 12 requests of its traffic, which a baseline mode does not cross',
  ]);
  // No pods to read (no ztunnel in the cluster): nothing to say from them.
  assert.deepEqual(pathContradictions('istio-ambient', false, [p('ztunnel', 0, 0)]), []);
});

test("a repetition is invalid only when its proxies' counters leave no doubt it took another path", () => {
  const p = (
    proxy: 'gateway' | 'waypoint' | 'ztunnel' | 'sidecar',
    count: number,
    pods = 1,
    unit: 'requests' | 'connections' = 'requests',
  ) => ({
    proxy,
    pods,
    unit,
    count,
    mtls: count,
    plaintext: 0,
    peers: [],
  });
  // The waypoint bypassed through the gateway (issue 38 item 3): the waypoint's zero decides.
  assert.deepEqual(
    pathInvalidReasons('istio-waypoint', true, 6000, {
      proxies: [p('gateway', 6000), p('waypoint', 0), p('ztunnel', 12, 1, 'connections')],
    }),
    [
      "the traffic did not cross its waypoint: 1 waypoint pod counted none of its 6000 requests (the proxies' own counters, repetitions[].path)",
    ],
  );
  // A baseline ambient captured: one ztunnel connection is enough; an injected sidecar needs a tenth of the requests.
  assert.deepEqual(pathInvalidReasons('baseline', false, 6000, { proxies: [p('ztunnel', 3, 1, 'connections')] }), [
    "the mesh captured the traffic of a baseline mode: ztunnel counted 3 connections of it (the proxies' own counters, repetitions[].path)",
  ]);
  assert.deepEqual(pathInvalidReasons('baseline', false, 6000, { proxies: [p('sidecar', 599)] }), []);
  assert.equal(pathInvalidReasons('baseline', false, 6000, { proxies: [p('sidecar', 600)] }).length, 1);
  // Nothing judged from a zero when a pod could not be read, when no pod was there, or on a run too short to prove it.
  assert.deepEqual(
    pathInvalidReasons('istio-ambient', false, 6000, {
      proxies: [p('ztunnel', 0, 1, 'connections')],
      problems: ['ztunnel pod istio-system/z: HTTP 403'],
    }),
    [],
  );
  assert.deepEqual(pathInvalidReasons('istio-ambient', false, 6000, { proxies: [p('ztunnel', 0, 0, 'connections')] }), []);
  assert.deepEqual(pathInvalidReasons('istio-ambient', false, 49, { proxies: [p('ztunnel', 0, 1, 'connections')] }), []);
  // A partial count is the log's to mention, not a reason to drop the figures; an ingress gateway outside a mode's path says nothing.
  assert.deepEqual(
    pathInvalidReasons('linkerd', true, 6000, {
      proxies: [p('gateway', 6000), { ...p('sidecar', 5400), proxy: 'linkerd-proxy' as const }],
    }),
    [],
  );
});
