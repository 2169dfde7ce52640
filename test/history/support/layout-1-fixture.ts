// The layout-1 history branch of test/fixtures/history-layout-1 (written by the mesh-perf before
// layout 2; generate.ts there says how), as a bare repository to publish to or as a folder store.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git-repo.ts';

export const LAYOUT_1_BUNDLE = join(import.meta.dirname, '..', '..', 'fixtures', 'history-layout-1', 'gh-pages.bundle');

/** A bare repository holding the fixture's gh-pages branch, at `<dir>/<name>`. */
export async function layoutOneRepo(dir: string, name = 'layout-1.git'): Promise<string> {
  const path = join(dir, name);
  await git(dir, 'clone', '--quiet', '--bare', LAYOUT_1_BUNDLE, path);
  return path;
}

/** The fixture's files as a folder store, at `<dir>/<name>`. */
export async function layoutOneFolder(dir: string, name = 'layout-1'): Promise<string> {
  const path = join(dir, name);
  await git(dir, 'clone', '--quiet', '--branch', 'gh-pages', LAYOUT_1_BUNDLE, path);
  await rm(join(path, '.git'), { recursive: true, force: true });
  return path;
}
