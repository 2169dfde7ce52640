// Golden-file comparison: the expected output lives in test/report-formats/golden/<name>.
// Regenerate after an intended format change with UPDATE_GOLDEN=1 and review the diff.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, 'golden');

export function assertGolden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  let expected: string;
  try {
    expected = readFileSync(path, 'utf8');
  } catch {
    assert.fail(`golden file ${path} is missing; run with UPDATE_GOLDEN=1 to create it, then review it`);
  }
  assert.equal(actual, expected, `output differs from ${path} (UPDATE_GOLDEN=1 rewrites it after an intended change)`);
}
