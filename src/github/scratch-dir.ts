// The run's temporary files (k6's scripts and summaries, history-store clones, kind's work dir,
// tool downloads) all go under one directory inside RUNNER_TEMP, which the post step removes if
// main never got to it. Each of them is removed by a `finally` of its own, but a main step killed
// mid-measure (a cancelled or timed-out job) never runs those, and a self-hosted runner's /tmp is
// never emptied. Node's os.tmpdir() reads TMPDIR on every call, and every child process (k6, git,
// kind, go) inherits it, so setting it here reaches them all without threading a path through.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface ScratchDir {
  dir: string;
  /** Puts TMPDIR back as it was and removes the directory; never throws. */
  leave(): Promise<void>;
}

export async function enterScratchDir(runnerTemp: string): Promise<ScratchDir> {
  const dir = await mkdtemp(join(runnerTemp, 'mesh-perf-tmp-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return {
    dir,
    async leave() {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
