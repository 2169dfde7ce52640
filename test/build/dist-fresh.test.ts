// dist/ is committed (GitHub runs the action straight from the repository), so it must be what
// the sources build to. This rebuilds into a temp dir and compares every file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withTempDir } from '../support/cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

test('dist/, schema/ and the action tables in docs/action.md are fresh (run `npm run build` and commit)', {
  timeout: 180_000,
}, async () => {
  await withTempDir(async (out) => {
    execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--outdir', out], { cwd: root, stdio: 'pipe' });
    for (const folder of ['dist', 'schema']) {
      const expected = listFiles(join(out, folder))
        .map((f) => relative(out, f))
        .sort();
      const actual = listFiles(join(root, folder))
        .map((f) => relative(root, f))
        .sort();
      assert.deepEqual(actual, expected, `${folder}/ has different files than a fresh build`);
      for (const file of expected) {
        assert.ok(readFileSync(join(root, file)).equals(readFileSync(join(out, file))), `${file} is stale`);
      }
    }
    assert.equal(
      readFileSync(join(root, 'docs/action.md'), 'utf8'),
      readFileSync(join(out, 'docs/action.md'), 'utf8'),
      'docs/action.md inputs/outputs tables are stale',
    );
  });
});
