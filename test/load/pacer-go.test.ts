// The pacer's own Go tests (k6ext/: the schedule's arithmetic, the worker pool's growth, bound and
// close), run with the Go that builds it (the e2e tier has Go already: it builds the pinned
// tools), and its reproducible build checked against the pinned SHA-256: a change to k6ext/ that
// does not update the pin fails here, not at release.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
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

test("k6ext builds to the bytes src/tools/pins.ts pins for this machine's platform (the release refuses others)", {
  timeout: 600_000,
}, async () => {
  const run = promisify(execFile);
  const root = join(import.meta.dirname, '..', '..');
  const platform = ({ 'linux-x64': 'linux-amd64', 'linux-arm64': 'linux-arm64' } as Record<string, string | undefined>)[
    `${process.platform}-${process.arch}`
  ];
  assert.ok(platform, `no pinned build for ${process.platform}-${process.arch}`);
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-k6-pacer-'));
  try {
    await run('bash', [join(root, 'scripts', 'build-k6-pacer.sh'), platform, join(dir, 'k6')], { timeout: 540_000 });
    const { stdout } = await run(process.execPath, [
      '--import',
      import.meta.resolve('tsx'),
      join(root, 'scripts', 'check-k6-pacer-pin.ts'),
      platform,
      join(dir, 'k6'),
    ]);
    assert.match(stdout, /as pinned/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
