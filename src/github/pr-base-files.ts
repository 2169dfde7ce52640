// Server manifests as the PR's base commit has them. A PR that edits kubernetes.manifests.server
// (or a mode's serverManifests) in place leaves the config unchanged, yet the old and the new
// server differ: each file the base config names is read at the base commit (`git show
// <base>:./<path>`), and where it differs from the checkout's (or the checkout no longer has it)
// a copy is written for the base arm to deploy (config/load.ts points the base's paths at it).
// The copies live for the whole run, under RUNNER_TEMP, and are removed with it.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, normalize, resolve } from 'node:path';
import type { Config } from '../config/validate.ts';
import type { Git } from './run-git.ts';

export interface BaseFiles {
  /** Path as the base config names it → its copy and what to call it ("server.yaml at abc1234"). */
  files: Record<string, { copy: string; label: string }>;
  /** Where the copies are (for the post step's cleanup, should the job be cancelled). */
  dir: string;
  /** Removes the copies; call once the run is over. */
  remove: () => Promise<void>;
}

/** The server manifests a validated config deploys on a cluster, as written (relative to the working directory). */
function serverManifestPaths(config: Config): string[] {
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig') return [];
  const paths = [config.kubernetes.manifests.server, ...config.modes.map((m) => m.serverManifests)];
  return [...new Set(paths.filter((p): p is string => typeof p === 'string'))];
}

export async function baseServerManifests(git: Git, sha: string, cwd: string, base: Config): Promise<BaseFiles | undefined> {
  const short = sha.slice(0, 7);
  let dir: string | undefined;
  const files: BaseFiles['files'] = {};
  for (const path of serverManifestPaths(base)) {
    // Only files inside the repository have a version at the base commit.
    if (isAbsolute(path) || normalize(path).startsWith('..')) continue;
    let atBase: string;
    try {
      atBase = await git(['show', `${sha}:./${normalize(path)}`], cwd);
    } catch {
      continue; // not in the base commit (generated, or untracked): the checkout's file is the base's too
    }
    const inCheckout = await readFile(resolve(cwd, path), 'utf8').catch(() => undefined);
    if (inCheckout === atBase) continue;
    dir ??= await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'mesh-perf-pr-base-files-'));
    const copy = join(dir, `${Object.keys(files).length + 1}-${basename(path)}`);
    await writeFile(copy, atBase, { mode: 0o600 });
    files[path] = { copy, label: `${path} at ${short}` };
  }
  if (!dir) return undefined;
  const made = dir;
  return { files, dir: made, remove: () => rm(made, { recursive: true, force: true }) };
}
