// Failed requests never pass: real k6 against small real HTTP servers that fail in each way a
// service can (the "Bad input"). Each run is short (2–3 s at a low rate) and asserts the
// verdict, the exit code, the one-line cause and that results were written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, withTempDir, type CliResult } from '../support/cli.ts';
import { schemaProblems } from '../support/schema.ts';
import type { RunResult } from '../../src/results/types.ts';

// These tests read whole lines of the CLI's output; wrapping to the terminal is tested in
// test/report/terminal-width.test.ts.
process.env.COLUMNS = '1000';

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function runAgainst(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  load: string,
): Promise<{ run: CliResult; results: RunResult; output: string; summary: string; report: string }> {
  const server = await serve(handler);
  try {
    return await withTempDir(async (dir) => {
      await writeFile(join(dir, 'mesh-perf.yaml'), `platform: endpoints\nmodes:\n  - name: svc\n    url: ${server.url}\nload:\n${load}`);
      const run = await runCli(['run', '--out', 'out'], { cwd: dir, timeoutMs: 90_000 });
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8')) as RunResult;
      assert.deepEqual(schemaProblems(results), [], 'results.json matches its schema');
      const summary = await readFile(join(dir, 'out/summary.md'), 'utf8');
      const report = await readFile(join(dir, 'out/report.html'), 'utf8');
      return { run, results, output: `${run.stdout}\n${run.stderr}`, summary, report };
    });
  } finally {
    await server.close();
  }
}

const SHORT = '  rate: 50\n  duration: 2s\n  warmup: 0s\n  repetitions: 1\n';

test('a target answering HTTP 500 to everything fails with exit 1, "—" latency and the cause', { timeout: 120_000 }, async () => {
  const { run, results, output, summary, report } = await runAgainst((_req, res) => {
    res.statusCode = 500;
    res.end('boom');
  }, SHORT);
  assert.equal(run.code, 1, output);
  assert.equal(results.verdict, 'fail');
  const rep = results.modes[0]!.repetitions[0]!;
  assert.equal(rep.latencyMs, null, 'no successful request: no latency');
  assert.equal(rep.failures, rep.requests);
  assert.ok(rep.failedLatencyMs, 'failed requests keep their own latency');
  assert.match(output, /svc \[50rps\]: 100(\.0)?% of requests failed \(\d+ of \d+\), above load\.maxErrorRate 1\.00%: HTTP 500 × [\d,]+/);
  assert.match(run.stdout, /^svc +— +— +— +— +—/m, 'latency cells read "—", never 0');
  assert.match(summary, /\| — \| — \| — \| — \|.*\| 🔴 100\.0% \|/, 'summary.md: no latency, errors marked red');
  assert.match(summary, /🔴 Failed requests[\s\S]*svc \[50rps\]: 100\.0% of requests failed: HTTP 500 × [\d,]+/);
  assert.match(
    report,
    /<td class="errors">\d+<br><span class="ci">HTTP 500 × [\d,]+<\/span><\/td><td>—<\/td>/,
    'report.html: failures red with causes, latency "—"',
  );
});

test('30% HTTP 503 fails the error gate and names the status; latency is over the successes', { timeout: 120_000 }, async () => {
  let n = 0;
  const { run, results, output } = await runAgainst((_req, res) => {
    res.statusCode = n++ % 10 < 3 ? 503 : 200;
    res.end('ok');
  }, SHORT);
  assert.equal(run.code, 1, output);
  assert.equal(results.verdict, 'fail');
  const rep = results.modes[0]!.repetitions[0]!;
  assert.ok(Math.abs(rep.errorRate - 0.3) < 0.05, `error rate ${rep.errorRate}`);
  assert.ok(rep.latencyMs && rep.latencyMs.p50 > 0);
  assert.equal(rep.statusCounts['503'], rep.failures);
  assert.match(output, /svc \[50rps\]: 3\d\.\d% of requests failed .*: HTTP 503 × [\d,]+/);
});

