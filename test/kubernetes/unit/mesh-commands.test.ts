// The exact command lines the product runs for istioctl and linkerd (which cannot all run here:
// no data plane, no linkerd binary). A change to any argument must show up in this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clusterArgs,
  cpuMillicores,
  goDuration,
  istioClientVersionArgs,
  istioInstallArgs,
  istioRevisionInstallArgs,
  istioUninstallArgs,
  istioWaypointArgs,
  linkerdCheckArgs,
  linkerdClientVersionArgs,
  linkerdCrdsArgs,
  linkerdInstallArgs,
  linkerdUpgradeArgs,
  linkerdUpgradeCrdsArgs,
} from '../../../src/platform/kubernetes/mesh/commands.ts';
import { linkerdStep, parseLinkerdConfig, valueAt } from '../../../src/platform/kubernetes/mesh/linkerd-state.ts';

const proxy = { cpu: '20m', memory: '32Mi', cpuLimit: '1', memoryLimit: '256Mi' };
const flags = { kubeconfigPath: '/tmp/kc', context: 'kind-mesh-perf' };

test('cluster flags: only what was given', () => {
  assert.deepEqual(clusterArgs({}), []);
  assert.deepEqual(clusterArgs({ kubeconfigPath: '/k' }), ['--kubeconfig', '/k']);
  assert.deepEqual(clusterArgs({ context: 'c' }), ['--context', 'c']);
  assert.deepEqual(clusterArgs(flags), ['--kubeconfig', '/tmp/kc', '--context', 'kind-mesh-perf']);
});

test("istioctl install of a mode's own revision: istiod only, under its name, no base chart (the run's CRDs stay), its values last", () => {
  assert.deepEqual(
    istioRevisionInstallArgs(flags, 'mp-istio-sidecar-head', {
      hub: 'canary.test/istio',
      proxy,
      readinessTimeoutMs: 120_000,
      extra: { 'values.global.proxy.resources.limits.cpu': '2000m' },
    }),
    [
      'install',
      '-y',
      '--revision',
      'mp-istio-sidecar-head',
      '--set',
      'profile=minimal',
      '--set',
      'values.profile=ambient',
      '--set',
      'components.base.enabled=false',
      '--set',
      'hub=canary.test/istio',
      '--set',
      'values.pilot.env.ENABLE_NATIVE_SIDECARS=true',
      '--set',
      'values.pilot.resources.requests.cpu=100m',
      '--set',
      'values.pilot.resources.requests.memory=256Mi',
      '--set',
      'values.global.proxy.resources.requests.cpu=20m',
      '--set',
      'values.global.proxy.resources.requests.memory=32Mi',
      '--set',
      'values.global.proxy.resources.limits.cpu=2000m',
      '--set',
      'values.global.proxy.resources.limits.memory=256Mi',
      '--set',
      'values.global.waypoint.resources.requests.cpu=20m',
      '--set',
      'values.global.waypoint.resources.requests.memory=32Mi',
      '--set',
      'values.global.waypoint.resources.limits.cpu=1000m',
      '--set',
      'values.global.waypoint.resources.limits.memory=256Mi',
      '--readiness-timeout',
      '120s',
      '--kubeconfig',
      '/tmp/kc',
      '--context',
      'kind-mesh-perf',
    ],
  );
  // Without a hub: istioctl's own (or the mirror, which the installer passes as the hub).
  assert.ok(!istioRevisionInstallArgs({}, 'r', { proxy, readinessTimeoutMs: 1000, extra: {} }).some((a) => a.startsWith('hub=')));
});

test('Go durations are whole seconds, at least 1s', () => {
  for (const [ms, text] of [
    [300_000, '300s'],
    [1500, '2s'],
    [10, '1s'],
  ] as const)
    assert.equal(goDuration(ms), text);
});

