// What did not last through a repetition, from two looks at its pods (disruption-compare.ts), and
// how a pod as the API server lists it becomes a look (disruptions.ts podLook): a pod deleted,
// evicted or replaced, a container restarted, a mesh proxy that crashed (OOMKilled, a panic's
// exit) against one killed from outside (SIGKILL's 137, SIGTERM's 143), pods that come and go by
// design (k6-operator's) left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crashed, disruptionsBetween, disruptionText, type PodLook } from '../../../src/platform/kubernetes/disruption-compare.ts';
import { podLook } from '../../../src/platform/kubernetes/disruptions.ts';

const pod = (name: string, role: string, extra: Partial<PodLook> = {}): PodLook => ({
  namespace: role === 'ztunnel' ? 'istio-system' : 'mp-linkerd',
  name,
  uid: `uid-${name}`,
  role,
  terminating: false,
  ready: true,
  containers: [{ name: role === 'ztunnel' ? 'istio-proxy' : 'app', restarts: 0, running: true }],
  ...extra,
});

test('nothing happened: no disruption; a pod already terminating before is not one', () => {
  const before = [pod('echo-a', 'echo server'), pod('ztunnel-x', 'ztunnel'), pod('old', 'echo server', { terminating: true })];
  assert.deepEqual(disruptionsBetween(before, before.slice(0, 2)), []);
});

test('a pod deleted and replaced, one evicted, one gone with no replacement yet', () => {
  const before = [pod('ztunnel-x', 'ztunnel'), pod('echo-a', 'echo server')];
  assert.deepEqual(disruptionsBetween(before, [pod('ztunnel-y', 'ztunnel'), pod('echo-a', 'echo server')]), [
    { pod: 'istio-system/ztunnel-x', component: 'ztunnel', event: 'deleted', replacement: 'ztunnel-y' },
  ]);
  const evicted = disruptionsBetween(before, [
    pod('ztunnel-x', 'ztunnel'),
    pod('echo-a', 'echo server', { reason: 'Evicted', ready: false }),
  ]);
  assert.deepEqual(evicted, [{ pod: 'mp-linkerd/echo-a', component: 'echo server', event: 'deleted', reason: 'Evicted' }]);
  assert.equal(disruptionText(evicted[0]!), 'echo server pod mp-linkerd/echo-a was evicted during the repetition (no replacement yet)');
  // Same name, new uid (a StatefulSet-like replacement) is a replacement too; terminating is gone.
  assert.equal(disruptionsBetween(before, [pod('ztunnel-x', 'ztunnel', { uid: 'other' }), pod('echo-a', 'echo server')]).length, 1);
  assert.equal(
    disruptionsBetween(before, [pod('ztunnel-x', 'ztunnel'), pod('echo-a', 'echo server', { terminating: true })])[0]!.event,
    'deleted',
  );
});

