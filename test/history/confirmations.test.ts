// Verdicts stored with their change points in a real directory store: recorded (the latest per
// change point kept), carried into the change-points file the dashboard and the run page read,
// kept across later publishes; the change-point gate waiting for them under confirm.changePoints:
// required; what publish refuses (a confirmation's folder as runs, a confirmation's own runs, a
// damaged confirmation file).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIRMATION_KIND, CONFIRMATION_SCHEMA_VERSION, type ConfirmationRecord } from '../../src/confirm/record.ts';
import { evaluateChangePointGate, evaluateConfirmationGate } from '../../src/history/change-point-gate.ts';
import { parseConfirmations } from '../../src/history/confirmations.ts';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { CONFIRM_EVENT, unpublishableReason } from '../../src/history/publishable.ts';
import { parseJsonScript } from '../../src/history/store-scripts.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { wordConfirmation } from '../../src/report/confirm-words.ts';
import { tempDir } from './support/git-repo.ts';
import { runCli } from './support/mesh-perf-cli.ts';
import { STEP_AT, steppedRuns } from './support/stepped-runs.ts';

// Whole lines of the CLI's output are matched (wrapping: test/report/terminal-width.test.ts).
process.env.COLUMNS = '1000';

function record(before: string, after: string, verdict: ConfirmationRecord['verdict'], finishedAt: string): ConfirmationRecord {
  return wordConfirmation({
    kind: CONFIRMATION_KIND,
    schemaVersion: CONFIRMATION_SCHEMA_VERSION,
    suite: 'nightly',
    branch: 'main',
    profile: '1000rps',
    mode: 'istio-sidecar',
    metric: 'ratio',
    before,
    after,
    size: 0.3,
    verdict,
    reason: verdict === 'confirmed' ? 'ab-fail' : 'ab-within',
    startedAt: finishedAt,
    finishedAt,
    settings: [{ path: 'istio', before: '{"version":"1.29.2"}', after: '{"version":"1.30.0"}' }],
    fixed: [],
    environment: [],
    rounds: [],
    ...(verdict === 'confirmed' ? { culprits: [{ settings: ['istio'], together: false }] } : {}),
    runner: 'linux-x64-2c',
    tool: 'test',
  });
}

