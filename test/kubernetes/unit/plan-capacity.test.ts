// What `plan` chooses load.generators: auto from on a cluster: kind's configured workers, each
// seeing this machine's cores; a kubeconfig cluster that cannot be read now leaves the choice to
// the run and says why. (Reading a live cluster's nodes is covered by test/kubernetes/generators.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../../src/config/validate.ts';
import { rateCeiling, RPS_PER_K6_PROCESS } from '../../../src/load/ceiling.ts';
import { clusterPlanCapacity } from '../../../src/platform/kubernetes/plan-capacity.ts';

test('kind: one client pod per worker but one, each with its CPU limit of the cores every kind node sees', async () => {
  const config = validateConfig({
    platform: 'kind',
    modes: [{ name: 'baseline' }],
    load: { rate: 20_000, generators: 'auto' },
    kubernetes: { kind: { workers: 4 }, resources: { client: { cpu: '500m', cpuLimit: '1500m' } } },
  });
  const { capacity, note } = await clusterPlanCapacity(config, {}, 8);
  assert.equal(note, undefined);
  assert.deepEqual(capacity, {
    instances: 3,
    rpsPerInstance: RPS_PER_K6_PROCESS,
    totalRps: 3 * rateCeiling(1.5, false),
    describe: "4 schedulable nodes (one kept for the echo server), 1500m CPU per client pod; kind's nodes share this machine's 8 cores",
  });
});

test('kubeconfig: a cluster that cannot be read now leaves auto to the run, saying why', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-plan-capacity-'));
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    // A server nothing listens on: port 9 of this machine.
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: "https://127.0.0.1:9" } }]\nusers: [{ name: u, user: { token: t } }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n',
    );
    const config = validateConfig({
      platform: 'kubeconfig',
      modes: [{ name: 'baseline' }],
      load: { rate: 100, generators: 'auto' },
      kubernetes: { kubeconfig },
    });
    const { capacity, note } = await clusterPlanCapacity(config, {});
    assert.equal(capacity, undefined);
    assert.match(note!, /^auto is chosen at run time: the cluster could not be read now \(.*127\.0\.0\.1:9.*\)$/);
    assert.doesNotMatch(note!, /token|\bt\b/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