test('ztunnel replaced mid-repetition: the reason says where the traffic went, from the repetition\'s own figures (the issue\'s wrong reason was "counted none of its 6001 requests")', () => {
  const [d] = disruptionsBetween(
    [pod('ztunnel-x', 'ztunnel')],
    [pod('ztunnel-x', 'ztunnel', { terminating: true }), pod('ztunnel-y', 'ztunnel', { ready: true })],
  );
  assert.deepEqual(d, {
    pod: 'istio-system/ztunnel-x',
    component: 'ztunnel',
    event: 'deleted',
    replacement: 'ztunnel-y',
    terminating: true,
  });
  const ztunnel = (count: number, bytesReceived: number) => [
    { proxy: 'ztunnel' as const, pods: 1, unit: 'connections' as const, count, mtls: count, plaintext: 0, bytesReceived, peers: [] },
  ];
  assert.equal(
    disruptionText(d!, { requests: 6001, failures: 0, proxies: ztunnel(0, 0) }),
    'ztunnel pod istio-system/ztunnel-x was deleted during the repetition (replaced by ztunnel-y); none of its 6,001 requests failed: ' +
      'the traffic stayed on the old ztunnel, still draining its connections when the repetition ended (its counters cannot be read once it is deleted); ' +
      'the new ztunnel counted none of it',
  );
  // The drain over before the end: k6 reconnected through the new one, which counted the rest.
  const { terminating: _, ...gone } = d!;
  assert.equal(
    disruptionText(gone, { requests: 8001, failures: 0, proxies: ztunnel(200, 30709) }),
    'ztunnel pod istio-system/ztunnel-x was deleted during the repetition (replaced by ztunnel-y); none of its 8,001 requests failed: ' +
      "the traffic stayed on the old ztunnel while it drained its connections, and the old one's counts went with it; " +
      "the new ztunnel counted 200 connections (30,709 bytes) of it once the old one's drain ended",
  );
  // A killed process fails the requests in flight: said with their causes.
  const killed = {
    pod: 'istio-system/ztunnel-x',
    container: 'istio-proxy',
    component: 'ztunnel',
    event: 'restarted' as const,
    reason: 'Error',
    exitCode: 137,
  };
  assert.equal(
    disruptionText(killed, { requests: 8001, failures: 244, errorCauses: { 'connection reset': 244 } }),
    'ztunnel (container istio-proxy) in pod istio-system/ztunnel-x restarted during the repetition (Error, exit 137); 244 of its 8,001 requests failed (connection reset × 244)',
  );
});

test("a container restarted: the proxy named, how it ended; ztunnel's own container (istio-proxy) is ztunnel, not a sidecar", () => {
  const echo = (restarts: number, lastEnd?: { reason?: string; exitCode?: number }) =>
    pod('echo-a', 'echo server', {
      containers: [
        { name: 'linkerd-proxy', restarts, running: true, ...(lastEnd ? { lastEnd } : {}) },
        { name: 'app', restarts: 0, running: true },
      ],
    });
  const killed = disruptionsBetween([echo(0)], [echo(1, { reason: 'Error', exitCode: 137 })]);
  assert.deepEqual(killed, [
    {
      pod: 'mp-linkerd/echo-a',
      container: 'linkerd-proxy',
      component: 'linkerd-proxy',
      event: 'restarted',
      reason: 'Error',
      exitCode: 137,
    },
  ]);
  assert.equal(disruptionText(killed[0]!), 'linkerd-proxy in pod mp-linkerd/echo-a restarted during the repetition (Error, exit 137)');
  // Ended and not restarted yet (the kubelet's back-off after a second failure): the count has not moved.
  const backOff = pod('echo-a', 'echo server', {
    containers: [
      { name: 'linkerd-proxy', restarts: 0, running: false, lastEnd: { reason: 'Error', exitCode: 139 } },
      { name: 'app', restarts: 0, running: true },
    ],
  });
  assert.deepEqual(disruptionsBetween([echo(0)], [backOff]), [
    {
      pod: 'mp-linkerd/echo-a',
      container: 'linkerd-proxy',
      component: 'linkerd-proxy',
      event: 'restarted',
      reason: 'Error',
      exitCode: 139,
      crash: true,
    },
  ]);
  const oom = disruptionsBetween([echo(0)], [echo(2, { reason: 'OOMKilled', exitCode: 137 })]);
  assert.equal(oom[0]!.crash, true);
  assert.equal(
    disruptionText(oom[0]!),
    'linkerd-proxy in pod mp-linkerd/echo-a crashed under the load 2 times (OOMKilled, exit 137): a finding about the mesh, not noise',
  );
  const z = (restarts: number, lastEnd?: { exitCode: number }) =>
    pod('ztunnel-x', 'ztunnel', { containers: [{ name: 'istio-proxy', restarts, running: true, ...(lastEnd ? { lastEnd } : {}) }] });
  assert.deepEqual(disruptionsBetween([z(0)], [z(1, { exitCode: 101 })]), [
    { pod: 'istio-system/ztunnel-x', container: 'istio-proxy', component: 'ztunnel', event: 'restarted', exitCode: 101, crash: true },
  ]);
  // The echo server's own container restarting is a disruption, never a mesh crash.
  const app = disruptionsBetween(
    [pod('echo-a', 'echo server')],
    [
      pod('echo-a', 'echo server', {
        containers: [{ name: 'app', restarts: 1, running: true, lastEnd: { reason: 'OOMKilled', exitCode: 137 } }],
      }),
    ],
  );
  assert.equal(app[0]!.crash, undefined);
  assert.equal(app[0]!.component, 'echo server');
});

