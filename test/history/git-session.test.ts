// The throwaway repository a publish works in (history/git/session.ts): its settings written in
// one append read back as `git remote add` and `git config` would have set them, and files a
// publish prefetches are read once, in one cat-file, then served without another git process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Git, type GitRunOptions } from '../../src/history/git/git.ts';
import { GitSession } from '../../src/history/git/session.ts';
import { bareRepo, branchFiles, git, pushFiles, showFile, tempDir } from './support/git-repo.ts';

/** Git that records the subcommand of every process it starts. */
class CountingGit extends Git {
  readonly commands: string[] = [];
  override runRaw(args: string[], options: GitRunOptions) {
    this.commands.push(args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? '');
    return super.runRaw(args, options);
  }
}

test('the session repository holds the remote and partial-clone settings, the URL read back verbatim', { timeout: 60_000 }, async () => {
  const dir = await tempDir('git-session');
  try {
    // A local path with a space, a quote, a backslash, a tab and a semicolon (a comment in git's config syntax).
    const odd = join(dir, 'a "b"\\c\td; #e.git');
    await mkdir(odd);
    await git(odd, 'init', '--quiet', '--bare');
    for (const partial of [true, false]) {
      const session = await GitSession.open(new Git(), odd, 'gh-pages', { partial });
      try {
        const get = async (key: string) => (await git(session.dir, 'config', '--get', key).catch(() => '')).replace(/\n$/, '');
        assert.equal(await get('remote.origin.url'), odd);
        assert.equal(await get('remote.origin.fetch'), '+refs/heads/*:refs/remotes/origin/*');
        assert.equal(await get('gc.auto'), '0');
        assert.equal(await get('maintenance.auto'), 'false');
        assert.equal(await get('remote.origin.promisor'), partial ? 'true' : '');
        assert.equal(await get('remote.origin.partialclonefilter'), partial ? 'blob:none' : '');
        assert.equal(await get('extensions.partialclone'), partial ? 'origin' : '');
        // The remote works: an empty repository has no branch yet.
        assert.equal(await session.fetch(), undefined);
      } finally {
        await session.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('prefetched files are read in one fetch and one cat-file, then served from that read', { timeout: 60_000 }, async () => {
  const dir = await tempDir('git-session');
  try {
    const remote = await bareRepo(dir);
    await git(remote, 'config', 'uploadpack.allowFilter', 'true');
    await git(remote, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
    const files = { 'a.js': 'one\n', 'dir/b.js': 'two\n', 'dir/c.js': 'three\n' };
    await pushFiles(remote, 'gh-pages', files);
    assert.deepEqual(await branchFiles(remote, 'gh-pages'), Object.keys(files).sort());
    const counting = new CountingGit();
    const session = await GitSession.open(counting, remote, 'gh-pages', { partial: true });
    try {
      const tree = session.tree(await session.fetch());
      await tree.prefetch!(['a.js', 'dir/b.js', 'not/there.js']);
      const before = counting.commands.length;
      assert.deepEqual(counting.commands.slice(-2), ['fetch', 'cat-file'], 'one blob fetch and one read for the prefetched files');
      assert.deepEqual(Object.fromEntries(await tree.readMany(['a.js', 'dir/b.js', 'not/there.js'])), {
        'a.js': 'one\n',
        'dir/b.js': 'two\n',
      });
      assert.equal(await tree.read('a.js'), 'one\n');
      assert.equal(counting.commands.length, before, 'prefetched files are served without another git process');
      // A file not prefetched is read (and fetched) as before; a mix reads only what is missing.
      assert.deepEqual(Object.fromEntries(await tree.readMany(['dir/b.js', 'dir/c.js'])), { 'dir/b.js': 'two\n', 'dir/c.js': 'three\n' });
      assert.deepEqual(counting.commands.slice(before), ['fetch', 'cat-file']);
      assert.equal(await showFile(remote, 'gh-pages', 'dir/c.js'), 'three\n');
    } finally {
      await session.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
