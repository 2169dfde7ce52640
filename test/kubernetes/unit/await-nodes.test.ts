// Before a run places anything (steps/check-cluster.ts awaitSchedulableNode): a cluster whose nodes
// are all unschedulable right now is waited for, then refused naming each node and why. The fault
// tier met it after a 40 s API outage: the node was NotReady for a few seconds, the next run counted
// no schedulable node, kept the echo server's rule against the client's node on a one-node
// cluster, and its echo pods stayed Pending for readyTimeout "for anti-affinity".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awaitSchedulableNode } from '../../../src/platform/kubernetes/steps/check-cluster.ts';
import type { NodeView } from '../../../src/platform/kubernetes/placement.ts';
import { EnvironmentError } from '../../../src/util/errors.ts';
import { recordingLogger } from '../../support/k8s/harness.ts';

const node = (ready: boolean, taints: { key: string; effect: string }[] = []): NodeView =>
  ({
    metadata: { name: 'mesh-perf-real' },
    spec: { taints },
    status: { allocatable: { cpu: '2' }, conditions: [{ type: 'Ready', status: ready ? 'True' : 'Unknown' }] },
  }) as NodeView;
const unreachable = [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }];

/** A listing that answers each of `answers` in turn (the last one from then on), counting the calls. */
function listing(answers: NodeView[][]) {
  let calls = 0;
  return { list: async () => answers[Math.min(calls++, answers.length - 1)]!, calls: () => calls };
}

test('a node NotReady for a moment (the API server was away): waited for, said, and the run goes on once it is schedulable', async () => {
  const log = recordingLogger();
  const nodes = listing([[node(false, unreachable)], [node(false, unreachable)], [node(true)]]);
  await awaitSchedulableNode(nodes.list, { timeoutMs: 5000, log, intervalMs: 5 });
  assert.equal(nodes.calls(), 3);
  assert.match(
    log.lines.join('\n'),
    /no node is schedulable yet \(mesh-perf-real \(taint node\.kubernetes\.io\/unreachable:NoSchedule, not Ready\)\): waiting up to 5s \(kubernetes\.readyTimeout\) for one/,
  );
  assert.match(log.lines.join('\n'), /mesh-perf-real schedulable after \d+ s/);
});

test('no node becomes schedulable within readyTimeout: exit 3 naming each node and why, nothing created', async () => {
  const nodes = listing([[node(false, unreachable)]]);
  await assert.rejects(awaitSchedulableNode(nodes.list, { timeoutMs: 50, log: recordingLogger(), intervalMs: 5 }), (error: Error) => {
    assert.ok(error instanceof EnvironmentError);
    assert.equal(error.exitCode, 3);
    assert.match(
      error.message,
      /^no node of the cluster became schedulable within 50ms \(kubernetes\.readyTimeout\): mesh-perf-real \(taint node\.kubernetes\.io\/unreachable:NoSchedule, not Ready\)\. Nothing was created/,
    );
    return true;
  });
});

test('a schedulable node, no nodes listed, or no permission to list them: nothing waited for, nothing said', async () => {
  for (const list of [async () => [node(true)], async () => [], async () => Promise.reject(new Error('HTTP 403'))]) {
    const log = recordingLogger();
    await awaitSchedulableNode(list, { timeoutMs: 5000, log, intervalMs: 5 });
    assert.deepEqual(log.lines, []);
  }
});
