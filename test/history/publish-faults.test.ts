// History under faults (issue 51 item 7), through `mesh-perf publish` as a job runs it: a push
// rejected again and again (another writer that always pushes first: a pre-receive hook in the
// local bare remote that moves the branch on every push), and a disk that fills up mid-write (a
// small tmpfs under the directory store, and under the git store's own session repository). Each
// must leave the run's results as they were, the store as it was (no half-written files, no
// temporary files), exit 3 with an error that names the cause, and a later publish of the same
// results must succeed. The tmpfs needs root; without it those tests are skipped, saying why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { bareRepo, branchHead, git, tempDir } from './support/git-repo.ts';
import { envWithout, runCli } from './support/mesh-perf-cli.ts';
import { folderStore, gitStore, readIndex } from './support/store-files.ts';

const SUITE = 'faults';
// Wide, so that no message is wrapped across the patterns below.
const env = { ...envWithout('MESH_PERF_STORE_TOKEN', 'GITHUB_TOKEN'), COLUMNS: '1000' };
const noRoot = process.getuid?.() !== 0 ? 'mounting a small tmpfs to fill needs root: this fault cannot be injected here' : false;

/** Two finished runs, each in its own run folder as `mesh-perf run` leaves it. */
async function runFolders(dir: string): Promise<string[]> {
  const folders: string[] = [];
  for (const [i, run] of buildDailyRuns(2, { suite: SUITE }).entries()) {
    const folder = join(dir, `run-${i}`);
    await mkdir(folder);
    await writeFile(join(folder, 'results.json'), JSON.stringify(run));
    folders.push(folder);
  }
  return folders;
}

/** Every file under a directory with its content's hash: what "unchanged" is compared on. */
async function fingerprint(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const entry of await readdir(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        out[`${path}/`] = 'dir';
        await walk(path);
      } else
        out[path] = createHash('sha256')
          .update(await readFile(join(root, path)))
          .digest('hex');
    }
  };
  await walk('');
  return out;
}

