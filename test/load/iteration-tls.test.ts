// Real k6 (the pinned version) against an HTTPS server on 127.0.0.1 that serves mesh-perf's own
// self-signed certificate, as the ingress gateway does with kubernetes.ingress.tls: k6 skips
// verification only when the target says its certificate is self-signed, and each repetition
// records k6's iteration_duration of the measured scenario beside the request durations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { validateConfig } from '../../src/config/validate.ts';
import { runRepetition } from '../../src/load/engine.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { selfSignedCertificate } from '../../src/platform/kubernetes/self-signed.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { silentLogger } from '../../src/util/log.ts';

const DELAY_MS = 15;

test('HTTPS with the self-signed certificate: verified by default, skipped for the gateway; iteration duration recorded', {
  timeout: 120_000,
}, async () => {
  const { certPem, keyPem } = selfSignedCertificate(['127.0.0.1']);
  let served = 0;
  const server = createServer({ cert: certPem, key: keyPem }, (_req, res) => {
    served++;
    setTimeout(() => res.end('ok'), DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const k6 = await ensureK6(silentLogger);
    const runner = new LocalK6Runner(k6.path);
    const config = validateConfig({
      platform: 'endpoints',
      modes: [{ name: 'gw', url }],
      load: { rate: 20, duration: '2s', warmup: '0s', repetitions: 1 },
    });
    const trial = buildPlan(config, 1).trials[0]!;
    const signal = new AbortController().signal;

    const verified = await runRepetition(trial, { mode: 'gw', url, env: {}, description: 'gateway' }, runner, () => {}, signal, {
      generators: 1,
    });
    assert.equal(served, 0, 'k6 verifies certificates unless told otherwise: no request may reach the server');
    assert.equal(verified.repetition.failures, verified.repetition.requests);

    const { repetition } = await runRepetition(
      trial,
      { mode: 'gw', url, env: {}, description: 'gateway', insecureTls: true },
      runner,
      () => {},
      signal,
      { generators: 1 },
    );
    assert.equal(repetition.failures, 0, JSON.stringify(repetition.statusCounts));
    assert.ok(repetition.requests >= 35, `${repetition.requests} requests`);
    assert.ok(served >= repetition.requests);
    const iteration = repetition.iterationMs;
    assert.ok(iteration, 'iterationMs recorded');
    // One request per iteration: the iteration lasts at least its request, which the server delays.
    assert.ok(iteration.p50 >= repetition.latencyMs!.p50, `iteration p50 ${iteration.p50} < request p50 ${repetition.latencyMs!.p50}`);
    assert.ok(iteration.p50 >= DELAY_MS && iteration.p95 >= iteration.p50 && iteration.max >= iteration.p95, JSON.stringify(iteration));
  } finally {
    server.close();
  }
});
