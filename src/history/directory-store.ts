// The directory backend: the same layout as the gh-pages branch, in a local folder (open its
// index.html from disk, or serve it). Writers on one machine take a lock directory; every file is
// written to a temporary name and renamed, and nothing is written before the whole plan (every
// file it reads validated) is ready.
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { RunResult } from '../results/types.ts';
import type { SiteScripts } from '../site/pages.ts';
import { loadSiteScripts } from '../site/scripts.ts';
import { EnvironmentError, UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { makeDirectory } from '../util/make-directory.ts';
import type { SuiteChangePoints } from './change-points.ts';
import { StoreAccessError } from './errors.ts';
import { suiteDir } from './layout.ts';
import { changePointsFromTree, confirmationsFromTree, listFromTree } from './list.ts';
import { planConfirmations } from './confirm-plan.ts';
import type { ConfirmationRecord } from '../confirm/record.ts';
import { planPublish } from './publish-plan.ts';
import { type ChangeSink, type RebuildSummary, rebuildStore } from './rebuild-plan.ts';
import type { Retention } from './retention.ts';
import { gitBlobId, type StoreTree } from './tree.ts';
import type { ConfirmationOutcome, HistoryQuery, PublishOutcome, ResultStore } from './types.ts';

export const LOCK_DIR = '.mesh-perf.lock';
const STALE_LOCK_MS = 10 * 60_000;

export interface DirectoryStoreOptions {
  root: string;
  adopt?: boolean;
  retention?: Retention;
  /** How long per-second timelines stay in stored runs; undefined keeps them. */
  timelineRetention?: Retention;
  chartJs: () => Promise<string>;
  /** The run page's and dashboard's scripts (default: site/scripts.ts). */
  scripts?: () => Promise<SiteScripts>;
  log?: Logger;
  now?: () => Date;
  /** How long to wait for another writer's lock. */
  lockTimeoutMs?: number;
}

export class DirectoryStore implements ResultStore {
  readonly root: string;

  constructor(private readonly options: DirectoryStoreOptions) {
    this.root = resolve(options.root);
  }

  describe(): string {
    return `directory ${this.root}`;
  }

  async list(query: HistoryQuery): Promise<RunResult[]> {
    if (!(await isDirectory(this.root))) return [];
    return listFromTree(new DirectoryTree(this.root), query, this.describe());
  }

  async changePoints(suite: string, branch: string): Promise<SuiteChangePoints> {
    if (!(await isDirectory(this.root))) return { series: [], changePoints: [] };
    return changePointsFromTree(new DirectoryTree(this.root), suite, branch, this.describe());
  }

  async confirmations(suite: string): Promise<ConfirmationRecord[]> {
    if (!(await isDirectory(this.root))) return [];
    return confirmationsFromTree(new DirectoryTree(this.root), suite, this.describe());
  }

  async recordConfirmations(records: ConfirmationRecord[]): Promise<ConfirmationOutcome> {
    const options = await this.planOptions();
    if (!(await isDirectory(this.root)))
      throw new UsageError(`history store ${this.describe()} does not exist: a confirmation answers a change point of published runs`);
    return this.withLock(async () => {
      const plan = await planConfirmations(new DirectoryTree(this.root), records, options);
      const sink = new DirectorySink(this.root);
      for (const [path, text] of plan.changes.writes) await sink.write(path, text);
      for (const path of plan.changes.deletes) await sink.remove(path);
      return { attempts: 1, recorded: plan.recorded, warnings: plan.warnings };
    });
  }

  async publish(results: RunResult[]): Promise<PublishOutcome> {
    const options = await this.planOptions();
    // Input errors must not leave an empty store folder behind.
    for (const result of results) suiteDir(result.run.suite);
    await this.ensureRoot();
    return this.withLock(async () => {
      const tree = new DirectoryTree(this.root);
      const plan = await planPublish(tree, results, options);
      await this.applyAll(
        [...plan.changes.writes, ...[...plan.changes.deletes].map((path): [string, null] => [path, null])],
        'publish the same results again',
      );
      return {
        attempts: 1,
        added: plan.added,
        unchanged: plan.unchanged,
        pruned: plan.pruned,
        compacted: plan.compacted,
        changePoints: plan.newChangePoints,
        warnings: plan.warnings,
      };
    });
  }

  /** Re-renders reports, indexes and the dashboard in place. */
  async rebuild(): Promise<RebuildSummary> {
    const options = await this.planOptions();
    await this.ensureRoot();
    return this.withLock(async () => {
      // Stage everything first so a damaged run file found half-way leaves the store untouched.
      const staged = new Map<string, string | null>();
      const sink: ChangeSink = {
        write: async (path, text) => void staged.set(path, text),
        remove: async (path) => void staged.set(path, null),
      };
      const summary = await rebuildStore(new DirectoryTree(this.root), options, sink);
      await this.applyAll([...staged], 'rebuild again');
      return summary;
    });
  }

  /** Writes the store as a static site elsewhere, reports re-rendered. */
  async exportSite(sink: ChangeSink): Promise<RebuildSummary> {
    return rebuildStore(new DirectoryTree(this.root), { ...(await this.planOptions()), includeAll: true }, sink);
  }

  /**
   * Writes a whole change set or nothing: every new file goes to a temporary name first, and only
   * when all are on disk are they renamed into place (renames take no space) and the deletions
   * made. A write that fails (a full disk, a quota) removes the temporary files and leaves the
   * store exactly as it was, so a later publish of the same results starts from a consistent store.
   */
  private async applyAll(changes: [string, string | null][], again: string): Promise<void> {
    const sink = new DirectorySink(this.root);
    const staged: StagedFile[] = [];
    let writing = '';
    try {
      for (const [path, text] of changes) {
        if (text === null) continue;
        writing = path;
        staged.push(await sink.stage(path, text));
      }
    } catch (error) {
      for (const s of staged.reverse()) await unstage(s);
      const cause = describeWriteError(error);
      throw new StoreAccessError(
        `history store ${this.describe()}: could not write ${writing} (${cause}). Nothing was written: the store is as it was. ` +
          `Free space there (or point history.store elsewhere) and ${again}`,
      );
    }
    for (const s of staged) await rename(s.temp, s.target);
    for (const [path, text] of changes) if (text === null) await sink.remove(path);
  }

  private async planOptions() {
    return {
      storeLabel: this.describe(),
      adopt: this.options.adopt ?? false,
      now: (this.options.now ?? (() => new Date()))(),
      chartJs: await this.options.chartJs(),
      scripts: await (this.options.scripts ?? loadSiteScripts)(),
      ...(this.options.retention ? { retention: this.options.retention } : {}),
      ...(this.options.timelineRetention ? { timelineRetention: this.options.timelineRetention } : {}),
    };
  }

  private async ensureRoot(): Promise<void> {
    try {
      await makeDirectory(this.root);
    } catch (error) {
      throw new StoreAccessError(`history store ${this.describe()}: cannot create the folder (${(error as Error).message})`);
    }
  }

  private async withLock<T>(fn: () => Promise<T>): Promise<T> {
    const lock = join(this.root, LOCK_DIR);
    const deadline = Date.now() + (this.options.lockTimeoutMs ?? 120_000);
    for (;;) {
      try {
        await mkdir(lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new StoreAccessError(`history store ${this.describe()}: cannot take the lock ${lock} (${(error as Error).message})`);
        const age =
          Date.now() -
          (await stat(lock).then(
            (s) => s.mtimeMs,
            () => Date.now(),
          ));
        if (age > STALE_LOCK_MS) {
          this.options.log?.warn(`removing a stale lock ${lock} (${Math.round(age / 1000)} s old)`);
          await rm(lock, { recursive: true, force: true });
          continue;
        }
        if (Date.now() > deadline)
          throw new EnvironmentError(
            `history store ${this.describe()}: another publish holds ${lock}; if none is running, delete that folder`,
          );
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    try {
      return await fn();
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/** A folder as a StoreTree; blob ids are computed from content, like git's. */
export class DirectoryTree implements StoreTree {
  private files: Promise<string[]> | undefined;
  private readonly blobs = new Map<string, string | undefined>();

  constructor(private readonly root: string) {}

  async list(prefix: string): Promise<string[]> {
    this.files ??= walk(this.root, '');
    return (await this.files).filter((p) => p.startsWith(prefix));
  }

  async blob(path: string): Promise<string | undefined> {
    if (!this.blobs.has(path)) {
      const data = await readFile(this.abs(path)).catch(() => undefined);
      this.blobs.set(path, data === undefined ? undefined : gitBlobId(data));
    }
    return this.blobs.get(path);
  }

  async read(path: string): Promise<string | undefined> {
    return readFile(this.abs(path), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  }

  async readMany(paths: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const path of paths) {
      const text = await this.read(path);
      if (text !== undefined) out.set(path, text);
    }
    return out;
  }

  private abs(path: string): string {
    return join(this.root, ...path.split('/'));
  }
}

/** Writes through a temporary name and a rename, so readers never see half a file. */
export class DirectorySink implements ChangeSink {
  constructor(private readonly root: string) {}

  async write(path: string, text: string): Promise<void> {
    const { temp, target } = await this.stage(path, text);
    await rename(temp, target);
  }

  /**
   * Writes the file under a temporary name beside its target; rename it to finish, or `unstage`
   * it. A write that fails removes what it made (the temporary file, directories it created).
   */
  async stage(path: string, text: string): Promise<StagedFile> {
    const target = this.abs(path);
    const created: string[] = [];
    for (let dir = dirname(target); dir.startsWith(this.root + sep) && !(await isDirectory(dir)); dir = dirname(dir)) created.push(dir);
    const staged = { temp: `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`, target, created };
    try {
      await makeDirectory(dirname(target));
      await writeFile(staged.temp, text, 'utf8');
    } catch (error) {
      await unstage(staged);
      throw error;
    }
    return staged;
  }

  async remove(path: string): Promise<void> {
    await unlink(this.abs(path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  private abs(path: string): string {
    const target = resolve(this.root, ...path.split('/'));
    if (!target.startsWith(this.root + sep) && target !== this.root)
      throw new EnvironmentError(`refusing to write outside ${this.root}: ${path}`);
    return target;
  }
}

async function walk(root: string, rel: string): Promise<string[]> {
  const entries = await readdir(join(root, rel), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const out: string[] = [];
  for (const entry of entries) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.name === LOCK_DIR || entry.name === '.git' || entry.name.includes('.tmp-')) continue;
    if (entry.isDirectory()) out.push(...(await walk(root, path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export interface StagedFile {
  temp: string;
  target: string;
  /** Directories made for it, deepest first. */
  created: string[];
}

/** Removes a staged file and the directories made for it (those still empty). */
async function unstage(staged: StagedFile): Promise<void> {
  await rm(staged.temp, { force: true });
  for (const dir of staged.created) await rmdir(dir).catch(() => undefined);
}

/** A write error as a user reads it: "no space left on device", "permission denied", or node's message. */
function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'no space left on device';
  if (code === 'EDQUOT') return 'disk quota exceeded';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  return (error as Error).message;
}
