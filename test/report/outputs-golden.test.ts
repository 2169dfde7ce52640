// Every output a run is rendered into, for a few stored runs, compared byte for byte with the
// files under fixtures/outputs/<run>/: the terminal table, summary.md, the job summary, the PR
// comment, report.html, the dashboard's index entry, the exports and the source-benchmark
// formats. A change here is a change users see; regenerate with UPDATE_GOLDEN=1 only after
// reading the diff, and say in the commit why the output changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStored, renderAll, STORED_RUNS } from './support/outputs.ts';

const GOLDEN = join(import.meta.dirname, 'fixtures', 'outputs');

for (const name of Object.keys(STORED_RUNS) as (keyof typeof STORED_RUNS)[]) {
  test(`${name}: every output matches its golden file`, () => {
    const dir = join(GOLDEN, name);
    const outputs = renderAll(loadStored(name));
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of outputs) writeFileSync(join(dir, file), text);
    }
    for (const [file, text] of outputs) {
      const path = join(dir, file);
      let expected: string;
      try {
        expected = readFileSync(path, 'utf8');
      } catch {
        assert.fail(`golden file ${path} is missing; run with UPDATE_GOLDEN=1 to create it, then review it`);
      }
      assert.equal(text, expected, `${name}/${file} differs from its golden file (UPDATE_GOLDEN=1 rewrites it after an intended change)`);
    }
  });
}
