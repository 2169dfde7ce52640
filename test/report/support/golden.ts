// Golden files of rendered outputs: each output compared byte for byte with its file in `dir`;
// UPDATE_GOLDEN=1 rewrites them (after reading the diff: a change here is a change users see).
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

export function assertGolden(dir: string, outputs: ReadonlyMap<string, string>): void {
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
    assert.equal(
      text,
      expected,
      `${basename(dir)}/${file} differs from its golden file (UPDATE_GOLDEN=1 rewrites it after an intended change)`,
    );
  }
}