test('the same 30% passes when load.maxErrorRate allows it', { timeout: 120_000 }, async () => {
  let n = 0;
  const { run, results, output } = await runAgainst((_req, res) => {
    res.statusCode = n++ % 10 < 3 ? 503 : 200;
    res.end('ok');
  }, `${SHORT}  maxErrorRate: 0.5\n`);
  assert.equal(run.code, 0, output);
  assert.equal(results.verdict, 'pass');
  assert.match(run.stdout, /svc \[50rps\]: 3\d\.\d% of requests failed: HTTP 503 × [\d,]+ \(latency is over successful requests only\)/);
});

test('a target that resets every connection fails with exit 1 naming the network error', { timeout: 120_000 }, async () => {
  const { run, results, output } = await runAgainst((req) => req.socket.resetAndDestroy(), SHORT);
  assert.equal(run.code, 1, output);
  assert.equal(results.verdict, 'fail');
  const rep = results.modes[0]!.repetitions[0]!;
  assert.equal(rep.latencyMs, null);
  assert.ok(rep.errorCauses && Object.keys(rep.errorCauses).length > 0, JSON.stringify(rep.statusCounts));
  assert.match(output, /svc \[50rps\]: 100(\.0)?% of requests failed .*: (connection reset|network error|other network error) × [\d,]+/);
});

test('a target hanging past the timeout fails with exit 1 and is named a timeout, not scheduling trouble', {
  timeout: 120_000,
}, async () => {
  const { run, results, output } = await runAgainst((_req, res) => {
    setTimeout(() => res.end('late'), 2000).unref();
  }, '  rate: 20\n  duration: 2s\n  warmup: 0s\n  repetitions: 1\n  timeout: 1s\n');
  assert.equal(run.code, 1, output);
  assert.equal(results.verdict, 'fail');
  assert.match(output, /svc \[20rps\]: 100(\.0)?% of requests failed .*: timeout × [\d,]+/);
  assert.doesNotMatch(output, /could not start requests on schedule/);
});

test('1-byte and 10 MB responses pass with exit 0 and no errors', { timeout: 120_000 }, async () => {
  const tiny = await runAgainst((_req, res) => res.end('x'), SHORT);
  assert.equal(tiny.run.code, 0, tiny.output);
  assert.equal(tiny.results.verdict, 'pass');
  assert.equal(tiny.results.modes[0]!.repetitions[0]!.failures, 0);
  const body = Buffer.alloc(10 * 1024 * 1024, 120);
  const big = await runAgainst((_req, res) => res.end(body), '  rate: 5\n  duration: 2s\n  warmup: 0s\n  repetitions: 1\n');
  assert.equal(big.run.code, 0, big.output);
  assert.equal(big.results.verdict, 'pass');
  const rep = big.results.modes[0]!.repetitions[0]!;
  assert.equal(rep.failures, 0);
  assert.ok(rep.bytesReceived >= 10 * 1024 * 1024 * 9, `received ${rep.bytesReceived}`);
});

test("a user's own script against a failing target fails the error gate with its causes too", { timeout: 120_000 }, async () => {
  let n = 0;
  const server = await serve((req, res) => {
    if (++n % 4 === 0) return req.socket.resetAndDestroy();
    res.statusCode = 503;
    res.end('down');
  });
  try {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 's.js'),
        "import http from 'k6/http';\nexport const options = { vus: 2, duration: '2s' };\nexport default function () { http.get(__ENV.TARGET); }\n",
      );
      await writeFile(
        join(dir, 'mesh-perf.yaml'),
        `platform: endpoints\nmodes:\n  - name: svc\n    env: { TARGET: "${server.url}" }\nload:\n  script: ./s.js\n  repetitions: 1\n  warmup: 0s\n`,
      );
      const run = await runCli(['run', '--out', 'out'], { cwd: dir, timeoutMs: 90_000 });
      const output = `${run.stdout}\n${run.stderr}`;
      assert.equal(run.code, 1, output);
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8')) as RunResult;
      const rep = results.modes[0]!.repetitions[0]!;
      assert.equal(rep.latencyMs, null);
      assert.equal(rep.scriptThresholds, undefined, "the wrapper's own always-true thresholds are not the script's");
      assert.match(
        output,
        /svc \[script\]: 100(\.0)?% of requests failed .*: HTTP 503 × [\d,]+; (connection reset|network error|other network error) × [\d,]+/,
      );
    });
  } finally {
    await server.close();
  }
});
