// The real ztunnel's /metrics (test/fixtures/ztunnel/, captured on the real-node tier) read by the
// product's Prometheus text parser: the families and labels a reader of proxies' own counters
// relies on are there as a real ztunnel writes them (both reporters, mTLS, SPIFFE principals).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePrometheusText } from '../../../src/platform/kubernetes/resources/prometheus.ts';

const text = readFileSync(new URL('../../fixtures/ztunnel/metrics.txt', import.meta.url), 'utf8');

test("a real ztunnel's metrics: connection and byte counters per reporter, with mTLS and SPIFFE principals", () => {
  const samples = parsePrometheusText(text);
  const family = (name: string) => samples.filter((s) => s.name === name);
  for (const name of ['istio_tcp_connections_opened_total', 'istio_tcp_received_bytes_total', 'istio_tcp_sent_bytes_total']) {
    const series = family(name);
    assert.deepEqual(series.map((s) => s.labels.reporter).sort(), ['destination', 'source'], name);
    for (const s of series) {
      assert.ok(s.value > 0, `${name}: ${s.value}`);
      assert.equal(s.labels.connection_security_policy, 'mutual_tls');
      assert.equal(s.labels.source_principal, 'spiffe://cluster.local/ns/mesh-perf-istio-ambient/sa/default');
      assert.equal(s.labels.destination_principal, 'spiffe://cluster.local/ns/mesh-perf-istio-ambient/sa/default');
      assert.equal(s.labels.destination_workload_namespace, 'mesh-perf-istio-ambient');
      assert.equal(s.labels.destination_service, 'echo.mesh-perf-istio-ambient.svc.cluster.local');
    }
  }
  // Both ends of the one connection set count the same bytes.
  const [a, b] = family('istio_tcp_received_bytes_total');
  assert.equal(a!.value, b!.value);
  assert.equal(family('istio_build')[0]?.labels.component, 'ztunnel');
});
