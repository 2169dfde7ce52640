// The verdict's decision table (src/analysis/verdict.ts): validity, script thresholds, gates,
// confirmation and inconclusive decided in one place, and the one verdict → exit code map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decideVerdict, exitCodeFor, type VerdictReason } from '../../src/analysis/verdict.ts';
import { exitMessage, verdictReasonText } from '../../src/report/verdict-words.ts';
import type { GateResult } from '../../src/results/analysis.ts';
import type { RunResult } from '../../src/results/types.ts';
import { verdictOutcome } from '../../src/github/run-benchmark.ts';
import { syntheticRun, testConfig } from './synthetic.ts';

const levels = { baseline: [1, 1, 1], sidecar: [1.3, 1.3, 1.3] };
const run = (tweak?: Parameters<typeof syntheticRun>[0]['tweak']): RunResult =>
  syntheticRun({ config: testConfig(), levels, ...(tweak ? { tweak } : {}) });

/** A reason in words; a gate's reason is the stored line of the gates below. */
const text = (reason: VerdictReason) => verdictReasonText(reason, (r) => (r.gate as GateResult).line);

function gate(decision: GateResult['decision'], extra: Partial<GateResult> = {}): GateResult {
  return {
    kind: 'regression',
    gate: 'regression p(50)',
    mode: 'sidecar',
    profile: '1000rps',
    metric: 'p50',
    measure: 'change',
    unit: 'relative',
    threshold: '≥ +5%',
    decision,
    line: `sidecar [1000rps] p(50): → ${decision}`,
    ...extra,
  };
}

test('decision table: the worst reason wins, invalid > fail > inconclusive > pass', () => {
  const cases: { name: string; result: RunResult; gates: GateResult[]; verdict: string; kinds: string[] }[] = [
    { name: 'no gates', result: run(), gates: [], verdict: 'pass', kinds: [] },
    { name: 'all gates pass or skipped', result: run(), gates: [gate('pass'), gate('skipped')], verdict: 'pass', kinds: [] },
    { name: 'report-only gate', result: run(), gates: [gate('pass', { reportOnly: true })], verdict: 'pass', kinds: [] },
    { name: 'one inconclusive gate', result: run(), gates: [gate('pass'), gate('inconclusive')], verdict: 'inconclusive', kinds: ['gate'] },
    {
      name: 'fail beats inconclusive',
      result: run(),
      gates: [gate('inconclusive'), gate('fail')],
      verdict: 'fail',
      kinds: ['gate', 'gate'],
    },
    {
      name: 'invalid beats fail',
      result: run((mode, i, spec) => (mode === 'sidecar' && i === 1 ? { ...spec, invalidReason: 'achieved 90% of target' } : spec)),
      gates: [gate('fail')],
      verdict: 'invalid',
      kinds: ['invalid-repetition', 'gate'],
    },
  ];
  for (const c of cases) {
    const decided = decideVerdict(c.result, c.gates);
    assert.equal(decided.verdict, c.verdict, c.name);
    assert.deepEqual(
      decided.reasons.map((r) => r.kind),
      c.kinds,
      c.name,
    );
  }
});

test('script thresholds fail the run once per mode and expression; aborted and unrun repetitions make it invalid', () => {
  const failing = run();
  for (const rep of failing.modes[1]!.repetitions) rep.scriptThresholds = { http_req_duration: { 'p(95)<1': false, 'p(50)<100': true } };
  const failed = decideVerdict(failing);
  assert.equal(failed.verdict, 'fail');
  assert.deepEqual(failed.reasons, [
    {
      kind: 'script-threshold',
      effect: 'fail',
      mode: 'sidecar',
      profile: '1000rps',
      metric: 'http_req_duration',
      expression: 'p(95)<1',
    },
  ]);
  assert.equal(text(failed.reasons[0]!), 'script threshold failed: sidecar: http_req_duration p(95)<1');

  const aborted = run();
  aborted.run.aborted = 'cancelled';
  aborted.plan.trials.push({ index: 99, mode: 'sidecar', profile: '1000rps', repetition: 4, block: 4 });
  const invalid = decideVerdict(aborted, [gate('inconclusive')]);
  assert.equal(invalid.verdict, 'invalid');
  assert.deepEqual(
    invalid.reasons.map((r) => `${r.effect}: ${text(r)}`),
    [
      'invalid: run ended early: cancelled',
      'invalid: 1 of 7 planned repetitions did not run',
      'inconclusive: sidecar [1000rps] p(50): → inconclusive',
    ],
  );
});

