// One publish or read against a git remote, in a throwaway bare repository: fetch the branch tip
// (shallow, and without blobs where the server allows, so a large history costs little), read
// files from that commit, build the next commit with plumbing (no checkout, no working tree),
// and push it without force. The user's own clone and working tree are never touched.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreChanges, StoreTree } from '../tree.ts';
import { type Git, GitCommandError } from './git.ts';

const ZERO = '0000000000000000000000000000000000000000';
// The github-actions bot's identity: GitHub credits the commit to the bot, not to whichever real
// account owns an address like mesh-perf@users.noreply.github.com. GIT_AUTHOR_*/GIT_COMMITTER_*
// in the environment override it.
export const COMMIT_IDENTITY = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };
const AUTHOR = COMMIT_IDENTITY;

export type PushResult = 'ok' | 'rejected';

export class GitSession {
  private constructor(
    readonly git: Git,
    readonly dir: string,
    readonly branch: string,
    private readonly partial: boolean,
  ) {}

  static async open(git: Git, url: string, branch: string, options: { partial: boolean }): Promise<GitSession> {
    const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-store-'));
    try {
      await git.run(['init', '--quiet', '--bare', dir], { cwd: dir });
      // What `git remote add` and six `git config` calls would write, in one append (a git process
      // costs a publish more CPU than the write): a throwaway repository with no housekeeping after
      // each fetch, and for a partial clone the remote as promisor of the blobs left out.
      await appendFile(join(dir, 'config'), sessionConfig(url, options.partial), 'utf8');
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return new GitSession(git, dir, branch, options.partial);
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Fetches the branch tip; undefined when the branch does not exist yet. */
  async fetch(): Promise<string | undefined> {
    const ref = `refs/remotes/origin/${this.branch}`;
    try {
      await this.git.run(
        [
          'fetch',
          '--quiet',
          '--no-tags',
          '--depth=1',
          ...(this.partial ? ['--filter=blob:none'] : []),
          'origin',
          `+refs/heads/${this.branch}:${ref}`,
        ],
        { cwd: this.dir },
      );
    } catch (error) {
      if (error instanceof GitCommandError && /couldn't find remote ref|could not find remote ref/i.test(error.stderr)) return undefined;
      throw error;
    }
    return (await this.git.run(['rev-parse', '--verify', `${ref}^{commit}`], { cwd: this.dir })).trim();
  }

  tree(commit: string | undefined): StoreTree {
    return new GitCommitTree(this.git, this.dir, commit, this.partial);
  }

  /** Collects file writes as blobs in this repository, for one commit. */
  stage(): GitStaging {
    return new GitStaging(this.git, this.dir);
  }

  /** Builds a commit on `parent` (or a root commit) applying `changes`; returns its id. */
  async commit(parent: string | undefined, changes: StoreChanges, message: string): Promise<string> {
    const staging = this.stage();
    for (const [path, text] of changes.writes) await staging.write(path, text);
    for (const path of changes.deletes) await staging.remove(path);
    return staging.commit(parent, message);
  }

  /** Pushes without force. 'rejected' when the branch moved (another writer won the race). */
  async push(commit: string): Promise<PushResult> {
    try {
      await this.git.run(['push', '--quiet', '--porcelain', 'origin', `${commit}:refs/heads/${this.branch}`], { cwd: this.dir });
      return 'ok';
    } catch (error) {
      if (error instanceof GitCommandError && isRaceRejection(error.stderr)) return 'rejected';
      throw error;
    }
  }
}

/** The session repository's own settings, in git's config file syntax (appended to what `git init` wrote). */
export function sessionConfig(url: string, partial: boolean): string {
  const lines = [
    '[remote "origin"]',
    `\turl = ${configValue(url)}`,
    '\tfetch = +refs/heads/*:refs/remotes/origin/*',
    ...(partial ? ['\tpromisor = true', '\tpartialclonefilter = blob:none'] : []),
    '[maintenance]',
    '\tauto = false',
    '[gc]',
    '\tauto = 0',
    ...(partial ? ['[extensions]', '\tpartialClone = origin'] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** A config value quoted as git reads it back verbatim (backslash, quote and tab escaped). */
function configValue(value: string): string {
  if (/[\0\n\r]/.test(value)) throw new Error('the store URL contains a line break or NUL character');
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t')}"`;
}

/** Writes become blobs in batches (one git process per few hundred files, not per file). */
export class GitStaging {
  private readonly lines: string[] = [];
  private pending: { path: string; file: string }[] = [];
  private counter = 0;
  private readonly staging: string;

  constructor(
    private readonly git: Git,
    private readonly dir: string,
  ) {
    this.staging = join(dir, 'mesh-perf-staging');
  }

  async write(path: string, text: string): Promise<void> {
    await mkdir(this.staging, { recursive: true });
    const file = join(this.staging, String(this.counter++));
    await writeFile(file, text, 'utf8');
    this.pending.push({ path, file });
    if (this.pending.length >= 400) await this.flush();
  }

  async remove(path: string): Promise<void> {
    this.lines.push(`0 ${ZERO}\t${path}`);
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const ids = (
      await this.git.run(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
        cwd: this.dir,
        input: `${batch.map((b) => b.file).join('\n')}\n`,
      })
    )
      .trim()
      .split('\n');
    batch.forEach((b, i) => this.lines.push(`100644 ${ids[i]}\t${b.path}`));
    await rm(this.staging, { recursive: true, force: true });
  }

  async commit(parent: string | undefined, message: string): Promise<string> {
    await this.flush();
    const env = { GIT_INDEX_FILE: join(this.dir, 'mesh-perf-index') };
    const opts = { cwd: this.dir, env };
    await this.git.run(parent ? ['read-tree', parent] : ['read-tree', '--empty'], opts);
    if (this.lines.length > 0)
      await this.git.run(['update-index', '-z', '--index-info'], { ...opts, input: this.lines.map((l) => `${l}\0`).join('') });
    const tree = (await this.git.run(['write-tree'], opts)).trim();
    const authorEnv = {
      GIT_AUTHOR_NAME: process.env.GIT_AUTHOR_NAME ?? AUTHOR.name,
      GIT_AUTHOR_EMAIL: process.env.GIT_AUTHOR_EMAIL ?? AUTHOR.email,
      GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? AUTHOR.name,
      GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? AUTHOR.email,
    };
    const args = ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'];
    return (await this.git.run(args, { cwd: this.dir, env: authorEnv, input: message })).trim();
  }
}

/** Rejections that mean "someone else pushed first": fetch, re-apply, try again. */
export function isRaceRejection(stderr: string): boolean {
  return /\[rejected\]|non-fast-forward|fetch first|failed to update ref|cannot lock ref|incorrect old value|stale info|reference already exists/i.test(
    stderr,
  );
}

/** Files of one commit, read through ls-tree and cat-file (blobs fetched on demand in partial clones). */
export class GitCommitTree implements StoreTree {
  private files: Promise<Map<string, string>> | undefined;
  /** Blobs fetched into this partial clone so far. */
  private readonly fetched = new Set<string>();
  /** Texts read by prefetch, by path (this tree's commit never changes). */
  private readonly prefetched = new Map<string, string>();

  constructor(
    private readonly git: Git,
    private readonly dir: string,
    private readonly commit: string | undefined,
    private readonly partial = false,
  ) {}

  private listing(): Promise<Map<string, string>> {
    this.files ??= this.loadListing();
    return this.files;
  }

  private async loadListing(): Promise<Map<string, string>> {
    const files = new Map<string, string>();
    if (!this.commit) return files;
    const out = await this.git.run(['ls-tree', '-r', '-z', '--full-tree', this.commit], { cwd: this.dir });
    for (const record of out.split('\0')) {
      if (!record) continue;
      const tab = record.indexOf('\t');
      const [, type, id] = record.slice(0, tab).split(' ');
      if (type === 'blob') files.set(record.slice(tab + 1), id!);
    }
    return files;
  }

  async list(prefix: string): Promise<string[]> {
    return [...(await this.listing()).keys()].filter((p) => p.startsWith(prefix));
  }

  async blob(path: string): Promise<string | undefined> {
    return (await this.listing()).get(path);
  }

  async read(path: string): Promise<string | undefined> {
    return (await this.readMany([path])).get(path);
  }

  async readMany(paths: string[]): Promise<Map<string, string>> {
    const listing = await this.listing();
    const out = new Map<string, string>();
    const wanted: string[] = [];
    for (const path of paths) {
      const cached = this.prefetched.get(path);
      if (cached !== undefined) out.set(path, cached);
      else if (listing.has(path)) wanted.push(path);
    }
    if (wanted.length === 0) return out;
    for (const [path, text] of await this.readBlobs(wanted, listing)) out.set(path, text);
    return out;
  }

  /** The files at `paths` (each in `listing`) through one `cat-file --batch`, their blobs fetched first in a partial clone. */
  private async readBlobs(wanted: string[], listing: Map<string, string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (this.partial) await this.fetchBlobs(wanted.map((p) => listing.get(p)!));
    const { stdout } = await this.git.runRaw(['cat-file', '--batch'], {
      cwd: this.dir,
      input: wanted.map((p) => `${listing.get(p)}\n`).join(''),
    });
    let offset = 0;
    for (const path of wanted) {
      const newline = stdout.indexOf(10, offset);
      const header = stdout.subarray(offset, newline).toString('utf8');
      const size = Number(header.split(' ')[2]);
      if (header.endsWith(' missing') || !Number.isFinite(size))
        throw new GitCommandError(['cat-file'], 1, `object for ${path} is missing (${header})`);
      out.set(path, stdout.subarray(newline + 1, newline + 1 + size).toString('utf8'));
      offset = newline + 1 + size + 1;
    }
    return out;
  }

  /**
   * Reads files that will be read soon in one request and one `cat-file` (a git process per read
   * was a tenth of a day's publish: a settled-months file and the recent shards of each suite).
   */
  async prefetch(paths: string[]): Promise<void> {
    const listing = await this.listing();
    const wanted = [...new Set(paths)].filter((p) => listing.has(p) && !this.prefetched.has(p));
    if (wanted.length === 0) return;
    try {
      for (const [path, text] of await this.readBlobs(wanted, listing)) this.prefetched.set(path, text);
    } catch {
      // Each read then reads (and reports) its own files.
    }
  }

  /**
   * Fetches the blobs a read needs in one request, as git's own lazy fetch does for one object at
   * a time (`cat-file` asks the promisor remote per missing object: a publish reading a suite's
   * 36 index shards made 36 round trips). A server that refuses leaves them to the lazy fetch.
   */
  private async fetchBlobs(oids: string[]): Promise<void> {
    const missing = [...new Set(oids)].filter((oid) => !this.fetched.has(oid));
    if (missing.length === 0) return;
    try {
      await this.git.run(
        [
          '-c',
          'fetch.negotiationAlgorithm=noop',
          'fetch',
          'origin',
          '--quiet',
          '--no-tags',
          '--no-write-fetch-head',
          '--recurse-submodules=no',
          '--filter=blob:none',
          '--stdin',
        ],
        { cwd: this.dir, input: `${missing.join('\n')}\n` },
      );
      for (const oid of missing) this.fetched.add(oid);
    } catch {
      // cat-file fetches what is still missing, one object at a time.
    }
  }
}
