// Every output a run is rendered into, for a few stored runs, compared byte for byte with the
// files under fixtures/outputs/<run>/: the terminal table, summary.md, the job summary, the PR
// comment, report.html, the dashboard's index entry, the exports and the source-benchmark
// formats. A change here is a change users see; regenerate with UPDATE_GOLDEN=1 only after
// reading the diff, and say in the commit why the output changed.
import { test } from 'node:test';
import { join } from 'node:path';
import { assertGolden } from './support/golden.ts';
import { loadStored, renderAll, STORED_RUNS } from './support/outputs.ts';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'outputs');

for (const name of Object.keys(STORED_RUNS) as (keyof typeof STORED_RUNS)[]) {
  test(`${name}: every output matches its golden file`, () => {
    assertGolden(join(GOLDEN, name), renderAll(loadStored(name)));
  });
}