test('a proxy the load crashed fails the run though its repetition is invalid; a proxy killed from outside only makes its repetition invalid (issue 51)', () => {
  const hit = (disruption: NonNullable<RunResult['modes'][number]['repetitions'][number]['disruptions']>[number]) => {
    const result = run();
    const rep = result.modes[1]!.repetitions[0]!;
    rep.valid = false;
    rep.invalidReasons = ['linkerd-proxy in pod ns/echo-1 restarted during the repetition'];
    rep.disruptions = [disruption];
    return decideVerdict(result);
  };
  const killed = hit({
    pod: 'ns/echo-1',
    container: 'linkerd-proxy',
    component: 'linkerd-proxy',
    event: 'restarted',
    reason: 'Error',
    exitCode: 137,
  });
  assert.equal(killed.verdict, 'invalid');
  assert.deepEqual(
    killed.reasons.map((r) => r.kind),
    ['invalid-repetition'],
  );
  const crashed = hit({
    pod: 'ns/echo-1',
    container: 'linkerd-proxy',
    component: 'linkerd-proxy',
    event: 'restarted',
    reason: 'OOMKilled',
    exitCode: 137,
    crash: true,
  });
  assert.equal(crashed.verdict, 'fail');
  assert.equal(exitCodeFor(crashed.verdict), 1);
  assert.deepEqual(
    crashed.reasons.map((r) => `${r.effect}: ${text(r)}`),
    [
      'fail: linkerd-proxy crashed under the load: sidecar [1000rps] trial 3, pod ns/echo-1 (OOMKilled, exit 137); its repetition is invalid and not compared, the crash fails the run',
      'invalid: invalid repetition: sidecar [1000rps] trial 3 (block 1, round 1): linkerd-proxy in pod ns/echo-1 restarted during the repetition',
    ],
  );
});

test('a mode without valid repetitions is named; more than ten invalid repetitions are summed up', () => {
  const result = syntheticRun({
    config: testConfig(),
    levels: { baseline: Array(12).fill(1), sidecar: Array(3).fill(1.3) },
    tweak: (_mode, _i, spec) => ({ ...spec, invalidReason: 'dropped iterations' }),
  });
  const decided = decideVerdict(result);
  const messages = decided.reasons.map(text);
  assert.equal(messages.filter((m) => m.startsWith('invalid repetition: ')).length, 10);
  assert.ok(messages.includes('… and 5 more invalid repetitions'), messages.join('\n'));
  assert.ok(messages.includes('baseline [1000rps] has no valid repetition; nothing about it can be compared'));
  assert.ok(messages.includes('sidecar [1000rps] has no valid repetition; nothing about it can be compared'));
});

test('confirmation: modes with a failed gate pending confirmation are listed, unless the run is invalid', () => {
  const pending = [
    gate('fail', { pendingConfirmation: true }),
    gate('fail', { mode: 'other', pendingConfirmation: true }),
    gate('fail', { mode: 'third' }),
  ];
  assert.deepEqual(decideVerdict(run(), pending).modesToConfirm, ['sidecar', 'other']);
  const invalid = run();
  invalid.run.aborted = 'k6 crashed';
  assert.deepEqual(decideVerdict(invalid, pending).modesToConfirm, []);
});

test('one verdict → exit code map: 0 pass, 1 fail, 3 invalid; inconclusive 0, or 1 with inconclusive: fail', () => {
  assert.equal(exitCodeFor('pass'), 0);
  assert.equal(exitCodeFor('fail'), 1);
  assert.equal(exitCodeFor('invalid'), 3);
  assert.equal(exitCodeFor('inconclusive'), 0);
  assert.equal(exitCodeFor('inconclusive', 'warn'), 0);
  assert.equal(exitCodeFor('inconclusive', 'fail'), 1);
  assert.equal(exitCodeFor('pass', 'fail'), 0);
  assert.equal(exitMessage('inconclusive', ['x'], 'warn'), undefined);
  assert.equal(exitMessage('inconclusive', ['x'], 'fail'), 'mesh-perf: inconclusive, and gates.regression.inconclusive is "fail": x');
  assert.equal(exitMessage('fail', ['a', 'b']), 'mesh-perf: gate failed: a; b');
  assert.equal(exitMessage('invalid', []), 'mesh-perf: the run is invalid and was not compared');
  // The action maps through the same function.
  assert.deepEqual(verdictOutcome('inconclusive', ['x']), { exitCode: 0 });
  assert.deepEqual(verdictOutcome('inconclusive', ['x'], 'fail'), {
    exitCode: 1,
    failure: 'mesh-perf: inconclusive, and gates.regression.inconclusive is "fail": x',
  });
  assert.deepEqual(verdictOutcome('fail', ['y']), { exitCode: 1, failure: 'mesh-perf: gate failed: y' });
});
