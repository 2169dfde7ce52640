import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { makeFreshDirectory } from '../../src/util/make-directory.ts';

test('a fresh directory named by the second: the parent made, and a -2, -3 suffix when the name is taken, even by commands racing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-fresh-'));
  try {
    const parent = join(dir, 'mesh-perf-confirm');
    const first = await makeFreshDirectory(parent, '20261206T235959Z');
    assert.equal(first, join(parent, '20261206T235959Z'));
    await writeFile(join(first, 'confirmation.json'), '{}');
    // Three more in the same second, at once: each its own folder, the first's file untouched.
    const racing = await Promise.all([1, 2, 3].map(() => makeFreshDirectory(parent, '20261206T235959Z')));
    assert.deepEqual(new Set(racing).size, 3);
    assert.deepEqual((await readdir(parent)).sort(), [
      '20261206T235959Z',
      '20261206T235959Z-2',
      '20261206T235959Z-3',
      '20261206T235959Z-4',
    ]);
    assert.ok(existsSync(join(first, 'confirmation.json')));
    // A file where the parent should be: the error names it.
    await writeFile(join(dir, 'plain-file'), '');
    await assert.rejects(makeFreshDirectory(join(dir, 'plain-file'), 'x', '--out'), /--out: .*plain-file is a file, not a directory/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
