// gRPC unary through k6/net/grpc against Fortio's real ping service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, withTempDir } from '../support/cli.ts';
import { startFortio } from '../support/fortio.ts';

test('gRPC ping against Fortio: status codes, latency, timeline', { timeout: 120_000 }, async () => {
  const fortio = await startFortio();
  try {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'mesh-perf.yaml'),
        `platform: endpoints
modes:
  - name: fortio
    grpc: 127.0.0.1:${fortio.grpcPort}
load: { rate: 100, duration: 3s, warmup: 1s, repetitions: 2, protocol: grpc, payloadBytes: 32 }
`,
      );
      const run = await runCli(['run', '--out', 'out'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
      for (const rep of results.modes[0].repetitions) {
        assert.equal(rep.valid, true, rep.invalidReasons.join('; '));
        assert.equal(rep.statusCounts['0'], rep.requests, 'every call returned gRPC OK (0)');
        assert.equal(rep.failures, 0);
        assert.ok(rep.requests >= 297 && rep.requests <= 303, `requests ${rep.requests}`);
        assert.ok(rep.latencyMs.p50 > 0);
        assert.equal(rep.timeline.length, 3);
      }
    });
  } finally {
    await fortio.stop();
  }
});

test('a gRPC address with nothing listening is an environment error (exit 3)', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: endpoints\nmodes: [{ name: x, grpc: "127.0.0.1:1" }]\nload: { rate: 10, duration: 1s, protocol: grpc }\n`,
    );
    const run = await runCli(['run'], { cwd: dir });
    assert.equal(run.code, 3);
    assert.match(run.stderr, /modes \(x\)\.grpc: 127\.0\.0\.1:1 is unreachable/);
  });
});
