// `plan` (and `run`, before any load) warns when a profile's rate is above the rate at which the
// runner's own load distorts the p99 it measures: the 2-core figure bench/harness-fidelity
// measured, scaled by the runner's cores. Platforms whose k6 runs elsewhere say nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import {
  describeTailDistortion,
  TAIL_DISTORTION_MEASURED_CORES,
  TAIL_DISTORTION_RPS_PER_CORE,
  tailDistortionCheck,
  tailDistortionRps,
} from '../../src/plan/tail-distortion.ts';
import { runCliInProcess, withTempDir } from '../support/cli.ts';

const config = (platform: string, load: unknown) =>
  validateConfig({
    platform,
    modes: [platform === 'endpoints' ? { name: 'a', url: 'http://127.0.0.1:1/' } : { name: 'baseline' }],
    load,
    ...(platform === 'kubeconfig' ? { kubernetes: { kubeconfig: '/dev/null' } } : {}),
  });

test('the threshold scales with the cores; profiles above it are named, at or below it and closed ones are not', () => {
  const twoCores = tailDistortionRps(2);
  assert.equal(twoCores, TAIL_DISTORTION_RPS_PER_CORE * TAIL_DISTORTION_MEASURED_CORES, 'the measured figure on the measured cores');
  assert.equal(tailDistortionRps(4), 2 * twoCores);
  assert.equal(tailDistortionRps(0), TAIL_DISTORTION_RPS_PER_CORE, 'at least one core');
  const load = [
    { name: 'at', rate: twoCores },
    { name: 'above', rate: twoCores + 1 },
    { name: 'closed', model: 'closed', vus: 50 },
  ];
  const check = tailDistortionCheck(config('local', load), 2)!;
  assert.deepEqual(check, { cores: 2, thresholdRps: twoCores, profiles: [{ name: 'above', rate: twoCores + 1 }], serversOnRunner: true });
  assert.equal(tailDistortionCheck(config('local', load), 4), undefined, 'twice the cores, twice the room');
  assert.equal(tailDistortionCheck(config('local', { rate: twoCores }), 2), undefined);
});

test('where k6 runs decides: this machine for local, endpoints and kind; not kubeconfig', () => {
  const load = { rate: tailDistortionRps(2) + 500 };
  assert.equal(tailDistortionCheck(config('kind', load), 2)?.serversOnRunner, true, 'kind: k6 pods and servers on the runner');
  assert.equal(tailDistortionCheck(config('endpoints', load), 2)?.serversOnRunner, false);
  assert.equal(tailDistortionCheck(config('kubeconfig', load), 2), undefined, "k6 runs on the cluster's nodes");
});

test('the warning names the profiles, the threshold, the cores, what it was measured on and what to do', () => {
  const rate = tailDistortionRps(2) + 1000;
  const local = describeTailDistortion(tailDistortionCheck(config('local', [{ name: 'fast', rate }]), 2)!);
  const threshold = tailDistortionRps(2).toLocaleString('en-US');
  assert.equal(
    local,
    `Profile "fast" (${rate.toLocaleString('en-US')} rps) is above ${threshold} rps, the rate above which a 2-core runner's own work (k6, mesh-perf and the servers) shows in the p99 it measures: the tail would partly be the runner's. Lower the rate, or use a runner with more cores.`,
  );
  const fourCores = describeTailDistortion(tailDistortionCheck(config('local', [{ name: 'fast', rate: 2 * rate }]), 4)!);
  assert.match(
    fourCores,
    /above [\d,]+ rps, the rate above which a 4-core runner's own work .* it measures \([\d,]+ rps measured on 2 cores, scaled\):/,
  );
  const endpoints = describeTailDistortion(
    tailDistortionCheck(
      config('endpoints', [
        { name: 'a', rate },
        { name: 'b', rate: rate + 1 },
      ]),
      2,
    )!,
  );
  assert.match(endpoints, /^Profiles "a" \(.*\), "b" \(.*\) are above/);
  assert.match(endpoints, /\(k6 and mesh-perf; the servers run elsewhere, so this errs on the safe side\) shows/);
});

test('plan prints the warning under the trial table at 80 columns, and in its JSON', async () => {
  const cores = availableParallelism();
  const rate = tailDistortionRps(cores) + 1;
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), `modes: [{ name: a }, { name: b }]\nload: { name: busy, rate: ${rate}, duration: 2s }\n`);
    const table = await runCliInProcess(['plan'], { cwd: dir, columns: 80 });
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Warning: Profile "busy" \([\d,]+ rps\) is above[\s\S]*use\s+a\s+runner\s+with\s+more\s+cores\.\n$/);
    assert.ok(
      table.stdout.split('\n').every((line) => line.length <= 80),
      table.stdout,
    );
    const json = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir })).stdout);
    assert.deepEqual(json.tailDistortion, { thresholdRps: tailDistortionRps(cores), cores, profiles: ['busy'] });
    const calm = await runCliInProcess(['plan', '--rate', String(tailDistortionRps(cores))], { cwd: dir });
    assert.doesNotMatch(calm.stdout, /Warning/);
  });
});
