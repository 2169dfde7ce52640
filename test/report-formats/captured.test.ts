// Source-benchmark formats rendered from results.json files captured from real runs (fixtures/README.md says
// how), read through the results migration as any stored run would be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateResults } from '../../src/results/migrate.ts';
import { renderSourceFormats } from '../../src/report/formats/index.ts';
import { assertGolden } from './golden.ts';
import { buildRunView } from '../../src/report/view.ts';

function captured(name: string) {
  const path = join(import.meta.dirname, 'fixtures', name);
  return migrateResults(JSON.parse(readFileSync(path, 'utf8')), path);
}

test('ambient-modes formats from a captured local run (golden)', () => {
  const result = captured('ambient-modes.local.results.json');
  const formats = renderSourceFormats(buildRunView(result));
  assert.deepEqual(
    formats.map((f) => f.name),
    ['ambient-csv', 'ambient-table'],
  );
  assertGolden('captured-ambient-modes.csv', formats[0]!.content);
  assertGolden('captured-ambient-modes.txt', formats[1]!.content);
});

test('kyma-sidecar tables from a captured local run (golden)', () => {
  const result = captured('kyma-sidecar.local.results.json');
  const formats = renderSourceFormats(buildRunView(result));
  assert.deepEqual(
    formats.map((f) => f.name),
    ['kyma-tables'],
  );
  assertGolden('captured-kyma-sidecar.md', formats[0]!.content);
});
