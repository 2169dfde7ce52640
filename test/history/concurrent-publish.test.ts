// Eight `mesh-perf publish` processes at once against one bare repository: every run lands, the
// index lists exactly those runs once each, and history is linear (nothing was force-pushed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { bareRepo, branchFiles, commitCount, git, showFile, tempDir } from './support/git-repo.ts';
import { envWithout, runCli } from './support/mesh-perf-cli.ts';
import { gitStore, readIndex } from './support/store-files.ts';

test('8 concurrent publish processes: all 8 runs present, index lists exactly those 8, no duplicates, history intact', {
  timeout: 600_000,
}, async () => {
  const dir = await tempDir('concurrent');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(8, { suite: 'nightly' });
    const folders: string[] = [];
    for (const [i, run] of runs.entries()) {
      const folder = join(dir, `run-${i}`);
      await mkdir(folder);
      await writeFile(join(folder, 'results.json'), JSON.stringify(run));
      folders.push(folder);
    }
    const env = envWithout('MESH_PERF_STORE_TOKEN', 'GITHUB_TOKEN');
    const outcomes = await Promise.all(
      folders.map((folder) => runCli(['publish', '--results', folder, '--store', remote, '--json'], { env, timeoutMs: 540_000 })),
    );
    for (const [i, o] of outcomes.entries()) assert.equal(o.code, 0, `publisher ${i} failed: ${o.stderr}`);
    const attempts = outcomes.map((o) => JSON.parse(o.stdout).attempts as number);

    const index = await readIndex(gitStore(remote), 'nightly');
    const ids = index.runs.map((r: { id: string }) => r.id).sort();
    assert.deepEqual(ids, runs.map((r) => r.run.id).sort(), 'the index lists exactly the 8 runs');
    assert.equal(new Set(ids).size, 8, 'no duplicates');
    const runFiles = (await branchFiles(remote, 'gh-pages')).filter(
      (f) => /^runs\/nightly\/\d{4}\/.*\.js$/.test(f) && !f.endsWith('.tl.js'),
    );
    assert.equal(runFiles.length, 8);
    assert.equal(await commitCount(remote, 'gh-pages'), 8, 'one commit per publisher, none lost or squashed');
    const parents = (await git(remote, 'rev-list', '--parents', 'refs/heads/gh-pages'))
      .trim()
      .split('\n')
      .map((l) => l.split(' ').length - 1);
    assert.deepEqual(parents.sort(), [0, 1, 1, 1, 1, 1, 1, 1], 'linear history: one root, every other commit has one parent');
    const marker = JSON.parse(await showFile(remote, 'gh-pages', 'mesh-perf.json'));
    assert.equal(marker.suites.find((s: { name: string }) => s.name === 'nightly').runs, 8);
    process.stdout.write(`# publish attempts per process: ${attempts.join(', ')}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
