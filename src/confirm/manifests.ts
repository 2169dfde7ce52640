// Server manifests as an earlier run read them: the file in this checkout when its content is the
// one the run recorded (run.provenance.files), else the file at the run's commit (`git show`, so
// the confirm job checks out the history: actions/checkout with fetch-depth 0), copied beside the
// confirmation's results. Content that cannot be had makes the difference one that cannot be an arm.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { makeDirectory } from '../util/make-directory.ts';

const run = promisify(execFile);

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

export function manifestsResolver(cwd: string, copies: string) {
  return async (manifests: { path: string; sha256?: string }, commit: string | undefined): Promise<string | undefined> => {
    const local = resolve(cwd, manifests.path);
    const here = await readFile(local).catch(() => undefined);
    // A run written before results v7 recorded no hash: the file as it is here is all there is.
    if (!manifests.sha256) return here ? local : undefined;
    if (here && sha256(here) === manifests.sha256) return local;
    if (!commit || !/^[0-9a-f]{7,64}$/.test(commit)) return undefined;
    try {
      const { stdout } = await run('git', ['-C', cwd, 'show', `${commit}:./${manifests.path.replace(/^\.\//, '')}`], {
        encoding: 'buffer',
        maxBuffer: 1 << 24,
        timeout: 15_000,
      });
      if (sha256(stdout) !== manifests.sha256) return undefined;
      await makeDirectory(copies);
      const copy = join(copies, `${manifests.sha256.slice(0, 16)}.yaml`);
      await writeFile(copy, stdout);
      return copy;
    } catch {
      return undefined;
    }
  };
}