test('a verdict is stored with its change point, the latest one wins, and a later publish keeps it', { timeout: 120_000 }, async () => {
  const dir = await tempDir('confirmations');
  const root = join(dir, 'history');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const runs = steppedRuns(STEP_AT + 6);
  await store.publish(runs.slice(0, STEP_AT + 5));
  const cp = (await store.changePoints('nightly', 'main')).changePoints.find((c) => c.mode === 'istio-sidecar' && c.metric === 'ratio')!;
  assert.ok(cp, 'a change point to confirm');
  const first = record(cp.before, cp.after, 'withdrawn', '2026-11-21T04:00:00.000Z');
  const second = record(cp.before, cp.after, 'confirmed', '2026-11-22T04:00:00.000Z');
  const outcome = await store.recordConfirmations([first]);
  assert.deepEqual(outcome.warnings, []);
  await store.recordConfirmations([second]);
  assert.deepEqual(
    (await store.confirmations('nightly')).map((r) => r.verdict),
    ['confirmed'],
  );
  const changePointsFile = async () =>
    parseJsonScript(await readFile(join(root, 'runs', 'nightly', 'change-points.nightly.js'), 'utf8'), 'changePoints') as {
      ok: true;
      value: { changePoints: { mode: string; metric: string; confirmation?: { verdict: string; line: string } }[] };
    };
  // Every figure of the mode at those two runs carries it (the A/B judged the mode's settings).
  const carried = (await changePointsFile()).value.changePoints.filter((c) => c.mode === 'istio-sidecar');
  assert.ok(carried.length >= 2, JSON.stringify(carried.map((c) => c.metric)));
  for (const c of carried) assert.equal(c.confirmation?.verdict, 'confirmed', c.metric);
  assert.match(
    carried[0]!.confirmation!.line,
    /^confirmed: istio \{"version":"1\.29\.2"\} → \{"version":"1\.30\.0"\} moved 1000rps · istio-sidecar · p50 ratio to baseline/,
  );
  // A later day's publish rewrites the change-points file: the verdict stays.
  await store.publish(runs.slice(STEP_AT + 5));
  assert.equal((await changePointsFile()).value.changePoints.find((c) => c.mode === 'istio-sidecar')?.confirmation?.verdict, 'confirmed');
  // A verdict for a change point the series do not show is kept, and said.
  const stray = await store.recordConfirmations([record('nope', 'gone', 'withdrawn', '2026-11-23T04:00:00.000Z')]);
  assert.match(stray.warnings.join('\n'), /is not among suite nightly's change points now; its verdict is kept/);
  // A damaged confirmations file stops the next write, naming it.
  await writeFile(join(root, 'runs', 'nightly', 'confirmations.nightly.js'), 'meshPerfStore.confirmations({"kind":"x"});\n');
  await assert.rejects(store.publish(runs.slice(0, 1)), /confirmations\.nightly\.js.*has kind "x"/);
  assert.deepEqual(parseConfirmations('nonsense', 'nightly'), {
    ok: false,
    reason: 'is not a mesh-perf confirmations file (expected meshPerfStore.confirmations({…});)',
  });
});

test('confirm.changePoints required: the raising publish waits, the verdict decides', () => {
  const runs = steppedRuns(STEP_AT + 4);
  const raised = [{ ...cpOf(runs), slower: true, sizeLow: 0.2, size: 0.3 }];
  const waiting = evaluateChangePointGate(raised, 'fail', 5, 'required');
  assert.equal(waiting.decision, 'awaiting');
  assert.match(waiting.lines[0]!, /^new change point \(slower\), awaiting its confirmation: /);
  assert.equal(evaluateChangePointGate(raised, 'fail', 5, 'on').decision, 'fail');
  const c = cpOf(runs);
  assert.equal(evaluateConfirmationGate([record(c.before, c.after, 'confirmed', 'x')], 'fail').decision, 'fail');
  assert.equal(evaluateConfirmationGate([record(c.before, c.after, 'withdrawn', 'x')], 'fail').decision, 'pass');
  assert.equal(evaluateConfirmationGate([{ ...record(c.before, c.after, 'withdrawn', 'x'), verdict: 'invalid' }], 'warn').decision, 'warn');
  assert.equal(evaluateConfirmationGate([record(c.before, c.after, 'confirmed', 'x')], 'off').decision, 'off');
});

function cpOf(runs: ReturnType<typeof steppedRuns>) {
  return {
    branch: 'main',
    profile: '1000rps',
    mode: 'istio-sidecar',
    metric: 'ratio' as const,
    before: runs[STEP_AT - 1]!.run.id,
    after: runs[STEP_AT]!.run.id,
    afterStartedAt: runs[STEP_AT]!.run.startedAt,
    size: 0.3,
    sizeLow: 0.2,
    sizeHigh: 0.4,
    p: 1e-9,
    slower: true,
    segments: [
      { from: 'a', to: 'b', runs: 30, median: 1.3, low: 1.3, high: 1.3, coverage: 0.95 },
      { from: 'c', to: 'd', runs: 4, median: 1.7, low: 1.6, high: 1.8, coverage: 0.9 },
    ] as [never, never],
    changed: {},
  };
}

test('publish records a confirmation.json and applies the gate; it refuses a confirmation as runs, and its runs as points', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('confirmations-cli');
  const root = join(dir, 'history');
  const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
  const runs = steppedRuns(STEP_AT + 5);
  await store.publish(runs);
  const cp = (await store.changePoints('nightly', 'main')).changePoints.find((c) => c.mode === 'istio-sidecar')!;
  const folder = join(dir, 'confirm');
  await mkdir(join(folder, 'run-1'), { recursive: true });
  await writeFile(join(folder, 'confirmation.json'), JSON.stringify(record(cp.before, cp.after, 'confirmed', '2026-11-22T04:00:00.000Z')));
  // Its run is no day of the series, whichever way it is handed over.
  const own = { ...runs[0]!, run: { ...runs[0]!.run, git: { ...runs[0]!.run.git, event: CONFIRM_EVENT } } };
  await writeFile(join(folder, 'run-1', 'results.json'), JSON.stringify(own));
  assert.match(unpublishableReason(own) ?? '', /a run of mesh-perf confirm/);
  await writeFile(
    join(dir, 'mesh-perf.yaml'),
    'suite: nightly\nmodes: [{ name: a }]\nload: { rate: 100 }\ngates: { changePoint: fail }\nconfirm: { changePoints: required }\n',
  );
  const asRuns = await runCli(['publish', '--results', folder, '--store', root]);
  assert.equal(asRuns.code, 2, asRuns.stderr);
  assert.match(asRuns.stderr, /is the folder of a confirmation \(confirmation\.json\): record its verdict with publish --confirmation/);
  const recorded = await runCli(['publish', '--confirmation', folder, '--store', root, '--config', join(dir, 'mesh-perf.yaml')]);
  assert.equal(recorded.code, 1, recorded.stdout + recorded.stderr);
  assert.match(recorded.stdout, /^confirmed: istio .* moved 1000rps · istio-sidecar/m);
  assert.match(recorded.stdout, /1 confirmation recorded; change-point gate \(fail\): fail/);
  assert.equal((await store.confirmations('nightly')).length, 1);
  const bad = await runCli(['publish', '--confirmation', join(dir, 'mesh-perf.yaml'), '--store', root]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--confirmation .*mesh-perf\.yaml is not valid JSON/);
});