test('istioctl install: ambient profile, native sidecars, lowered requests, recorded proxy resources, user values last', () => {
  assert.deepEqual(
    istioInstallArgs(flags, {
      hub: 'gcr.io/istio-release',
      proxy,
      readinessTimeoutMs: 300_000,
      extra: { 'values.pilot.autoscaleEnabled': 'false' },
    }),
    [
      'install',
      '-y',
      '--set',
      'profile=ambient',
      '--set',
      'hub=gcr.io/istio-release',
      '--set',
      'values.pilot.env.ENABLE_NATIVE_SIDECARS=true',
      '--set',
      'values.pilot.resources.requests.cpu=100m',
      '--set',
      'values.pilot.resources.requests.memory=256Mi',
      '--set',
      'values.ztunnel.resources.requests.cpu=50m',
      '--set',
      'values.ztunnel.resources.requests.memory=64Mi',
      '--set',
      'values.cni.resources.requests.cpu=20m',
      '--set',
      'values.cni.resources.requests.memory=32Mi',
      '--set',
      'values.global.proxy.resources.requests.cpu=20m',
      '--set',
      'values.global.proxy.resources.requests.memory=32Mi',
      '--set',
      'values.global.proxy.resources.limits.cpu=1000m',
      '--set',
      'values.global.proxy.resources.limits.memory=256Mi',
      // The waypoint gets the same proxy resources as sidecars and Linkerd's proxies.
      '--set',
      'values.global.waypoint.resources.requests.cpu=20m',
      '--set',
      'values.global.waypoint.resources.requests.memory=32Mi',
      '--set',
      'values.global.waypoint.resources.limits.cpu=1000m',
      '--set',
      'values.global.waypoint.resources.limits.memory=256Mi',
      '--set',
      'values.pilot.autoscaleEnabled=false',
      '--readiness-timeout',
      '300s',
      '--kubeconfig',
      '/tmp/kc',
      '--context',
      'kind-mesh-perf',
    ],
  );
});

test('istioctl install without a hub leaves the default registry; a user value overrides ours', () => {
  const args = istioInstallArgs({}, { proxy, readinessTimeoutMs: 60_000, extra: { 'values.global.proxy.resources.requests.cpu': '50m' } });
  assert.ok(!args.some((a) => a.startsWith('hub=')));
  assert.ok(args.includes('values.global.proxy.resources.requests.cpu=50m'));
  assert.ok(!args.includes('values.global.proxy.resources.requests.cpu=20m'));
  assert.deepEqual(args.slice(-2), ['--readiness-timeout', '60s']);
});

test('CPU quantities become millicores for istioctl (a bare number would not unmarshal)', () => {
  for (const [q, m] of [
    ['1', '1000m'],
    ['0.5', '500m'],
    ['2.25', '2250m'],
    ['250m', '250m'],
  ])
    assert.equal(cpuMillicores(q!), m);
});

test('istioctl waypoint, uninstall and version', () => {
  assert.deepEqual(istioWaypointArgs(flags, 'mesh-perf-istio-waypoint', 120_000), [
    'waypoint',
    'apply',
    '--namespace',
    'mesh-perf-istio-waypoint',
    '--enroll-namespace',
    '--wait',
    '--waypoint-timeout',
    '120s',
    '--kubeconfig',
    '/tmp/kc',
    '--context',
    'kind-mesh-perf',
  ]);
  // A waypoint mode with its own revision: the waypoint is bound to it.
  assert.deepEqual(istioWaypointArgs({}, 'ns', 60_000, 'mp-istio-waypoint-head').slice(0, 6), [
    'waypoint',
    'apply',
    '--namespace',
    'ns',
    '--revision',
    'mp-istio-waypoint-head',
  ]);
  assert.deepEqual(istioUninstallArgs({}), ['uninstall', '--purge', '-y']);
  assert.deepEqual(istioClientVersionArgs(), ['version', '--remote=false', '--short']);
});

