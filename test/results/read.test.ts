// Every results file read (compare, history, the fork-safe commenter, report) goes through
// parseResultsJson / migrateResults: after migration the document must match the results schema,
// and a file that does not is refused naming the field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResultsJson, ResultsFormatError } from '../../src/results/migrate.ts';
import { RESULTS_SCHEMA_VERSION } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';

const text = (mutate: (doc: Record<string, any>) => void) => {
  const doc = JSON.parse(JSON.stringify(buildRunResult({ suite: 'nightly' })));
  mutate(doc);
  return JSON.stringify(doc);
};

test('a current results file reads back as written', () => {
  const result = buildRunResult({ suite: 'nightly' });
  assert.deepEqual(parseResultsJson(JSON.stringify(result), 'results.json'), JSON.parse(JSON.stringify(result)));
});

test('a wrong type deep inside is refused naming the field and the file', () => {
  const bad = text((doc) => {
    doc.modes[0].repetitions[0].latencyMs.p50 = '12ms';
  });
  assert.throws(
    () => parseResultsJson(bad, 'runs/x/results.json'),
    (error: unknown) =>
      error instanceof ResultsFormatError &&
      /^runs\/x\/results\.json: field modes\.0\.repetitions\.0\.latencyMs\.p50: .*number/.test(error.message),
  );
});

test('a field the contract does not know is refused, as a missing one is', () => {
  assert.throws(
    () =>
      parseResultsJson(
        text((doc) => (doc.modes[0].repetitions[0].latencyMs.p42 = 1)),
        'r.json',
      ),
    /field modes\.0\.repetitions\.0\.latencyMs: .*"p42"/,
  );
  assert.throws(
    () =>
      parseResultsJson(
        text((doc) => delete doc.verdict),
        'r.json',
      ),
    /field verdict: /,
  );
});

test("schema 4 called a PR's base commit mergeBase: read back as baseSha, which is what it is (pull_request.base.sha)", () => {
  const v4 = text((doc) => {
    doc.schemaVersion = 4;
    doc.run.git = { branch: 'feature', baseRef: 'main', mergeBase: 'b'.repeat(40) };
  });
  const read = parseResultsJson(v4, 'old.json');
  assert.equal(read.schemaVersion, RESULTS_SCHEMA_VERSION);
  assert.deepEqual(read.run.git, { branch: 'feature', baseRef: 'main', baseSha: 'b'.repeat(40) });
  assert.equal('mergeBase' in read.run.git, false);
});

test('schema 5 had no mTLS record: a cluster run reads back with what its environment makes certain, nothing more', () => {
  const v5 = (platform: string, istio: Record<string, unknown> | undefined) =>
    text((doc) => {
      doc.schemaVersion = 5;
      doc.run.platform = platform;
      doc.run.environment = istio ? { meshes: { istio } } : {};
      doc.modes = [
        { ...doc.modes[0], name: 'baseline', mesh: undefined },
        { ...doc.modes[0], name: 'istio-ambient', mesh: undefined },
        { ...doc.modes[0], name: 'canary', mesh: 'istio-sidecar' },
        { ...doc.modes[0], name: 'linkerd', mesh: undefined },
      ];
    });
  const read = parseResultsJson(v5('kind', { installedByMeshPerf: true, mtls: 'STRICT' }), 'old.json');
  assert.equal(read.schemaVersion, RESULTS_SCHEMA_VERSION);
  assert.deepEqual(
    read.modes.map((m) => m.mtls),
    [
      { mode: 'none', source: 'no mesh' },
      { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' },
      { mode: 'STRICT', source: 'PeerAuthentication istio-system/default (mesh-wide)' },
      undefined,
    ],
  );
  // Someone else's Istio: its policy was never recorded.
  assert.equal(parseResultsJson(v5('kubeconfig', { installedByMeshPerf: false }), 'old.json').modes[1]!.mtls, undefined);
  // Not a cluster run: nothing to say.
  assert.equal(parseResultsJson(v5('local', undefined), 'old.json').modes[0]!.mtls, undefined);
});

test('schema 6 recorded no provenance: read back as written before v7, nothing of it guessed', () => {
  const v6 = text((doc) => {
    doc.schemaVersion = 6;
    delete doc.run.provenance;
  });
  const read = parseResultsJson(v6, 'old.json');
  assert.equal(read.schemaVersion, RESULTS_SCHEMA_VERSION);
  assert.deepEqual(read.run.provenance, { settings: {}, migratedFrom: 6 });
  // A v7 file keeps what it recorded.
  const v7 = parseResultsJson(
    text((doc) => {
      doc.run.provenance = { k6: { sha256: 'a'.repeat(64), source: 'PATH' }, settings: { svc: '0123456789abcdef' } };
    }),
    'new.json',
  );
  assert.deepEqual(v7.run.provenance, { k6: { sha256: 'a'.repeat(64), source: 'PATH' }, settings: { svc: '0123456789abcdef' } });
});
