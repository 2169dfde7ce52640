// The results say which requests/limits each mode's proxies ran with: resources.proxy for
// sidecars, Linkerd proxies and waypoints of meshes mesh-perf installed, and why not otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { proxyResourcesByMode } from '../../../src/platform/kubernetes/mesh/proxy-resources.ts';
import type { MeshInstallation } from '../../../src/platform/kubernetes/mesh/types.ts';

const proxy = { cpu: '20m', memory: '32Mi', cpuLimit: '1', memoryLimit: '256Mi' };
const modes = [
  { name: 'baseline', kind: 'baseline' as const },
  { name: 'sidecar', kind: 'istio-sidecar' as const },
  { name: 'ambient', kind: 'istio-ambient' as const },
  { name: 'waypoint', kind: 'istio-waypoint' as const },
  { name: 'linkerd', kind: 'linkerd' as const },
];
const mesh = (name: 'istio' | 'linkerd', installedByUs: boolean): MeshInstallation => ({
  mesh: name,
  version: 'x',
  installedByUs,
  namespace: name,
  details: {},
});

test('meshes mesh-perf installed: sidecars, Linkerd proxies and the waypoint all get resources.proxy', () => {
  const applied = proxyResourcesByMode(modes, [mesh('istio', true), mesh('linkerd', true)], proxy);
  assert.deepEqual(applied.baseline, {});
  assert.deepEqual(applied.sidecar, { sidecar: proxy });
  assert.deepEqual(applied.linkerd, { sidecar: proxy });
  assert.deepEqual(applied.waypoint!.waypoint, proxy);
  assert.match((applied.waypoint!.ztunnel as { source: string }).source, /not resources\.proxy/);
  assert.deepEqual(Object.keys(applied.ambient!), ['ztunnel']);
});

test('a mesh that was already running keeps its own settings, and the results say so', () => {
  const applied = proxyResourcesByMode(modes, [mesh('istio', false), mesh('linkerd', true)], proxy);
  assert.match((applied.sidecar!.sidecar as { source: string }).source, /existing mesh/);
  assert.match((applied.waypoint!.waypoint as { source: string }).source, /existing mesh/);
  assert.deepEqual(applied.linkerd, { sidecar: proxy });
});