test('crash or kill: OOMKilled and exits that are not a kill are crashes; 0, 137 and 143 are someone ending it', () => {
  assert.equal(crashed({ reason: 'OOMKilled', exitCode: 137 }), true);
  assert.equal(crashed({ reason: 'Error', exitCode: 101 }), true);
  assert.equal(crashed({ reason: 'Error', exitCode: 139 }), true);
  for (const exitCode of [0, 137, 143]) assert.equal(crashed({ reason: 'Error', exitCode }), false, String(exitCode));
  assert.equal(crashed(undefined), false);
});

test('pods as the API server lists them: roles by label, native sidecars counted, k6-operator pods and other istio-system pods left out', () => {
  const listed = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    metadata: { name: 'p', uid: 'u', labels },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'True' }],
      initContainerStatuses: [
        { name: 'linkerd-proxy', restartCount: 1, state: { running: {} }, lastState: { terminated: { reason: 'Error', exitCode: 137 } } },
      ],
      containerStatuses: [{ name: 'app', restartCount: 0, state: { running: {} } }],
      ...extra,
    },
  });
  assert.deepEqual(podLook(listed({ app: 'echo' }), 'mp-linkerd'), {
    namespace: 'mp-linkerd',
    name: 'p',
    uid: 'u',
    role: 'echo server',
    terminating: false,
    ready: true,
    containers: [
      { name: 'linkerd-proxy', restarts: 1, running: true, lastEnd: { reason: 'Error', exitCode: 137 } },
      { name: 'app', restarts: 0, running: true },
    ],
  });
  assert.equal(podLook(listed({ 'app.kubernetes.io/name': 'mesh-perf-client' }), 'ns')!.role, 'k6 client');
  assert.equal(podLook(listed({ app: 'ztunnel' }), 'istio-system')!.role, 'ztunnel');
  assert.equal(podLook(listed({ app: 'istiod' }), 'istio-system'), undefined);
  assert.equal(podLook(listed({ app: 'k6', runner: 'true' }), 'ns'), undefined);
  assert.equal(podLook(listed({ app: 'echo' }, { phase: 'Pending' }), 'ns')!.ready, false);
});

test("a pod the Eviction API evicted (kubectl drain, the descheduler) reads as evicted while it terminates: the API server's DisruptionTarget condition, status.reason being empty", () => {
  const terminating = (conditions: { type: string; status: string; reason?: string }[], reason?: string) => ({
    metadata: { name: 'echo-a', uid: 'u', labels: { app: 'echo' }, deletionTimestamp: '2026-12-07T07:00:00Z' },
    status: { phase: 'Running', conditions, ...(reason ? { reason } : {}) },
  });
  const look = (pod: ReturnType<typeof terminating>) => podLook(pod, 'mp-baseline')!;
  assert.equal(look(terminating([{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }])).reason, 'Evicted');
  // The kubelet's own eviction (node pressure) says so in status.reason.
  assert.equal(
    look(terminating([{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' }], 'Evicted')).reason,
    'Evicted',
  );
  // Deleted, or preempted: not an eviction.
  assert.equal(look(terminating([])).reason, undefined);
  assert.equal(look(terminating([{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }])).reason, undefined);
  assert.equal(look(terminating([{ type: 'DisruptionTarget', status: 'False', reason: 'EvictionByEvictionAPI' }])).reason, undefined);
  const before = { ...look(terminating([])), terminating: false };
  const [evicted] = disruptionsBetween(
    [before],
    [look(terminating([{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }]))],
  );
  assert.equal(disruptionText(evicted!), 'echo server pod mp-baseline/echo-a was evicted during the repetition (no replacement yet)');
});
