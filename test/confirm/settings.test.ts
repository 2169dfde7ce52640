// What a confirmation can carry as arms, and what it cannot (with why), read from two stored runs:
// per platform, with the mode's inherited run-wide settings made explicit, the mesh's enrolment
// keys and an ambient mode's one ztunnel refused, and the machine's facts kept apart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settingsDiff, withSettings } from '../../src/confirm/settings.ts';
import { storedRun } from './support.ts';

const series = { profile: '100rps', mode: 'svc', metric: 'p50' };

test('local: a delay and an env key are carried; the machine and Node are told apart', () => {
  const before = storedRun({ platform: 'local', modes: [{ name: 'svc', local: { delay: '20ms' }, env: { A: '1' } }] });
  const after = storedRun(
    { platform: 'local', modes: [{ name: 'svc', local: { delay: '21ms' }, env: { A: '1', B: 'x' } }] },
    { tools: { node: 'v22.1.0' } },
  );
  after.run.machine = { ...after.run.machine, os: 'linux 6.8 x64' };
  const diff = settingsDiff(before, after, series);
  assert.deepEqual(
    diff.carried.map((c) => [c.path, c.before, c.after]),
    [
      ['env.B', 'none', 'x'],
      ['local.delay', '20ms', '21ms'],
    ],
  );
  assert.deepEqual(
    diff.fixed.map((f) => [f.key, f.why]),
    [['tools.node', 'node-runtime']],
  );
  assert.deepEqual(
    diff.environment.map((e) => e.key),
    ['runner.os'],
  );
  // The head of a group takes the later value of its settings only; a key the later run lacks is removed.
  const head = withSettings(diff.before, diff.after, ['local.delay']);
  assert.deepEqual(head.local, { hops: 0, delay: '21ms', jitter: '0ms' });
  assert.deepEqual(head.env, { A: '1' });
  assert.deepEqual(withSettings(diff.after, diff.before, ['env.B']).env, { A: '1' });
});

test('a cluster: annotations, the inherited echo image and an Istio upgrade of a sidecar mode are carried', () => {
  const before = storedRun({
    platform: 'kind',
    modes: [{ name: 'svc', mesh: 'istio-sidecar', namespaceAnnotations: { 'x/y': '1' } }],
    kubernetes: { istio: { version: '1.29.2' } },
  });
  const after = storedRun(
    {
      platform: 'kind',
      modes: [{ name: 'svc', mesh: 'istio-sidecar', namespaceAnnotations: { 'x/y': '2' } }],
      kubernetes: { istio: { version: '1.30.3' }, images: { echo: 'fortio/fortio:1.70.0' } },
    },
    { provenance: { images: { 'istiod/discovery': 'docker.io/istio/pilot@sha256:2' }, settings: {} } },
  );
  before.run.provenance = { images: { 'istiod/discovery': 'docker.io/istio/pilot@sha256:1' }, settings: {} };
  const diff = settingsDiff(before, after, series);
  assert.deepEqual(
    diff.carried.map((c) => c.path),
    ['echoImage', 'istio', 'namespaceAnnotations.x/y'],
  );
  assert.deepEqual(diff.fixed, [], JSON.stringify(diff.fixed));
});

test("an ambient mode carries nothing: one ztunnel per node; enrolment keys are never arms, and a secret's change is not seen", () => {
  const ambient = (v: string) => storedRun({ platform: 'kind', modes: [{ name: 'svc', mesh: 'istio-ambient', env: { MODE: v } }] });
  const diff = settingsDiff(ambient('a'), ambient('b'), series);
  assert.deepEqual(diff.carried, []);
  assert.deepEqual(
    diff.fixed.map((f) => [f.key, f.why]),
    [['env.MODE', 'one-ztunnel']],
  );
  const labelled = (v: string) =>
    storedRun({
      platform: 'kind',
      modes: [{ name: 'svc', mesh: 'linkerd', namespaceLabels: { 'istio.io/rev': v }, env: { API_TOKEN: v } }],
    });
  const other = settingsDiff(labelled('one-secret-value'), labelled('another-secret'), series);
  // Both runs stored the token as [redacted]: that it changed is not recorded.
  assert.deepEqual(
    other.fixed.map((f) => [f.key, f.why]),
    [['namespaceLabels.istio.io/rev', 'enrolment-key']],
  );
  assert.deepEqual(other.carried, []);
});

test('what cannot be an arm is named: the load, k6, the cluster; other modes and bookkeeping are not the series', () => {
  const before = storedRun(
    { platform: 'local', modes: [{ name: 'svc' }, { name: 'other' }], load: { rate: 100, duration: '1s', warmup: '0s' } },
    { provenance: { k6: { sha256: 'a'.repeat(64), source: 'PATH' }, settings: {} } },
  );
  const after = storedRun(
    {
      platform: 'local',
      modes: [{ name: 'svc' }, { name: 'other', local: { hops: 2 } }],
      load: { rate: 100, duration: '2s', warmup: '0s' },
    },
    { provenance: { k6: { sha256: 'b'.repeat(64), source: 'PATH' }, settings: {} } },
  );
  const diff = settingsDiff(before, after, series);
  assert.deepEqual(diff.carried, []);
  assert.deepEqual(
    diff.fixed.map((f) => [f.key, f.why]),
    [
      ['config.load.100rps.duration', 'load-profile'],
      ['k6.sha256', 'k6'],
    ],
  );
});
