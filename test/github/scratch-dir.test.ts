// The run's temporary directory: os.tmpdir() and child processes see it while the run lasts, and
// TMPDIR is put back exactly as it was (set or unset) when the run leaves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { enterScratchDir } from '../../src/github/scratch-dir.ts';

for (const before of [undefined, '/var/tmp']) {
  test(`temporary files go under RUNNER_TEMP while the run lasts (TMPDIR ${before ?? 'unset'} before)`, async () => {
    const runnerTemp = await mkdtemp(join(tmpdir(), 'runner-temp-'));
    const saved = process.env.TMPDIR;
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    try {
      const scratch = await enterScratchDir(runnerTemp);
      assert.equal(dirname(scratch.dir), runnerTemp);
      assert.equal(tmpdir(), scratch.dir, 'os.tmpdir() follows');
      const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("os").tmpdir())'], { encoding: 'utf8' });
      assert.equal(child, scratch.dir, 'child processes inherit it');
      await writeFile(join(scratch.dir, 'k6-summary.json'), '{}');
      await scratch.leave();
      assert.ok(!existsSync(scratch.dir), 'removed with what it held');
      assert.equal(process.env.TMPDIR, before, 'TMPDIR back as it was');
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      await rm(runnerTemp, { recursive: true, force: true });
    }
  });
}
