// What the publish logic needs from a backend: read the current files, and a set of changes to
// apply in one step. The git backend reads a fetched commit and applies the changes as one
// commit; the directory backend reads and writes a folder. Planning is the same for both.
import { createHash } from 'node:crypto';

export interface StoreTree {
  /** Every file under `prefix` ('' for all), paths relative to the store root with '/' separators. */
  list(prefix: string): Promise<string[]>;
  /** Git blob id of a file's content (the directory backend computes the same hash); undefined when absent. */
  blob(path: string): Promise<string | undefined>;
  /** File content as UTF-8; undefined when absent. */
  read(path: string): Promise<string | undefined>;
  /** Reads many files; backends may batch. */
  readMany(paths: string[]): Promise<Map<string, string>>;
  /** Gets files that will be read soon in one request, where reading each costs a round trip (a partial clone). */
  prefetch?(paths: string[]): Promise<void>;
}

export interface StoreChanges {
  writes: Map<string, string>;
  deletes: Set<string>;
}

export function emptyChanges(): StoreChanges {
  return { writes: new Map(), deletes: new Set() };
}

export function hasChanges(changes: StoreChanges): boolean {
  return changes.writes.size > 0 || changes.deletes.size > 0;
}

/** Git's blob id: sha1("blob <bytes>\0" + content). */
export function gitBlobId(content: string | Buffer): string {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}
