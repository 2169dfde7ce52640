// A user's own k6 script runs unchanged: per-mode env carries the target, its scenarios and
// thresholds are kept, its thresholds become gates, its handleSummary output is still written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../src/platform/processes.ts';
import { runCli, withTempDir } from '../support/cli.ts';

// These tests read messages, not their layout: no wrapping at a narrow terminal's width.
process.env.COLUMNS = '1000';

const scripts = fileURLToPath(new URL('../fixtures/scripts/', import.meta.url));

function config(port: number, extra = ''): string {
  return `platform: endpoints
modes:
  - name: no-sidecar
    env: { DOMAIN: "127.0.0.1:${port}"${extra} }
  - name: sidecar
    env: { DOMAIN: "127.0.0.1:${port}"${extra} }
load:
  script: ./perf/kyma-style.js
  repetitions: 1
  warmup: 0s
`;
}

test('a user script runs unchanged with per-mode env; its summary files are kept', { timeout: 120_000 }, async () => {
  const echo = await startServer('echo', [], 'echo');
  try {
    await withTempDir(async (dir) => {
      await cp(scripts, join(dir, 'perf'), { recursive: true });
      await writeFile(join(dir, 'mesh-perf.yaml'), config(echo.port));
      const run = await runCli(['run', '--out', 'out'], { cwd: dir });
      assert.equal(run.code, 0, run.stderr + run.stdout);
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
      assert.equal(results.verdict, 'pass');
      for (const mode of results.modes) {
        const rep = mode.repetitions[0];
        assert.equal(rep.targetRps, null, 'a closed-model script has no target rate');
        assert.ok(rep.requests > 10, `requests ${rep.requests}`);
        assert.equal(rep.scriptThresholds.http_req_failed['rate<0.01'], true);
        assert.equal(rep.scriptThresholds.http_req_duration['p(95)<250'], true);
      }
      const files = await readdir(join(dir, 'out'));
      assert.ok(files.includes('no-sidecar-rep1-kyma-summary.txt'), files.join(','));
      assert.match(await readFile(join(dir, 'out/sidecar-rep1-kyma-summary.txt'), 'utf8'), /^requests \d+/);
    });
  } finally {
    await echo.stop();
  }
});

test("a failing threshold of the user's script fails the run (exit 1)", { timeout: 120_000 }, async () => {
  const echo = await startServer('echo', [], 'echo');
  try {
    await withTempDir(async (dir) => {
      await cp(scripts, join(dir, 'perf'), { recursive: true });
      await writeFile(join(dir, 'mesh-perf.yaml'), config(echo.port, ', STRICT: "1"'));
      const run = await runCli(['run', '--out', 'out'], { cwd: dir });
      assert.equal(run.code, 1, run.stderr + run.stdout);
      const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
      assert.equal(results.verdict, 'fail');
      assert.match(results.verdictReasons.join('\n'), /http_req_duration p\(95\)<0\.001/);
    });
  } finally {
    await echo.stop();
  }
});

test('a script error exits 2 with the script named and k6 stderr tail', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await cp(scripts, join(dir, 'perf'), { recursive: true });
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: endpoints\nmodes: [{ name: a }]\nload: { script: ./perf/broken.js, repetitions: 1, warmup: 0s }\n`,
    );
    const run = await runCli(['run'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /the k6 script failed/);
    assert.match(run.stderr, /SyntaxError: invalid character/);
    assert.match(run.stderr, /broken\.js:3/);
  });
});

test('an unreachable remote import names the import', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await cp(scripts, join(dir, 'perf'), { recursive: true });
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      `platform: endpoints\nmodes: [{ name: a }]\nload: { script: ./perf/remote-import.js, repetitions: 1, warmup: 0s }\n`,
    );
    const run = await runCli(['run'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /could not fetch the remote module https:\/\/modules\.example\.invalid\/lib\.js imported by \.\/perf\/remote-import\.js/,
    );
  });
});
