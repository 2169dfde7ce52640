// `mesh-perf run` with history.publish: true, or --publish true (issue 54: three runs with
// `history: { store: ./store, publish: true }` and one with --publish true left the store at one
// run). Real runs (k6, the local platform's echo servers) into a real folder store, read back with
// the store itself; each later run is compared with the earlier ones. Without a store the setting
// is refused by `plan` and by `run` before any load, naming the command that publishes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../../src/history/open-store.ts';
import { runCli, runCliInProcess, withTempDir } from '../support/cli.ts';

const config = (history: string) =>
  [
    'platform: local',
    'modes:',
    '  - { name: direct, local: { hops: 0 } }',
    '  - { name: one-hop, local: { hops: 1 } }',
    'load: { rate: 20, duration: 1s, warmup: 0s, repetitions: 2 }',
    history,
    '',
  ].join('\n');

async function storedRuns(store: string): Promise<string[]> {
  const runs = await openStore(store, { chartJs: async () => '' }).list({ suite: 'default' });
  return runs.map((r) => r.run.id);
}

test('history.publish: true publishes each run to history.store; --publish false keeps one out, --publish true with --history-store puts one in', {
  timeout: 300_000,
}, async () => {
  await withTempDir(async (dir) => {
    const store = join(dir, 'store');
    await writeFile(join(dir, 'publishing.yaml'), config('history: { store: ./store, publish: true }'));
    await writeFile(join(dir, 'plain.yaml'), config(''));
    // Past runs are matched by git branch: the folder is a checkout, as a user's repository is.
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
        cwd: dir,
      });
    git('init', '--quiet');
    git('commit', '--quiet', '--allow-empty', '-m', 'start');
    const first = await runCli(['run', '--config', 'publishing.yaml'], { cwd: dir });
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /^Published: .*store: 1 run published/m);
    assert.equal((await storedRuns(store)).length, 1);

    // The second run is compared with the first (its reference), then published beside it.
    const second = await runCli(['run', '--config', 'publishing.yaml'], { cwd: dir });
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.doesNotMatch(second.stdout, /no reference runs/);
    assert.equal((await storedRuns(store)).length, 2);

    const kept = await runCli(['run', '--config', 'publishing.yaml', '--publish', 'false'], { cwd: dir });
    assert.equal(kept.code, 0, kept.stderr + kept.stdout);
    assert.doesNotMatch(kept.stdout, /Published:/);
    assert.equal((await storedRuns(store)).length, 2, '--publish false: not published');

    const flagged = await runCli(['run', '--config', 'plain.yaml', '--history-store', 'store', '--publish', 'true'], { cwd: dir });
    assert.equal(flagged.code, 0, flagged.stderr + flagged.stdout);
    assert.match(flagged.stdout, /^Published: .*: 1 run published/m);
    const ids = await storedRuns(store);
    assert.equal(ids.length, 3, '--publish true --history-store: published');
    // The runs `mesh-perf publish` would have written: the same store reads them back, with their dashboard.
    assert.ok(
      ids.every((id) => /^\d{8}T\d{6}Z-[0-9a-f]{6}$/.test(id)),
      ids.join(', '),
    );
  });
});

test('history.publish: true without a store: plan and run refuse it before any load, exit 2, saying where to set one', async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), config('history: { publish: true }'));
    for (const command of ['plan', 'run']) {
      const refused = await runCliInProcess([command], { cwd: dir });
      assert.equal(refused.code, 2, refused.stderr);
      assert.match(
        refused.stderr,
        /history\.publish: true needs history\.store \(a git URL, a repository or a folder; or\s+--history-store\) to publish the run to/,
      );
      assert.doesNotMatch(refused.stderr, /Preparing platform/);
    }
    const flag = await runCliInProcess(['run', '--config', 'mesh-perf.yaml', '--publish', 'true'], { cwd: dir });
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /history\.publish/);
  });
});
