// The pacer's own Go tests (k6ext/: the schedule's arithmetic, the worker pool's growth, bound and
// close), run with the Go that builds it: the e2e tier has Go already (it builds the pinned tools).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

test('k6ext: go vet and go test pass', { timeout: 300_000 }, async () => {
  const run = promisify(execFile);
  const cwd = join(import.meta.dirname, '..', '..', 'k6ext');
  const env = { ...process.env, GOFLAGS: '-mod=readonly' };
  await run('go', ['vet', './...'], { cwd, env, timeout: 240_000 });
  const { stdout } = await run('go', ['test', '-count=1', './...'], { cwd, env, timeout: 240_000 });
  assert.match(stdout, /^ok\s+github\.com\/org\/mesh-perf-action\/k6ext\s/m, stdout);
  assert.match(stdout, /^ok\s+github\.com\/org\/mesh-perf-action\/k6ext\/schedule\s/m, stdout);
});
