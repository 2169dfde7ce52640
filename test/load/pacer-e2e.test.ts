// mesh-perf's pacer as a user meets it, with real k6 (the pinned stock build and the build with
// k6ext/, scripts/install-test-tools.sh) against real servers, through `mesh-perf run`:
// the open-model HTTP profile runs on the pacer when the k6 has it and on k6's executor when it
// has not (load.pacer auto) or when told (off); load.pacer on with a stock k6 exits 3 naming it;
// a rate the pacer cannot hold is counted and the repetition invalid, as with k6's executor; a
// user's own script behaves on the pacer's k6 exactly as on stock k6.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { PACER_VERSION } from '../../src/load/pacer-params.ts';
import { startServer } from '../../src/platform/processes.ts';
import type { RunResult } from '../../src/results/types.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { pacerK6Path } from '../../src/tools/k6-pacer.ts';
import { silentLogger } from '../../src/util/log.ts';
import { runCli, withTempDir } from '../support/cli.ts';

process.env.COLUMNS = '1000';

async function run(dir: string, yaml: string, k6: string) {
  await writeFile(join(dir, 'mesh-perf.yaml'), yaml);
  const cli = await runCli(['run', '--out', 'out'], { cwd: dir, env: { K6_PATH: k6 } });
  const results = await readFile(join(dir, 'out/results.json'), 'utf8').then(
    (text) => JSON.parse(text) as RunResult,
    () => undefined,
  );
  return { ...cli, results };
}

const endpoints = (port: number, load: string) =>
  `platform: endpoints\nmodes: [{ name: echo, url: "http://127.0.0.1:${port}/" }]\nload: { ${load} }\n`;

test('auto runs the open-model profile on the pacer when the k6 has it, on k6’s executor when not; off keeps k6’s', {
  timeout: 120_000,
}, async () => {
  const echo = await startServer('echo', [], 'echo');
  const stock = (await ensureK6(silentLogger, { pacer: false })).path;
  try {
    await withTempDir(async (dir) => {
      const load = 'rate: 200, duration: 2s, warmup: 1s, repetitions: 1';
      const paced = await run(dir, endpoints(echo.port, load), pacerK6Path());
      assert.equal(paced.code, 0, paced.stderr + paced.stdout);
      assert.equal(paced.results!.run.tools['k6 pacer'], PACER_VERSION);
      const rep = paced.results!.modes[0]!.repetitions[0]!;
      assert.ok(rep.valid, rep.invalidReasons.join('; '));
      assert.equal(rep.requests, 400, 'every arrival of the measured schedule (200 rps × 2 s)');
      assert.equal(rep.droppedIterations, 0);
      assert.ok(rep.lateSends && rep.lateSends.maxLagMs >= 0, JSON.stringify(rep.lateSends));
      assert.ok(rep.timeline.length === 2 && rep.iterationMs, 'the timeline and iteration duration, as on k6’s executor');

      const fallback = await run(dir, endpoints(echo.port, load), stock);
      assert.equal(fallback.code, 0, fallback.stderr + fallback.stdout);
      assert.match(
        fallback.stderr + fallback.stdout,
        /is a k6 without mesh-perf's pacer \(k6\/x\/meshperf\): the open-model HTTP profiles run on k6's arrival-rate executor/,
      );
      assert.equal(fallback.results!.run.tools['k6 pacer'], undefined);
      // k6's executor also starts the arrival due as the scenario ends when its timer wins that race.
      assert.ok([400, 401].includes(fallback.results!.modes[0]!.repetitions[0]!.requests));
      assert.equal(fallback.results!.modes[0]!.repetitions[0]!.lateSends, undefined);

      const off = await run(dir, endpoints(echo.port, `${load}, pacer: off`), pacerK6Path());
      assert.equal(off.code, 0, off.stderr + off.stdout);
      assert.equal(off.results!.run.tools['k6 pacer'], undefined);
      assert.doesNotMatch(off.stderr + off.stdout, /pacer/);
    });
  } finally {
    await echo.stop();
  }
});

