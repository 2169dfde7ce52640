// `plan` says how long a repetition must measure for a CPU-per-1000-rps figure on Kubernetes
// platforms, and which profiles fall short; the platforms that sample no CPU say nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { cpuWindowCheck, describeCpuWindow } from '../../src/plan/cpu-window.ts';
import { runCli, withTempDir } from '../support/cli.ts';

const kube = (load: unknown, kubernetes: Record<string, unknown> = {}) =>
  validateConfig({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load, kubernetes: { kubeconfig: '/dev/null', ...kubernetes } });

test('the shortest duration with a CPU figure, and the profiles shorter than it', () => {
  const check = cpuWindowCheck(
    kube([
      { name: 'short', rate: 100, duration: '10s' },
      { name: 'long', rate: 100, duration: '1m' },
    ]),
  )!;
  assert.equal(check.minimumMs, 60_000);
  assert.deepEqual(check.shortProfiles, [{ name: 'short', duration: '10s' }]);
  assert.equal(
    describeCpuWindow(check),
    'CPU per 1000 rps needs at least 60 s measured per repetition (two kubelet refreshes of up to 30 s); profile "short" (10s) is shorter and may get none.',
  );
  // Scraping less often than the kubelet refreshes needs longer.
  assert.equal(cpuWindowCheck(kube({ rate: 100, duration: '2m' }, { sampleInterval: '20s' }))!.minimumMs, 100_000);
  assert.match(describeCpuWindow(cpuWindowCheck(kube({ rate: 100, duration: '60s' }))!), /every profile measures that long\.$/);
  assert.equal(cpuWindowCheck(validateConfig({ modes: [{ name: 'a' }], load: { rate: 5 } })), undefined);
});

test('plan prints the minimum under the trial table and in its JSON', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(
      join(dir, 'mesh-perf.yaml'),
      'platform: kubeconfig\nmodes: [{ name: baseline }]\nload: { rate: 100, duration: 10s }\nkubernetes: { kubeconfig: /dev/null }\n',
    );
    // An 80-column terminal: the note wraps to it like the table fits it.
    const table = await runCli(['plan'], { cwd: dir, env: { COLUMNS: '80' } });
    assert.equal(table.code, 0, table.stderr);
    assert.match(
      table.stdout,
      /CPU per 1000 rps needs at least 60 s measured per repetition \(two kubelet\srefreshes of up to 30 s\);\sprofile "[^"]+" \(10s\) is shorter and may get none\.\n$/,
    );
    assert.ok(
      table.stdout.split('\n').every((line) => line.length <= 80),
      table.stdout,
    );
    const json = JSON.parse((await runCli(['plan', '--json', '--duration', '75s'], { cwd: dir })).stdout);
    assert.deepEqual(json.cpuPer1000Rps, { minimumDurationS: 60, shortProfiles: [] });
    await writeFile(join(dir, 'local.yaml'), 'modes: [{ name: a }]\nload: { rate: 5, duration: 2s }\n');
    const local = await runCli(['plan', '--config', 'local.yaml'], { cwd: dir });
    assert.equal(local.code, 0, local.stderr);
    assert.doesNotMatch(local.stdout, /CPU/, 'the local platform samples no CPU');
  });
});