/** Runs `fn` with a fresh directory holding `disk`, a tmpfs of `bytes`; unmounts and removes both after. */
async function withSmallDisk(name: string, bytes: number, fn: (dir: string, disk: string) => Promise<void>): Promise<void> {
  const dir = await tempDir(name);
  const disk = join(dir, 'disk');
  await mkdir(disk);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'mesh-perf-faults', disk], { encoding: 'utf8' });
  assert.equal(mounted.status, 0, mounted.stderr);
  try {
    await fn(dir, disk);
  } finally {
    spawnSync('umount', [disk]);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fills the file system at `dir` until `free` bytes are left (a filler file, removed to make room). */
async function leaveFree(dir: string, free: number): Promise<string> {
  const filler = join(dir, 'filler');
  await rm(filler, { force: true });
  const df = spawnSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' });
  const available = Number(df.stdout.trim().split('\n').pop());
  const dd = spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4096', `count=${Math.max(0, Math.floor((available - free) / 4096))}`]);
  assert.equal(dd.status, 0, String(dd.stderr));
  return filler;
}

test('a push rejected again and again (the branch always moved first): exit 3 naming the cause after the bounded retries, the run kept, nothing of it on the branch; a later publish of the same results lands', {
  timeout: 180_000,
}, async () => {
  const dir = await tempDir('publish-race');
  try {
    const remote = await bareRepo(dir);
    const [first, second] = await runFolders(dir);
    assert.equal((await runCli(['publish', '--results', first!, '--store', remote], { env })).code, 0);
    // Another writer that always wins: on every push it commits on top of the branch's tip, so
    // the pushed commit's parent is stale and receive-pack refuses to update the ref.
    const hook = join(remote, 'hooks', 'pre-receive');
    await writeFile(
      hook,
      [
        '#!/bin/sh',
        // Ref updates are refused inside the push's object quarantine; the other writer is not in it.
        'unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES',
        'while read old new ref; do',
        '  next=$(echo "another writer" | GIT_AUTHOR_NAME=other GIT_AUTHOR_EMAIL=other@example.invalid GIT_COMMITTER_NAME=other GIT_COMMITTER_EMAIL=other@example.invalid git commit-tree "$old^{tree}" -p "$old")',
        '  git update-ref "$ref" "$next" "$old"',
        'done',
        '',
      ].join('\n'),
    );
    await chmod(hook, 0o755);
    const results = await readFile(join(second!, 'results.json'), 'utf8');
    const rejected = await runCli(['publish', '--results', second!, '--store', remote], { env, timeoutMs: 150_000 });
    assert.equal(rejected.code, 3, rejected.stderr);
    assert.match(rejected.stderr, /the branch kept moving under concurrent writers; gave up after 12 attempts and published nothing/);
    assert.match(rejected.stderr, /Serialize publishing jobs/);
    // Each retry said once, and none after the last attempt.
    assert.equal((rejected.stderr.match(/retrying on top of it/g) ?? []).length, 11, rejected.stderr);
    assert.doesNotMatch(rejected.stderr, /attempt 13/);
    assert.equal(await readFile(join(second!, 'results.json'), 'utf8'), results, 'the run folder is as the run left it');
    // The branch holds the first publish and the other writer's commits, nothing of this run.
    const subjects = (await git(remote, 'log', '--format=%s', 'refs/heads/gh-pages')).trim().split('\n');
    assert.equal(subjects.filter((s) => s.startsWith('mesh-perf:')).length, 1, subjects.join('\n'));
    assert.equal(subjects.filter((s) => s === 'another writer').length, 12);
    assert.deepEqual(
      (await readIndex(gitStore(remote), SUITE)).runs.map((r: { id: string }) => r.id),
      [JSON.parse(await readFile(join(first!, 'results.json'), 'utf8')).run.id],
    );

    await rm(hook);
    const later = await runCli(['publish', '--results', second!, '--store', remote], { env });
    assert.equal(later.code, 0, later.stderr);
    assert.equal((await readIndex(gitStore(remote), SUITE)).runs.length, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a directory store whose disk fills up mid-write: exit 3 naming the file and "no space left on device", the store exactly as it was (no half-written or temporary file), the run kept; with room again the same results publish', {
  skip: noRoot,
  timeout: 120_000,
}, async () => {
  await withSmallDisk('publish-full-dir', 2 * 1024 * 1024, async (dir, disk) => {
    const [first, second] = await runFolders(dir);
    const store = join(disk, 'store');
    assert.equal((await runCli(['publish', '--results', first!, '--store', store], { env })).code, 0);
    const before = await fingerprint(store);
    const results = await readFile(join(second!, 'results.json'), 'utf8');
    // Room for the small files a publish writes first (the run's, the index shard), not for the
    // dashboard after them: the disk fills part-way through the publish.
    const filler = await leaveFree(disk, 12 * 1024);
    const full = await runCli(['publish', '--results', second!, '--store', store], { env });
    assert.equal(full.code, 3, full.stderr);
    assert.match(full.stderr, /history store directory \S+: could not write \S+ \(no space left on device\)/);
    assert.match(full.stderr, /Nothing was written: the store is as it was\. Free space there .* and publish the same results again/);
    assert.deepEqual(await fingerprint(store), before, 'no file of the store changed, none was added');
    assert.equal(await readFile(join(second!, 'results.json'), 'utf8'), results);

    await rm(filler);
    const later = await runCli(['publish', '--results', second!, '--store', store], { env });
    assert.equal(later.code, 0, later.stderr);
    assert.equal((await readIndex(folderStore(store), SUITE)).runs.length, 2);
    assert.deepEqual(
      Object.keys(await fingerprint(store)).filter((f) => f.includes('.tmp-')),
      [],
    );
  });
});

test("a git store whose publishing disk fills up (the session's repository, at three fill levels, each stopping it at another step): exit 3 naming the cause, the branch unchanged, nothing left in the temporary directory; with room the same results publish", {
  skip: noRoot,
  timeout: 180_000,
}, async () => {
  await withSmallDisk('publish-full-git', 16 * 1024 * 1024, async (dir, disk) => {
    const remote = await bareRepo(dir);
    const [first, second] = await runFolders(dir);
    // The session repository lives in TMPDIR. (tsx, which runs the CLI here, keeps its cache there
    // too: the first publish fills it, so that it takes nothing of the room left below.)
    const tmp = join(disk, 'tmp');
    await mkdir(tmp);
    assert.equal((await runCli(['publish', '--results', first!, '--store', remote], { env: { ...env, TMPDIR: tmp } })).code, 0);
    const head = await branchHead(remote, 'gh-pages');
    // Room for a fraction of what the store holds.
    const storeBytes = Number(spawnSync('du', ['-sb', remote], { encoding: 'utf8' }).stdout.split('\t')[0]);
    const said = new Set<string>();
    for (const share of [0.25, 0.6, 0.9]) {
      await leaveFree(disk, Math.round(storeBytes * share));
      const full = await runCli(['publish', '--results', second!, '--store', remote], { env: { ...env, TMPDIR: tmp } });
      assert.equal(full.code, 3, `${share}: ${full.stderr}`);
      assert.match(full.stderr, /no space left on device/i, `${share}: the cause is named`);
      assert.match(full.stderr, /Nothing was written/);
      said.add(/git (\S+) failed|ENOSPC/.exec(full.stderr)?.[0] ?? full.stderr);
      assert.equal(await branchHead(remote, 'gh-pages'), head, `${share}: the branch did not move`);
      assert.deepEqual(
        (await readdir(tmp)).filter((f) => f.startsWith('mesh-perf-')),
        [],
        `${share}: the session repository was removed`,
      );
    }
    process.stdout.write(`# where the full disk stopped the publish: ${[...said].join('; ')}\n`);

    await rm(join(disk, 'filler'));
    const later = await runCli(['publish', '--results', second!, '--store', remote], { env: { ...env, TMPDIR: tmp } });
    assert.equal(later.code, 0, later.stderr);
    assert.equal((await readIndex(gitStore(remote), SUITE)).runs.length, 2);
    assert.ok((await stat(tmp)).isDirectory());
  });
});
