// The vegeta-style block against vegeta itself: a real vegeta 12.13.0 attack on a local HTTP
// server, its JSON metrics fed to our renderer, and the result compared with `vegeta report`'s
// own text, line by line. Not compared: the Duration line (we leave it out) and throughput,
// which vegeta divides by attack time + wait and we by the measured window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cachedToolPath } from '../../src/tools/cache.ts';
import { renderVegetaBlock } from '../../src/report/formats/vegeta.ts';
import { rep } from './fixture.ts';

const run = promisify(execFile);
// Built by scripts/install-test-tools.sh (go install github.com/tsenart/vegeta/v12@v12.13.0).
const VEGETA = cachedToolPath('vegeta', '12.13.0');

interface VegetaJson {
  latencies: Record<'min' | 'mean' | '50th' | '90th' | '95th' | '99th' | 'max', number>;
  bytes_in: { total: number };
  bytes_out: { total: number };
  duration: number;
  requests: number;
  success: number;
  status_codes: Record<string, number>;
}

test('vegeta block: same text as `vegeta report` for the same attack', { timeout: 60_000 }, async () => {
  assert.ok(existsSync(VEGETA), `vegeta not found at ${VEGETA}; run scripts/install-test-tools.sh`);
  let count = 0;
  // Every 7th request fails with 503, so status codes, success ratio and the error set are exercised.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(count % 7 === 0 ? 503 : 200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(count % 7 === 0 ? 19 : 615));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-vegeta-'));
  try {
    const port = (server.address() as AddressInfo).port;
    const targets = join(dir, 'targets.txt');
    const results = join(dir, 'results.bin');
    await writeFile(targets, `POST http://127.0.0.1:${port}/\n@${join(dir, 'body.json')}\n`);
    await writeFile(join(dir, 'body.json'), '{"x":"y"}');
    await run(VEGETA, ['attack', '-rate=50', '-duration=2s', `-targets=${targets}`, `-output=${results}`], { timeout: 30_000 });
    const text = (await run(VEGETA, ['report', '-type=text', results])).stdout;
    const json = JSON.parse((await run(VEGETA, ['report', '-type=json', results])).stdout) as VegetaJson;

    const ms = (ns: number) => ns / 1e6;
    const successes = Math.round(json.success * json.requests);
    const ours = renderVegetaBlock(
      rep({
        durationS: json.duration / 1e9,
        requests: json.requests,
        failures: json.requests - successes,
        statusCounts: json.status_codes,
        bytesReceived: json.bytes_in.total,
        bytesSent: json.bytes_out.total,
        latencyMs: {
          min: ms(json.latencies.min),
          mean: ms(json.latencies.mean),
          p50: ms(json.latencies['50th']),
          p90: ms(json.latencies['90th']),
          p95: ms(json.latencies['95th']),
          p99: ms(json.latencies['99th']),
          max: ms(json.latencies.max),
        },
      }),
    );
    const theirs = text
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '' && !l.startsWith('Duration'));
    const mine = ours.split('\n').filter((l) => l !== '');
    assert.equal(mine.length, theirs.length, `ours:\n${ours}\nvegeta:\n${text}`);
    mine.forEach((line, i) => {
      if (line.startsWith('Requests')) {
        // total and rate must agree; throughput is defined differently (see above).
        assert.equal(line.split(',').slice(0, 2).join(','), theirs[i]!.split(',').slice(0, 2).join(','));
      } else {
        assert.equal(line, theirs[i], `line ${i + 1}`);
      }
    });
    assert.match(ours, /^503 Service Unavailable$/m);
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
