// The acceptance config, verbatim, against two real HTTP servers on the ports it names,
// with real k6: every repetition reaches ≥ 99% of target with 0 dropped iterations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../src/platform/processes.ts';
import { runCli, withTempDir } from '../support/cli.ts';
import { schemaProblems } from '../support/schema.ts';

const ACCEPTANCE_CONFIG = `platform: endpoints
modes:
  - name: baseline
    url: http://127.0.0.1:18081/
  - name: candidate
    url: http://127.0.0.1:18082/
load:
  rate: 1000
  duration: 10s
  warmup: 2s
  repetitions: 3
`;

test('acceptance config runs verbatim and holds 1000 rps', { timeout: 300_000 }, async () => {
  const a = await startServer('echo', ['--port', '18081'], 'server 18081');
  const b = await startServer('echo', ['--port', '18082'], 'server 18082');
  try {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'mesh-perf.yaml'), ACCEPTANCE_CONFIG);
      let run = await runCli(['run', '--out', 'out'], { cwd: dir });
      // The progress line wraps at the terminal's width, so "dropped" and "iterations" may sit on two lines.
      if (run.code === 3 && /INVALID: \d+ dropped\s+iterations/.test(run.stderr)) {
        // A stall of the whole (shared) machine can starve any load generator; the product
        // rightly calls that run invalid. One fresh attempt tells a stall from a broken engine.
        console.log(
          `first attempt invalid (machine stall?), retrying once:\n${run.stderr
            .split('\n')
            .filter((l) => l.includes('INVALID'))
            .join('\n')}`,
        );
        run = await runCli(['run', '--out', 'out'], { cwd: dir });
      }
      assert.equal(run.code, 0, `exit ${run.code}\n${run.stderr}\n${run.stdout}`);
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
      assert.deepEqual(schemaProblems(results), []);
      assert.equal(results.verdict, 'pass');
      assert.deepEqual(results.modes.map((m: { name: string }) => m.name).sort(), ['baseline', 'candidate']);
      for (const mode of results.modes) {
        assert.equal(mode.repetitions.length, 3);
        for (const rep of mode.repetitions) {
          assert.equal(rep.droppedIterations, 0, `${mode.name}: dropped ${rep.droppedIterations}`);
          assert.ok(rep.achievedRps >= 990, `${mode.name}: achieved ${rep.achievedRps}`);
          assert.equal(rep.targetRps, 1000);
          assert.equal(rep.valid, true);
          assert.ok(rep.timeline.length >= 9, 'one-second timeline buckets');
        }
      }
      assert.ok((await readdir(join(dir, 'out'))).includes('summary.md'));
      // The baseline row says so in its overhead column (the mode it is the zero of).
      assert.match(run.stdout, /^baseline .* baseline +3\/3$/m);
      assert.match(run.stdout, /candidate/);
    });
  } finally {
    await a.stop();
    await b.stop();
  }
});

test('an unreachable URL fails in seconds with exit 3 naming the mode and URL', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), ACCEPTANCE_CONFIG.replace('18081', '1'));
    const started = Date.now();
    const run = await runCli(['run'], { cwd: dir });
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stderr, /modes \(baseline\)\.url: http:\/\/127\.0\.0\.1:1\/ is unreachable \(ECONNREFUSED\)/);
    assert.ok(Date.now() - started < 30_000);
    assert.doesNotMatch(run.stderr, / {4}at /, 'no stack trace');
    const [runDir] = await readdir(join(dir, 'mesh-perf-results'));
    const results = JSON.parse(await readFile(join(dir, 'mesh-perf-results', runDir!, 'results.json'), 'utf8'));
    assert.equal(results.verdict, 'invalid', 'partial results are written with verdict invalid');
  });
});
