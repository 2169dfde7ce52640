// Istio's mutual TLS mode for a workload's port, resolved from PeerAuthentication objects as istiod
// resolves them (src/platform/kubernetes/mesh/peer-authentication.ts), and the runners' exception
// mesh-perf applies under k6-operator (issue 38 item 1): k6-operator's controller and starter
// reach port 6565 of the runners in plaintext, which a mesh-wide STRICT refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveMtls, relaxations, type PeerAuthenticationView } from '../../../src/platform/kubernetes/mesh/peer-authentication.ts';
import { RUNNER_API_PORT, RUNNER_POD_LABELS, runnerPeerAuthentication } from '../../../src/platform/kubernetes/k6-operator/testrun.ts';

const pa = (
  namespace: string,
  name: string,
  spec: PeerAuthenticationView['spec'],
  creationTimestamp = '2026-01-01T00:00:00Z',
): PeerAuthenticationView => ({ metadata: { name, namespace, creationTimestamp }, spec });

const meshStrict = pa('istio-system', 'default', { mtls: { mode: 'STRICT' } });
const echo = { namespace: 'mp-sidecar', labels: { app: 'echo' }, port: 8080 };

test('nothing at all is PERMISSIVE; the mesh-wide policy, then the namespace, then the workload decide; UNSET inherits', () => {
  assert.deepEqual(effectiveMtls([], echo), { mode: 'PERMISSIVE', source: "Istio's default (no PeerAuthentication applies)" });
  assert.deepEqual(effectiveMtls([meshStrict], echo), { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' });
  const namespace = pa('mp-sidecar', 'ns', { mtls: { mode: 'PERMISSIVE' } });
  assert.equal(effectiveMtls([meshStrict, namespace], echo).mode, 'PERMISSIVE');
  const unset = pa('mp-sidecar', 'ns', { mtls: { mode: 'UNSET' } });
  assert.equal(effectiveMtls([meshStrict, unset], echo).mode, 'STRICT');
  const disable = pa('mp-sidecar', 'echo-off', { selector: { matchLabels: { app: 'echo' } }, mtls: { mode: 'DISABLE' } });
  assert.deepEqual(effectiveMtls([meshStrict, disable], echo), {
    mode: 'DISABLE',
    source: 'PeerAuthentication mp-sidecar/echo-off (workload)',
  });
  // A selector in another namespace, or one that does not match, changes nothing.
  assert.equal(effectiveMtls([meshStrict, { ...disable, metadata: { ...disable.metadata, namespace: 'other' } }], echo).mode, 'STRICT');
  assert.equal(
    effectiveMtls([meshStrict, pa('mp-sidecar', 'x', { selector: { matchLabels: { app: 'k6' } }, mtls: { mode: 'DISABLE' } })], echo).mode,
    'STRICT',
  );
  // Several mesh-wide policies: the oldest wins.
  const newer = pa('istio-system', 'a-newer', { mtls: { mode: 'DISABLE' } }, '2026-06-01T00:00:00Z');
  assert.equal(effectiveMtls([newer, meshStrict], echo).mode, 'STRICT');
});

test("k6-operator's runners: under a mesh-wide STRICT their port 6565 refuses the controller's plaintext unless mesh-perf's exception applies, and only there", () => {
  const runner = { namespace: 'mp-sidecar', labels: { ...RUNNER_POD_LABELS, k6_cr: 'mesh-perf-0a1b' }, port: RUNNER_API_PORT };
  // Without the exception (the code before issue 38): STRICT, so `http.Get("http://<svc>:6565/v1/status")` is refused.
  assert.equal(effectiveMtls([meshStrict], runner).mode, 'STRICT');
  const exception = { ...(runnerPeerAuthentication() as unknown as PeerAuthenticationView) };
  exception.metadata = { ...exception.metadata, namespace: 'mp-sidecar', creationTimestamp: '2026-01-02T00:00:00Z' };
  const policies = [meshStrict, exception];
  assert.deepEqual(effectiveMtls(policies, runner), {
    mode: 'PERMISSIVE',
    source: 'PeerAuthentication mp-sidecar/mesh-perf-k6-runners (workload, port 6565)',
  });
  // The runners' other ports, and the echo server the runners load, stay STRICT.
  assert.equal(effectiveMtls(policies, { ...runner, port: 8080 }).mode, 'STRICT');
  assert.equal(effectiveMtls(policies, echo).mode, 'STRICT');
  assert.deepEqual(relaxations(policies, 'mp-sidecar'), [
    'port 6565 PERMISSIVE for pods app=k6,runner=true (PeerAuthentication mp-sidecar/mesh-perf-k6-runners)',
  ]);
  // Istio's validation: port-level settings need a selector; mtls unset so other ports inherit.
  const spec = (runnerPeerAuthentication() as { spec: Record<string, unknown> }).spec;
  assert.deepEqual(spec, { selector: { matchLabels: { app: 'k6', runner: 'true' } }, portLevelMtls: { 6565: { mode: 'PERMISSIVE' } } });
});
