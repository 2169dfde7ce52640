// A daily series with a real step, confirmed for real: runs on the local platform (real echo
// servers, real k6) published into a directory store (the days before the step at once, then day
// by day) until the change-point gate raises the step a delay change made, then `mesh-perf
// confirm` (the real CLI) runs the two runs' settings side by side and confirms it naming the
// delay, `mesh-perf publish --confirmation` records the verdict and, under confirm.changePoints:
// required, fails the gate on it. Repetitions of 1 s and a step of +40 % keep it to about a
// minute; bench/confirm measures the verdicts' error rates.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { validateConfig } from '../../src/config/validate.ts';
import { evaluateChangePointGate } from '../../src/history/change-point-gate.ts';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import type { ConfirmationRecord } from '../../src/confirm/record.ts';
import { silentLogger } from '../../src/util/log.ts';
import { runCli, withTempDir } from '../support/cli.ts';

process.env.COLUMNS = '1000';

const CONFIG = `suite: daily
platform: local
modes:
  - name: svc
    local: { delay: 10ms }
load: { rate: 100, duration: 1s, warmup: 0s, expectedLatency: 200ms }
gates: { changePoint: fail }
confirm: { changePoints: required, duration: 1s, warmup: 0s }
`;

test('a delay that made the daily series slower is confirmed and named, recorded, and fails the gate that waited', {
  timeout: 400_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG);
    const root = join(dir, 'history');
    const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
    const dayRun = async (day: number) => {
      const delay = day < 6 ? '10ms' : '14ms';
      const config = validateConfig({
        suite: 'daily',
        platform: 'local',
        modes: [{ name: 'svc', local: { delay } }],
        load: { rate: 100, duration: '1s', warmup: '0s', repetitions: 2, expectedLatency: '200ms' },
        out: join(dir, `day-${day}`),
      });
      const { result } = await runPipeline(config, {
        log: silentLogger,
        signal: new AbortController().signal,
        cwd: dir,
        git: { branch: 'main', sha: (day + 1).toString(16).padStart(40, '0') },
      });
      const startedAt = new Date(Date.UTC(2026, 10, 1 + day, 3)).toISOString();
      return { ...result, run: { ...result.run, startedAt, finishedAt: startedAt } };
    };
    // The six days before the step are published at once, as a history already there: a 1 s
    // repetition's p99 is two requests deep, and on a loaded machine one of those days' p99 alone
    // was raised once (+9 %), which is the gate doing its work on noise, not what this test is about.
    const history = [];
    for (let day = 0; day < 6; day++) history.push(await dayRun(day));
    await store.publish(history);
    let raised = '';
    for (let day = 6; day < 10 && !raised; day++) {
      const outcome = await store.publish([await dayRun(day)]);
      const gate = evaluateChangePointGate(outcome.changePoints ?? [], 'fail', 5, 'required');
      if (gate.decision === 'awaiting') raised = gate.lines.join('\n');
    }
    assert.match(
      raised,
      /^new change point \(slower\), awaiting its confirmation: 100rps · svc · p50 on main: \+\d+\.\d%.*config\.modes\.svc\.local\.delay 10ms → 14ms/m,
    );

    const confirm = await runCli(
      ['confirm', '--store', root, '--config', 'mesh-perf.yaml', '--series-branch', 'main', '--out', 'confirmation'],
      { cwd: dir, timeoutMs: 300_000 },
    );
    assert.equal(confirm.code, 1, `${confirm.stdout}\n${confirm.stderr}`);
    assert.match(
      confirm.stdout,
      /^confirmed: local\.delay 10ms → 14ms moved 100rps · svc · p50 by \+\d+\.\d+% \[\+\d+\.\d+%, \+\d+\.\d+%\] in a same-run A\/B \(\d+ blocks\)$/m,
    );
    const record = JSON.parse(await readFile(join(dir, 'confirmation', 'confirmation.json'), 'utf8')) as ConfirmationRecord;
    assert.equal(record.verdict, 'confirmed');
    assert.deepEqual(record.culprits, [{ settings: ['local.delay'], together: false }]);
    // The confirmation run's results beside it, marked as such: never a day of the series.
    const run = JSON.parse(await readFile(join(dir, 'confirmation', 'run-1', 'results.json'), 'utf8')) as {
      run: { git: { event: string } };
    };
    assert.equal(run.run.git.event, 'confirm');

    const recorded = await runCli(['publish', '--confirmation', 'confirmation', '--store', root, '--config', 'mesh-perf.yaml'], {
      cwd: dir,
    });
    assert.equal(recorded.code, 1, `${recorded.stdout}\n${recorded.stderr}`);
    assert.match(recorded.stdout, /1 confirmation recorded; change-point gate \(fail\): fail/);
    assert.equal((await store.confirmations('daily'))[0]?.verdict, 'confirmed');
    // Nothing is left to confirm: the next confirm says so and runs nothing.
    const again = await runCli(['confirm', '--store', root, '--config', 'mesh-perf.yaml', '--series-branch', 'main'], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^nothing to confirm: no raised change point is waiting for a verdict/);
  });
});
