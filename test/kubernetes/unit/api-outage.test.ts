// An API server that stops answering mid-run (api-outage.ts): calls that cannot reach it are
// retried until it answers, within kubernetes.apiOutage counted from the outage's first failure and
// shared by every call in it; past that the run stops with an error naming the limit; an answer,
// even an error, is never retried; the outage and its end are said once each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiOutage, isUnreachable } from '../../../src/platform/kubernetes/api-outage.ts';
import { describeExecError } from '../../../src/platform/kubernetes/exec.ts';
import { recordingLogger } from '../../support/k8s/harness.ts';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 198.18.0.1:6443'), { code: 'ECONNREFUSED' });

test('what counts as unreachable: refused, reset, timed out, a 5xx upgrade, a stream that ended without a status; not an answer', () => {
  for (const message of [
    'cannot reach the Kubernetes API server https://198.18.0.1:6443 (context "x"): ECONNREFUSED',
    'exec in pod a/b (container k6) failed to start: socket hang up',
    'exec in pod a/b failed: Unexpected server response: 503',
    'exec `sh` in pod a/b (container k6) ended without an exit status',
  ])
    assert.equal(isUnreachable(new Error(message)), true, message);
  assert.equal(isUnreachable(refused()), true);
  // The exec websocket's error event is no Error: its message was printed as "[object Object]" and never retried.
  const event = { type: 'error', message: 'connect ECONNREFUSED 198.18.0.1:6443', error: refused() };
  assert.equal(describeExecError(event), 'connect ECONNREFUSED 198.18.0.1:6443');
  assert.equal(isUnreachable(new Error(`exec in pod a/b (container k6) failed to start: ${describeExecError(event)}`)), true);
  for (const message of [
    'exec in pod a/b failed to start: 403 Forbidden (grant "create" on pods/exec)',
    'pods "x" not found',
    // An answer from the kubelet, not a lost connection: a command the image lacks (seen on the real node).
    'exec `tail` in pod a/b (container k6) ended without an exit status: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "8542"',
  ])
    assert.equal(isUnreachable(new Error(message)), false, message);
});

test('an outage shorter than the limit: the call is retried until the server answers; said when it starts and when it ends', async () => {
  const log = recordingLogger();
  const outage = new ApiOutage({ limitMs: 5000, log, server: 'https://198.18.0.1:6443' });
  const until = Date.now() + 600;
  let calls = 0;
  const value = await outage.through('reading k6 summary', async () => {
    calls++;
    if (Date.now() < until) throw refused();
    return 'answered';
  });
  assert.equal(value, 'answered');
  assert.ok(calls >= 2 && calls <= 5, `${calls} calls`);
  assert.equal(log.lines.length, 2, log.lines.join('\n'));
  assert.match(
    log.lines[0]!,
    /^WARN the Kubernetes API server https:\/\/198\.18\.0\.1:6443 stopped answering while reading k6 summary \(connect ECONNREFUSED/,
  );
  assert.match(log.lines[1]!, /^the Kubernetes API server answers again, after \d+ s$/);
});

test('an outage longer than the limit: the run stops naming the limit; the limit counts from the first failure, across calls', async () => {
  const log = recordingLogger();
  const outage = new ApiOutage({ limitMs: 700, log, server: 'https://198.18.0.1:6443' });
  outage.failed('following k6 in pod ns/p', refused());
  await new Promise((r) => setTimeout(r, 400));
  const started = Date.now();
  await assert.rejects(
    outage.through('asking whether k6 ended', async () => {
      throw refused();
    }),
    /did not answer for \d+ s, longer than kubernetes\.apiOutage \(700ms\), while asking whether k6 ended: connect ECONNREFUSED .* `mesh-perf down --config FILE` removes what the run left/,
  );
  assert.ok(Date.now() - started < 1500, 'the second call had only what was left of the limit');
});

test('an answer is not retried, even an error', async () => {
  const outage = new ApiOutage({ limitMs: 5000, log: recordingLogger(), server: 's' });
  let calls = 0;
  await assert.rejects(
    outage.through('x', async () => {
      calls++;
      throw new Error('pods "mesh-perf-client" not found');
    }),
    /not found/,
  );
  assert.equal(calls, 1);
});
