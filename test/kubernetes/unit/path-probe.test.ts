// The path probe reads each proxy's counters through the API server's pod proxy before and after a
// repetition (src/platform/kubernetes/mesh/path-probe.ts). A real HTTP server on 127.0.0.1 plays
// the API server: it lists one gateway pod and serves the gateway's metrics (the Envoy fixture),
// raised by the load between the two reads. A CI run at load 9 left the gateway counting none of
// a baseline's requests (mesh-paths.test.ts): one slow answer before the repetition dropped the pod
// from its evidence. A read that fails once is now asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import { ProxyPathProbe } from '../../../src/platform/kubernetes/mesh/path-probe.ts';
import { recordingLogger } from '../../support/k8s/harness.ts';
import { localApiAccess } from '../../support/k8s/local-api.ts';

const GATEWAY_METRICS = readFileSync(join(import.meta.dirname, '../../fixtures/proxy-metrics/envoy-gateway.txt'), 'utf8');
const BASELINE_SERIES = /destination_service_namespace="mp-baseline"/;

/** The fixture with the baseline's request counter raised by `by`. */
function raised(by: number): string {
  return GATEWAY_METRICS.split('\n')
    .map((line) =>
      BASELINE_SERIES.test(line) && !line.startsWith('#') ? line.replace(/ (\d+)$/, (_, v: string) => ` ${Number(v) + by}`) : line,
    )
    .join('\n');
}

interface FakeApi {
  access: ClusterAccess;
  /** Requests for the gateway pod's metrics so far. */
  metricsReads: () => number;
  close(): void;
}

/**
 * `dropMetricsReads`: which metrics reads (1-based) the server answers by destroying the
 * connection, as a pod proxy under load ends in a client-side error.
 */
async function fakeApi(state: { served: number }, dropMetricsReads: Set<number>): Promise<FakeApi> {
  let reads = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = request.url ?? '';
    if (url.startsWith('/api/v1/namespaces/mp-ingress/pods?')) {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          items: [
            {
              metadata: { name: 'mesh-perf-gateway-istio-0' },
              spec: { containers: [{ name: 'istio-proxy' }] },
              status: { phase: 'Running', podIP: '198.18.0.9' },
            },
          ],
        }),
      );
      return;
    }
    if (url === '/api/v1/namespaces/mp-ingress/pods/mesh-perf-gateway-istio-0:15090/proxy/stats/prometheus') {
      reads++;
      if (dropMetricsReads.has(reads)) {
        request.socket.destroy();
        return;
      }
      response.end(raised(state.served));
      return;
    }
    response.writeHead(404).end('{}');
  });
  const access = await localApiAccess(server);
  return { access, metricsReads: () => reads, close: () => server.close() };
}

async function measure(drop: number[]): Promise<{ evidence: Awaited<ReturnType<ProxyPathProbe['stop']>>; reads: number }> {
  const state = { served: 0 };
  const api = await fakeApi(state, new Set(drop));
  try {
    const probe = new ProxyPathProbe(api.access, {
      modes: { baseline: { kind: 'baseline', namespace: 'mp-baseline', gateway: { namespace: 'mp-ingress', name: 'mesh-perf-gateway' } } },
      log: recordingLogger(),
    });
    await probe.start('baseline');
    state.served = 300; // the repetition's load through the gateway
    const evidence = await probe.stop('baseline');
    return { evidence, reads: api.metricsReads() };
  } finally {
    api.close();
  }
}

test("a gateway read that fails once before the repetition is asked again: the gateway's count is the repetition's requests", async () => {
  const { evidence, reads } = await measure([1]);
  const gateway = evidence!.proxies.find((p) => p.proxy === 'gateway')!;
  assert.equal(gateway.count, 300, JSON.stringify(evidence));
  assert.equal(evidence!.problems, undefined);
  assert.equal(reads, 3);
});

test('a read that fails twice is a problem named with the pod, and the pod is left out of the evidence rather than counted from zero', async () => {
  const { evidence, reads } = await measure([1, 2]);
  const gateway = evidence!.proxies.find((p) => p.proxy === 'gateway')!;
  assert.equal(gateway.count, 0);
  assert.equal(gateway.pods, 0);
  assert.match(evidence!.problems!.join('\n'), /^gateway pod mp-ingress\/mesh-perf-gateway-istio-0: /m);
  assert.equal(reads, 3);
});
