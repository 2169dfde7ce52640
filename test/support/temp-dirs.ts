// Temporary directories for tests, removed when the test process exits: each test file runs in a
// process of its own, and a file whose tests skip their own cleanup (or fail before it) would
// otherwise leave its git remotes and runner files in the machine's temp directory, hundreds a run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory named mesh-perf-<prefix>-XXXXXX, removed at exit if nothing removed it first. */
export function testTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `mesh-perf-${prefix}-`));
  made.add(dir);
  return dir;
}
