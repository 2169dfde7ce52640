// Picks the store backend from what the user wrote: a URL (https://, ssh://, file://, or
// git@host:path) or the path of a git repository is a git branch store; any other path is a
// plain directory store (created on first publish).
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { DirectoryStore } from './directory-store.ts';
import { GitBranchStore } from './git/git-branch-store.ts';
import type { Retention } from './retention.ts';

export interface OpenStoreOptions {
  branch?: string;
  token?: string;
  adopt?: boolean;
  retention?: Retention;
  timelineRetention?: Retention;
  chartJs: () => Promise<string>;
  log?: Logger;
  cwd?: string;
  now?: () => Date;
}

export type AnyStore = GitBranchStore | DirectoryStore;

export function isGitLocation(spec: string, cwd = process.cwd()): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) return true;
  if (/^[^/\\\s]+@[^/\\\s:]+:/.test(spec)) return true;
  const path = resolve(cwd, spec);
  if (!existsSync(path) || !statSync(path).isDirectory()) return false;
  const bare = existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects')) && existsSync(join(path, 'refs'));
  return bare || existsSync(join(path, '.git'));
}

export function openStore(spec: string, options: OpenStoreOptions): AnyStore {
  if (!spec.trim()) throw new UsageError('history store: expected a git URL or a directory path, got an empty value');
  const cwd = options.cwd ?? process.cwd();
  const common = {
    chartJs: options.chartJs,
    ...(options.adopt !== undefined ? { adopt: options.adopt } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.timelineRetention ? { timelineRetention: options.timelineRetention } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  if (isGitLocation(spec, cwd)) {
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(spec) || /^[^/\\\s]+@[^/\\\s:]+:/.test(spec) ? spec : resolve(cwd, spec);
    return new GitBranchStore({ url, branch: options.branch ?? 'gh-pages', ...(options.token ? { token: options.token } : {}), ...common });
  }
  return new DirectoryStore({ root: resolve(cwd, spec), ...common });
}