test('linkerd: CRDs without its own Gateway API copy, control plane with native sidecars and the shared proxy resources, check waits', () => {
  assert.deepEqual(linkerdCrdsArgs(flags), [
    'install',
    '--crds',
    '--set',
    'installGatewayAPI=false',
    '--kubeconfig',
    '/tmp/kc',
    '--context',
    'kind-mesh-perf',
  ]);
  assert.deepEqual(linkerdInstallArgs({}, { proxy, extra: { controllerLogLevel: 'debug' } }), [
    'install',
    '--set',
    'proxy.nativeSidecar=true',
    '--set',
    'proxy.resources.cpu.request=20m',
    '--set',
    'proxy.resources.memory.request=32Mi',
    '--set',
    'proxy.resources.cpu.limit=1',
    '--set',
    'proxy.resources.memory.limit=256Mi',
    '--set',
    'controllerLogLevel=debug',
  ]);
  assert.deepEqual(linkerdCheckArgs(flags, 300_000), ['check', '--wait', '300s', '--kubeconfig', '/tmp/kc', '--context', 'kind-mesh-perf']);
  assert.deepEqual(linkerdClientVersionArgs(), ['version', '--client', '--short']);
});

test('linkerd over an earlier installation: upgrade renders CRDs and control plane with the same values as install', () => {
  assert.deepEqual(linkerdUpgradeCrdsArgs(flags), [
    'upgrade',
    '--crds',
    '--set',
    'installGatewayAPI=false',
    '--kubeconfig',
    '/tmp/kc',
    '--context',
    'kind-mesh-perf',
  ]);
  const install = linkerdInstallArgs(flags, { proxy, extra: { controllerLogLevel: 'debug' } });
  const upgrade = linkerdUpgradeArgs(flags, { proxy, extra: { controllerLogLevel: 'debug' } });
  assert.equal(upgrade[0], 'upgrade');
  assert.deepEqual(upgrade.slice(1), install.slice(1));
});

// linkerd-config as `linkerd install` renders it: data.values is the chart's values, YAML.
const storedValues = [
  'linkerdVersion: edge-26.9.1',
  'controllerLogLevel: info',
  'proxy:',
  '  nativeSidecar: true',
  '  resources:',
  '    cpu: { request: 20m, limit: 1 }',
  '    memory: { request: 32Mi, limit: 256Mi }',
].join('\n');
const configMap = { metadata: { annotations: { 'linkerd.io/created-by': 'linkerd/cli edge-26.9.1' } }, data: { values: storedValues } };
const values = {
  'proxy.nativeSidecar': 'true',
  'proxy.resources.cpu.request': '20m',
  'proxy.resources.memory.request': '32Mi',
  'proxy.resources.cpu.limit': '1',
  'proxy.resources.memory.limit': '256Mi',
};

test('linkerd step: install on a fresh cluster, nothing when version and values match, upgrade otherwise', () => {
  const installed = parseLinkerdConfig(configMap);
  assert.equal(installed.version, 'edge-26.9.1');
  assert.equal(linkerdStep(undefined, { version: 'edge-26.9.1', values }), 'install');
  assert.equal(linkerdStep(installed, { version: 'edge-26.9.1', values }), 'current');
  assert.equal(linkerdStep(installed, { version: 'edge-26.10.1', values }), 'upgrade');
  assert.equal(linkerdStep(installed, { version: 'edge-26.9.1', values: { ...values, 'proxy.resources.cpu.limit': '2' } }), 'upgrade');
  assert.equal(linkerdStep(installed, { version: 'edge-26.9.1', values: { ...values, controllerLogLevel: 'debug' } }), 'upgrade');
  // A key we cannot follow in the stored values is never assumed current.
  assert.equal(linkerdStep(installed, { version: 'edge-26.9.1', values: { ...values, 'proxy.ports[0]': '1' } }), 'upgrade');
  assert.equal(valueAt(installed.values, 'proxy.resources'), undefined);
});

test('linkerd step: the version falls back to the created-by annotation; unreadable values mean upgrade', () => {
  const noValues = parseLinkerdConfig({ metadata: configMap.metadata, data: { values: ': not yaml: [' } });
  assert.equal(noValues.version, 'edge-26.9.1');
  assert.equal(linkerdStep(noValues, { version: 'edge-26.9.1', values }), 'upgrade');
});
