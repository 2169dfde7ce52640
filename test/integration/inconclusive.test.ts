// A regression gate with too few repetitions to decide, through the real CLI, real k6, a real
// echo server and a real history store (a folder, published to with `mesh-perf publish`, looked
// up by the git branch as a CI gate does): the gate is inconclusive (⚠), never pass; the run
// exits 0, or 1 when gates.regression.inconclusive is "fail". (`run --baseline PATH` would be
// shorter, but collides with the --baseline override of the baseline mode: issue 17.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from '../../src/platform/processes.ts';
import { runCli, withTempDir } from '../support/cli.ts';
import { schemaProblems } from '../support/schema.ts';

// These tests read whole lines of the CLI's output; wrapping to the terminal is tested in
// test/report/terminal-width.test.ts.
process.env.COLUMNS = '1000';

// Two modes on the same server, 2 repetitions each: "copy" is judged as its ratio to "direct"
// per block, 2 ratios against 2, whose smallest one-sided Mann–Whitney p is 0.167 > 0.05, whatever
// the noise: 1 s repetitions without warm-up prove it as well as longer ones.
function config(port: number, inconclusive?: 'fail'): string {
  return `platform: endpoints
modes:
  - name: direct
    url: http://127.0.0.1:${port}/
  - name: copy
    url: http://127.0.0.1:${port}/
load:
  rate: 100
  duration: 1s
  warmup: 0s
  repetitions: 2
history:
  store: ./store
${inconclusive ? `gates:\n  regression:\n    inconclusive: ${inconclusive}\n` : ''}`;
}

test('run against history with 2 against 2 repetitions: inconclusive ⚠ exits 0; with inconclusive: fail it exits 1', {
  timeout: 240_000,
}, async () => {
  const echo = await startServer('echo', [], 'echo');
  try {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'mesh-perf.yaml'), config(echo.port));
      const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
      git('init', '-q', '-b', 'main');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'start');
      const first = await runCli(['run', '--out', 'first'], { cwd: dir });
      assert.equal(first.code, 0, `${first.stderr}\n${first.stdout}`);
      assert.match(first.stdout, /no reference runs: the regression gate was not applied/);
      const published = await runCli(['publish', '--results', 'first', '--store', 'store'], { cwd: dir });
      assert.equal(published.code, 0, published.stderr);

      const second = await runCli(['run', '--out', 'second'], { cwd: dir });
      assert.equal(second.code, 0, `${second.stderr}\n${second.stdout}`);
      assert.match(
        second.stdout,
        / {2}⚠ copy \[100rps\] p\(50\) \(÷ direct, per block\): .*→ inconclusive \(with 2 vs 2 repetitions no p can reach 0\.05 \(the smallest possible is 0\.167\)/,
      );
      assert.match(second.stdout, /Verdict: ⚠ INCONCLUSIVE — 1 gate inconclusive \(⚠ above\)/);
      assert.match(second.stdout, /mode\s+p50\s+p50 range\s+p90/);
      const results = JSON.parse(await readFile(join(dir, 'second/results.json'), 'utf8'));
      assert.deepEqual(schemaProblems(results), []);
      assert.equal(results.verdict, 'inconclusive');
      const gate = results.analysis.gates.find((g: { mode: string; kind: string }) => g.kind === 'regression' && g.mode === 'copy');
      assert.equal(gate.decision, 'inconclusive');
      assert.ok(gate.repetitionsToSettle >= 3, `settle ${gate.repetitionsToSettle}`);
      const summary = await readFile(join(dir, 'second/summary.md'), 'utf8');
      assert.match(summary, /^## mesh-perf · default · ⚠️ inconclusive/m);
      assert.match(summary, /^- ⚠️ copy \\\[100rps\\\] p\(50\) .*→ inconclusive/m);
      assert.match(await readFile(join(dir, 'second/report.html'), 'utf8'), /<span class="badge inconclusive">⚠ INCONCLUSIVE<\/span>/);

      await writeFile(join(dir, 'mesh-perf.yaml'), config(echo.port, 'fail'));
      const strict = await runCli(['run', '--out', 'third'], { cwd: dir });
      assert.equal(strict.code, 1, `${strict.stderr}\n${strict.stdout}`);
      assert.match(strict.stdout, /Verdict: ⚠ INCONCLUSIVE/);
    });
  } finally {
    await echo.stop();
  }
});
