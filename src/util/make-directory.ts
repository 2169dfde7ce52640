// `mkdir(path, { recursive: true })` never returns for a path under /proc (Node's recursive mkdir
// retries the missing parent forever: `init --config /proc/x/y.yaml`, `report --out /proc/x` and
// `publish --store /proc/x` spun at 100% CPU). This creates the missing directories one at a
// time from the deepest one that exists, so a failure surfaces once, as an error naming the path.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors.ts';

export async function makeDirectory(path: string, label = path): Promise<void> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    const kind = await kindOf(current);
    if (kind === 'directory') break;
    if (kind === 'file') {
      throw new UsageError(
        current === resolve(path)
          ? `${label}: ${current} is a file, not a directory`
          : `${label}: ${current} is a file, so no directory can be made under it`,
      );
    }
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of missing) {
    try {
      await mkdir(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && (await kindOf(dir)) === 'directory') continue; // made meanwhile
      throw new UsageError(`${label}: cannot create the directory ${dir} (${describeCode(code, error)})`);
    }
  }
}

/** A path through a file (ENOTDIR) counts as missing: walking up finds the file in the way. */
async function kindOf(path: string): Promise<'directory' | 'file' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

function describeCode(code: string | undefined, error: unknown): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'the file system does not allow it there';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left';
  return (error as Error).message;
}

/**
 * A new directory `<parent>/<name>`, or `<name>-2`, `-3`… when one of that name is there: a default
 * output folder named by the second must not be shared by two commands started in the same second
 * (the second would write over the first's files). mkdir without `recursive` claims the name
 * atomically, so two processes racing for it get different folders.
 */
export async function makeFreshDirectory(parent: string, name: string, label = parent): Promise<string> {
  await makeDirectory(parent, label);
  for (let n = 1; ; n++) {
    const dir = join(resolve(parent), n === 1 ? name : `${name}-${n}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && n < 1000) continue;
      throw new UsageError(`${label}: cannot create the directory ${dir} (${describeCode(code, error)})`);
    }
  }
}
