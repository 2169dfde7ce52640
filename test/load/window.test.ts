// The measured window a repetition reports (for the resource sampler) against real k6 and a real
// HTTP server that notes when each request arrives: the window starts one warm-up after the
// first request and holds the measured scenario's requests, so kubelet samples can be kept to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { validateConfig } from '../../src/config/validate.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { runRepetition } from '../../src/load/engine.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { localK6Dir } from '../support/k8s/tools.ts';

test('the measured window of a real k6 run: one warm-up after the first request, holding the measured requests', {
  timeout: 60_000,
}, async () => {
  const arrivals: number[] = [];
  const server = createServer((_req, res) => {
    arrivals.push(Date.now());
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const config = validateConfig({
      platform: 'endpoints',
      modes: [{ name: 'a', url }],
      load: { rate: 100, duration: '3s', warmup: '2s', repetitions: 1 },
    });
    const trial = buildPlan(config, 1).trials[0]!;
    const run = await runRepetition(
      trial,
      { mode: 'a', url, env: {}, description: 'a' },
      new LocalK6Runner(join(localK6Dir(), 'k6')),
      () => {},
      new AbortController().signal,
      { generators: 1 },
    );
    const window = run.window!;
    assert.ok(window, 'the summary places the window');
    assert.equal(window.endMs - window.startMs, 3000);
    // Arrival-rate iterations start on a fixed schedule from each scenario's start.
    const offset = window.startMs - arrivals[0]!;
    assert.ok(Math.abs(offset - 2000) < 150, `window starts ${offset} ms after the first request`);
    const inside = arrivals.filter((t) => t >= window.startMs && t < window.endMs).length;
    assert.ok(
      Math.abs(inside - run.repetition.requests) <= 0.03 * run.repetition.requests,
      `${inside} requests arrived inside the window; k6 measured ${run.repetition.requests}`,
    );
  } finally {
    server.close();
  }
});
