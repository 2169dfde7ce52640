// A run's facts side by side with another's: every field that differs, settings keyed by mode and
// profile name (not position), what only says how the run is judged left out, and what a run
// written before v7 could not record not shown as changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffFacts, provenanceMissing, runFacts } from '../../src/results/facts.ts';
import { publicConfig } from '../../src/config/public.ts';
import { validateConfig } from '../../src/config/validate.ts';
import type { RunResult } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';

const withConfig = (raw: Record<string, unknown>, provenance?: RunResult['run']['provenance']): RunResult => {
  const result = buildRunResult({ suite: 'nightly' });
  return {
    ...result,
    config: publicConfig(validateConfig({ load: { rate: 100 }, ...raw })),
    run: { ...result.run, ...(provenance ? { provenance } : {}) },
  };
};

test('settings, provenance and tools that differ are listed; gates and the plan are not', () => {
  const before = withConfig(
    { platform: 'local', modes: [{ name: 'a' }, { name: 'svc', local: { delay: '20ms' } }], gates: { thresholds: ['p(95) < 1s'] } },
    { k6: { sha256: 'a'.repeat(64), source: 'PATH' }, runner: { imageVersion: '20261101.1' }, settings: { svc: '1111' } },
  );
  // The modes in another order: compared by name.
  const after = withConfig(
    { platform: 'local', modes: [{ name: 'svc', local: { delay: '21ms' } }, { name: 'a' }], plan: { seed: 7 } },
    { k6: { sha256: 'a'.repeat(64), source: 'PATH' }, runner: { imageVersion: '20261108.2' }, settings: { svc: '2222' } },
  );
  const { changes, unknown } = diffFacts(runFacts(before), runFacts(after));
  assert.equal(unknown, 0);
  assert.deepEqual(
    changes.map((c) => [c.key, c.before, c.after]),
    [
      ['config.modes.svc.local.delay', '20ms', '21ms'],
      ['runner.imageVersion', '20261101.1', '20261108.2'],
      ['settings.svc', '1111', '2222'],
    ],
  );
  assert.ok(!Object.keys(runFacts(before)).some((k) => k.startsWith('config.kubernetes')), 'no cluster settings off a cluster');
});

test('a run written before v7: its unrecorded provenance is unknown, not changed', () => {
  const old = withConfig({ platform: 'local', modes: [{ name: 'svc' }] }, { settings: {}, migratedFrom: 6 });
  const now = withConfig(
    { platform: 'local', modes: [{ name: 'svc' }] },
    { k6: { sha256: 'b'.repeat(64), source: 'PATH' }, settings: { svc: 'ffff' } },
  );
  assert.ok(provenanceMissing(old));
  assert.ok(!provenanceMissing(now));
  const { changes, unknown } = diffFacts(runFacts(old), runFacts(now), { before: true });
  assert.deepEqual(changes, []);
  assert.equal(unknown, 3);
  // Without knowing that, the same facts read as changed.
  assert.equal(diffFacts(runFacts(old), runFacts(now)).changes.length, 3);
});