test('load.pacer: on with a stock k6 exits 3 naming the k6 and how to get the pinned one', { timeout: 60_000 }, async () => {
  const stock = (await ensureK6(silentLogger, { pacer: false })).path;
  const echo = await startServer('echo', [], 'echo');
  await withTempDir(async (dir) => {
    const result = await run(dir, endpoints(echo.port, 'rate: 50, duration: 1s, warmup: 0s, repetitions: 1, pacer: on'), stock);
    assert.equal(result.code, 3, result.stderr + result.stdout);
    assert.match(
      result.stderr,
      new RegExp(
        `load\\.pacer is "on" \\(profile "50rps"\\), but the k6 at ${stock.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is a k6 without mesh-perf's pacer`,
      ),
    );
    assert.match(result.stderr, /unset K6_PATH so mesh-perf uses its pinned k6, which has the pacer/);
  }).finally(() => echo.stop());
});

test('a rate the pacer cannot hold: the arrivals it could not send are counted and the repetition is invalid', {
  timeout: 120_000,
}, async () => {
  // 200 ms per response at 100 rps needs 20 requests in flight; load.vus 4 allows 4 workers.
  const slow = await startServer('echo', ['--delay-ms', '200'], 'slow echo');
  try {
    await withTempDir(async (dir) => {
      const result = await run(dir, endpoints(slow.port, 'rate: 100, duration: 2s, warmup: 0s, repetitions: 1, vus: 4'), pacerK6Path());
      assert.equal(result.code, 3, result.stderr + result.stdout);
      assert.equal(result.results!.verdict, 'invalid');
      assert.equal(result.results!.run.tools['k6 pacer'], PACER_VERSION);
      const rep = result.results!.modes[0]!.repetitions[0]!;
      assert.equal(rep.valid, false);
      // 4 workers, each a request per 200 ms: about 40 of the 200 arrivals sent, the rest dropped.
      assert.equal(rep.requests + rep.droppedIterations, 200, `${rep.requests} sent + ${rep.droppedIterations} dropped`);
      assert.ok(rep.droppedIterations > 100, `${rep.droppedIterations} dropped`);
      assert.match(rep.invalidReasons.join('\n'), /dropped iterations: the load generator could not start requests on schedule/);
    });
  } finally {
    await slow.stop();
  }
});

/** A user's own script with a fixed amount of work (40 iterations), its own threshold and summary. */
const USER_SCRIPT = `import http from 'k6/http';
export const options = {
  scenarios: { mine: { executor: 'shared-iterations', iterations: 40, vus: 2, maxDuration: '30s' } },
  thresholds: { http_req_failed: ['rate<0.01'] },
};
export default function () { http.get(__ENV.TARGET); }
export function handleSummary(data) { return { 'mine.txt': 'iterations ' + data.metrics.iterations.values.count + '\\n' }; }
`;

test("a user's own script behaves on the pacer's k6 as on stock k6", { timeout: 120_000 }, async () => {
  const echo = await startServer('echo', [], 'echo');
  const stock = (await ensureK6(silentLogger, { pacer: false })).path;
  try {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'mine.js'), USER_SCRIPT);
      const yaml = `platform: endpoints\nmodes: [{ name: echo, env: { TARGET: "http://127.0.0.1:${echo.port}/" } }]\nload: { script: ./mine.js, repetitions: 1, warmup: 0s }\n`;
      const seen: Record<string, unknown>[] = [];
      for (const k6 of [stock, pacerK6Path()]) {
        const result = await run(dir, yaml, k6);
        assert.equal(result.code, 0, result.stderr + result.stdout);
        const rep = result.results!.modes[0]!.repetitions[0]!;
        seen.push({
          pacer: result.results!.run.tools['k6 pacer'],
          requests: rep.requests,
          dropped: rep.droppedIterations,
          thresholds: rep.scriptThresholds,
          summary: await readFile(join(dir, 'out/echo-rep1-mine.txt'), 'utf8'),
        });
      }
      assert.deepEqual(seen[1], seen[0]);
      assert.deepEqual(seen[0], {
        pacer: undefined,
        requests: 40,
        dropped: 0,
        thresholds: { http_req_failed: { 'rate<0.01': true } },
        summary: 'iterations 40\n',
      });
    });
  } finally {
    await echo.stop();
  }
});
