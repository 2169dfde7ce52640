// `mesh-perf plan --preset` on cluster presets: the trial table shows each trial's echo pod count
// (marking the trials that scale first) and the gateway, and the estimate includes scaling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';

async function cli(argv: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: () => {},
    log: silentLogger,
    cwd: '/nonexistent-dir',
    signal: new AbortController().signal,
  });
  return { code, stdout };
}

test('plan --preset uds-scale: pods per trial, scaling marked, gateway named, estimate with scaling', async () => {
  const { code, stdout } = await cli(['plan', '--preset', 'uds-scale']);
  assert.equal(code, 0, stdout);
  const rows = stdout
    .split('\n')
    .filter((l) => /^\d+ +\d+ /.test(l))
    .map((l) => l.trim().split(/\s{2,}/));
  assert.equal(rows.length, 8);
  assert.deepEqual(
    rows.map((r) => r.at(-2)),
    ['1', '1', '→10', '10', '→50', '50', '→90', '90'],
  );
  assert.ok(rows.every((r) => r.at(-1) === 'gw'));
  assert.match(stdout, /via gw: Istio's ingress gateway, 1 pod, HTTPS \(self-signed\)/);
  assert.match(stdout, /~40m 40s of load\n\+ 3 scaling steps \(~1m 45s, estimated\) = ~42m 25s\n/);
  // The whole job: the scaling steps are part of its load.
  assert.match(
    stdout.replace(/\s+/g, ' '),
    /Whole job on kind, estimated: ~43m 45s: create the kind cluster ~45s, install Istio ~25s, workloads of 1 mode ~5s, load ~42m 25s, delete the cluster ~5s;/,
  );
  for (const line of stdout.split('\n'))
    if (/^(\d|#|─|via|pods|\+)/.test(line)) assert.ok([...line].length <= 80, `wider than 80 columns: ${line}`);
});

test('plan --json carries pods, the gateway and the scaling estimate', async () => {
  const { stdout } = await cli(['plan', '--preset', 'kyma-sidecar', '--json']);
  const plan = JSON.parse(stdout);
  assert.deepEqual(plan.ingress, { replicas: 10, tls: true });
  assert.equal(plan.scalingSteps, 0);
  assert.equal(plan.estimatedSeconds, plan.loadSeconds);
  // The whole job adds the kind cluster, Istio and the two modes' workloads around the load.
  assert.equal(plan.job.estimatedSeconds.first, plan.loadSeconds + 45 + 25 + 2 * 5 + 5);
  assert.deepEqual(
    plan.job.steps.map((s: { step: string }) => s.step),
    ['kindCreate', 'istioInstall', 'modeWorkloads', 'kindDelete'],
  );
  assert.ok(plan.trials.every((t: { pods: number; via: string }) => t.pods === 1 && t.via === 'gateway'));
});

test('plan on the local platform keeps its columns', async () => {
  const { stdout } = await cli(['plan', '--preset', 'kyma-sidecar', '--platform', 'local']);
  assert.doesNotMatch(stdout.split('\n').find((l) => l.startsWith('#'))!, /pods|via/);
});
