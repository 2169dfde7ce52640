// kubernetes.ingress and load[].replicas: what validates, and the messages for what does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';

const base = (patch: Record<string, unknown> = {}) => ({
  platform: 'kind',
  modes: [
    { name: 'no-sidecar', mesh: 'baseline' },
    { name: 'sidecar', mesh: 'istio-sidecar' },
  ],
  load: { rate: 20, duration: '10s' },
  kubernetes: { ingress: { replicas: 10, tls: true } },
  ...patch,
});

function problemAt(raw: unknown, path: string): string {
  try {
    validateConfig(raw, 'mesh-perf.yaml');
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.exitCode, 2);
    const problem = error.problems.find((p) => p.path === path);
    assert.ok(problem, `no problem at ${path}: ${error.message}`);
    return problem.message;
  }
  assert.fail(`expected a problem at ${path}`);
}

test('an ingress with baseline and Istio modes validates; defaults are one pod over HTTP', () => {
  assert.deepEqual(validateConfig(base()).kubernetes.ingress, { replicas: 10, tls: true });
  assert.deepEqual(validateConfig(base({ kubernetes: { ingress: {} } })).kubernetes.ingress, { replicas: 1, tls: false });
  assert.equal(validateConfig(base({ kubernetes: {} })).kubernetes.ingress, undefined);
});

test('an ingress with a Linkerd mode is refused, naming the mode and why', () => {
  const message = problemAt(base({ modes: [{ name: 'baseline' }, { name: 'linkerd' }] }), 'kubernetes.ingress');
  assert.match(message, /modes\[1\] "linkerd" \(mesh linkerd\)/);
  assert.match(message, /unmeshed/);
});

test('gRPC profiles cannot go through the ingress', () => {
  assert.match(
    problemAt(base({ load: [{ rate: 5 }, { name: 'g', rate: 5, protocol: 'grpc' }] }), 'load[1].protocol'),
    /kubernetes\.ingress/,
  );
});

test('bad gateway and echo pod counts name the field and the value', () => {
  assert.match(
    problemAt(base({ kubernetes: { ingress: { replicas: 0 } } }), 'kubernetes.ingress.replicas'),
    /at least 1 gateway pod, got 0/,
  );
  assert.match(problemAt(base({ kubernetes: { ingress: { replicas: 2.5 } } }), 'kubernetes.ingress.replicas'), /whole number.*2\.5/);
  assert.match(problemAt(base({ kubernetes: { ingress: { replica: 2 } } }), 'kubernetes.ingress'), /did you mean "replicas"/);
  assert.match(problemAt(base({ load: { rate: 5, replicas: 0 } }), 'load.replicas'), /load\.replicas ≥ 1.*got 0/);
  assert.match(problemAt(base({ load: [{ rate: 5, replicas: 91 }] }), 'load[0].replicas'), /≤ 90.*got 91/);
});

test('load[].replicas is carried per profile', () => {
  const config = validateConfig(
    base({
      load: [
        { rate: 20, replicas: 1 },
        { name: 'x', rate: 20, replicas: 10 },
      ],
    }),
  );
  assert.deepEqual(
    config.profiles.map((p) => p.replicas),
    [1, 10],
  );
});
