// Real git repositories for history-store tests: a bare repository as the remote, and helpers to
// inspect or tamper with a branch the way a person with push access could.
import { execFile } from 'node:child_process';
import { rm, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { testTempDir } from '../../support/temp-dirs.ts';

const run = promisify(execFile);
const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
  GIT_TERMINAL_PROMPT: '0',
};

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env: ENV, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** A fresh directory, removed when the test process exits (test/support/temp-dirs.ts). */
export async function tempDir(prefix: string): Promise<string> {
  return testTempDir(prefix);
}

export async function bareRepo(parent: string, name = `remote-${Math.random().toString(36).slice(2, 8)}.git`): Promise<string> {
  const path = join(parent, name);
  await git(parent, 'init', '--quiet', '--bare', path);
  return path;
}

/** Tip of a branch, or undefined when it does not exist. */
export async function branchHead(repo: string, branch: string): Promise<string | undefined> {
  try {
    return (await git(repo, 'rev-parse', '--verify', `refs/heads/${branch}^{commit}`)).trim();
  } catch {
    return undefined;
  }
}

export async function branchFiles(repo: string, branch: string): Promise<string[]> {
  return (await git(repo, 'ls-tree', '-r', '--name-only', `refs/heads/${branch}`)).split('\n').filter(Boolean).sort();
}

export async function showFile(repo: string, branch: string, path: string): Promise<string> {
  return git(repo, 'show', `refs/heads/${branch}:${path}`);
}

export async function commitCount(repo: string, branch: string): Promise<number> {
  return Number((await git(repo, 'rev-list', '--count', `refs/heads/${branch}`)).trim());
}

/** Clones the branch (or starts it), writes files, commits and pushes, as a person would. */
export async function pushFiles(remote: string, branch: string, files: Record<string, string>, message = 'manual edit'): Promise<void> {
  const work = await tempDir('clone');
  try {
    await git(work, 'init', '--quiet');
    await git(work, 'remote', 'add', 'origin', remote);
    const exists = (await git(work, 'ls-remote', '--heads', 'origin', branch)).trim() !== '';
    if (exists) {
      await git(work, 'fetch', '--quiet', 'origin', branch);
      await git(work, 'checkout', '--quiet', '-b', branch, 'FETCH_HEAD');
    } else {
      await git(work, 'checkout', '--quiet', '--orphan', branch);
    }
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), content);
    }
    await git(work, 'add', '-A');
    await git(work, 'commit', '--quiet', '-m', message);
    await git(work, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
