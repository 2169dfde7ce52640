// ambient-modes measures 10 s, too short for CPU per 1000 rps: plan names the cheapest variant of
// the same benchmark that gets it, with what it costs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.ts';
import { cpuVariantHint, cpuWindowCheck } from '../../src/plan/cpu-window.ts';
import { PRESETS } from '../../src/presets/index.ts';

test('ambient-modes: plan points at ambient-modes-cpu (60 s, 6× the time), which itself is long enough', async () => {
  const short = cpuWindowCheck(await loadConfig({ overrides: { preset: 'ambient-modes' }, overrideOrigin: 'flag' }))!;
  assert.deepEqual(
    short.shortProfiles.map((p) => p.duration),
    ['10s'],
  );
  assert.equal(
    cpuVariantHint(short, 'ambient-modes', PRESETS),
    'Preset ambient-modes-cpu measures 60 s per repetition and gets it, at 6× the measured time.',
  );
  const long = cpuWindowCheck(await loadConfig({ overrides: { preset: 'ambient-modes-cpu' }, overrideOrigin: 'flag' }))!;
  assert.deepEqual(long.shortProfiles, []);
  assert.equal(cpuVariantHint(long, 'ambient-modes-cpu', PRESETS), undefined);
  // Same five modes as the script.
  const cpu = PRESETS.find((p) => p.name === 'ambient-modes-cpu')!;
  const base = PRESETS.find((p) => p.name === 'ambient-modes')!;
  assert.deepEqual(cpu.config.modes, base.config.modes);
  // No variant for a preset without one long enough: nothing invented.
  assert.equal(cpuVariantHint(short, 'kyma-sidecar', [{ name: 'kyma-sidecar', config: { load: { duration: '10s' } } }]), undefined);
});
