// Scenario keys: which results are comparable, and which fields differ when they are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareScenarios, diffScenarioKeys, scenarioKey } from '../../src/analysis/scenario.ts';
import { migrateResults } from '../../src/results/migrate.ts';
import { RESULTS_SCHEMA_VERSION } from '../../src/results/types.ts';
import { syntheticRun, testConfig } from './synthetic.ts';

const levels = { baseline: [1, 1, 1], sidecar: [1.3, 1.3, 1.3] };

test('the key holds suite, mode, profile, load, workload, platform and runner class', () => {
  const config = testConfig({ suite: 'nightly', load: { rate: 500, duration: '30s', method: 'POST', payloadBytes: 1024 } });
  const key = scenarioKey(syntheticRun({ config, levels }), 'sidecar', '500rps');
  assert.deepEqual(key, {
    suite: 'nightly',
    mode: 'sidecar',
    profile: '500rps',
    load: 'open 500 rps × 30s',
    workload: 'http POST /, payload 1024 B',
    platform: 'local',
    runnerClass: 'linux-x64-2c',
  });
});

test('differences are listed field by field; repetitions and seeds do not matter', () => {
  const a = syntheticRun({ config: testConfig({ load: { rate: 1000, duration: '10s', repetitions: 3 } }), levels });
  const b = syntheticRun({ config: testConfig({ load: { rate: 1000, duration: '10s', repetitions: 9 }, plan: { seed: 7 } }), levels });
  assert.deepEqual(diffScenarioKeys(scenarioKey(a, 'sidecar', '1000rps'), scenarioKey(b, 'sidecar', '1000rps')), []);
  const c = syntheticRun({
    config: testConfig({
      platform: 'endpoints',
      modes: [
        { name: 'baseline', url: 'http://127.0.0.1:1/' },
        { name: 'sidecar', url: 'http://127.0.0.1:2/' },
      ],
      load: { rate: 1000, duration: '20s' },
    }),
    levels,
  });
  assert.deepEqual(
    diffScenarioKeys(scenarioKey(a, 'sidecar', '1000rps'), scenarioKey(c, 'sidecar', '1000rps')).map((d) => [d.field, d.a, d.b]),
    [
      ['load', 'open 1000 rps × 10s', 'open 1000 rps × 20s'],
      ['platform', 'local', 'endpoints'],
    ],
  );
});

test('compareScenarios separates comparable, mismatched and one-sided modes', () => {
  const a = syntheticRun({ config: testConfig({}, ['baseline', 'sidecar', 'ambient']), levels: { ...levels, ambient: [1.1, 1.1, 1.1] } });
  const b = syntheticRun({
    config: testConfig({ modes: [{ name: 'baseline' }, { name: 'sidecar', local: { hops: 1 } }, { name: 'linkerd' }] }),
    levels: { ...levels, linkerd: [1.2, 1.2, 1.2] },
  });
  const result = compareScenarios(a, b);
  assert.deepEqual(result.comparable, [{ mode: 'baseline', profile: '1000rps' }]);
  assert.deepEqual(
    result.mismatched.map((m) => [m.mode, m.differences.map((d) => d.field)]),
    [['sidecar', ['workload']]],
  );
  assert.deepEqual(result.onlyInA, [{ mode: 'ambient', profile: '1000rps' }]);
  assert.deepEqual(result.onlyInB, [{ mode: 'linkerd', profile: '1000rps' }]);
});

test('results schema v1 files migrate to the current version; their untyped analysis block is dropped', () => {
  const v1 = { ...syntheticRun({ levels }), schemaVersion: 1, analysis: { free: 'form' } };
  const migrated = migrateResults(JSON.parse(JSON.stringify(v1)), 'old/results.json');
  assert.equal(migrated.schemaVersion, RESULTS_SCHEMA_VERSION);
  assert.equal('analysis' in migrated, false);
  assert.equal(migrated.modes.length, 2);
});
