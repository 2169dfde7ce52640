// Facts about where a run happened: machine fingerprint and git position. Read once per run.
import { execFile } from 'node:child_process';
import { arch, cpus, platform, release, totalmem } from 'node:os';
import { promisify } from 'node:util';
import type { GitInfo, MachineInfo } from './types.ts';

const run = promisify(execFile);

export function machineInfo(): MachineInfo {
  const cores = cpus().length;
  const os = `${platform()} ${release()} ${arch()}`;
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores,
    memoryMiB: Math.round(totalmem() / 1024 / 1024),
    os,
    // A GitHub runner label is the best grouping; elsewhere the machine's shape stands in.
    runnerClass:
      process.env.MESH_PERF_RUNNER_CLASS ??
      (process.env.RUNNER_OS
        ? `${process.env.RUNNER_OS}-${process.env.RUNNER_ARCH}-${cores}c`.toLowerCase()
        : `${platform()}-${arch()}-${cores}c`),
  };
}

async function git(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', args, { cwd, timeout: 5000 });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Git position of the working directory; GitHub's environment wins where it is set. */
export async function gitInfo(cwd: string): Promise<GitInfo> {
  const env = process.env;
  const sha = env.GITHUB_SHA ?? (await git(cwd, ['rev-parse', 'HEAD']));
  const ref = env.GITHUB_REF ?? (await git(cwd, ['symbolic-ref', '-q', 'HEAD']));
  const branch =
    env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME || (ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined);
  const info: GitInfo = { sha, ref, branch, event: env.GITHUB_EVENT_NAME ?? 'local' };
  if (env.GITHUB_BASE_REF) info.baseRef = env.GITHUB_BASE_REF;
  if (env.GITHUB_REPOSITORY) info.repository = env.GITHUB_REPOSITORY;
  for (const key of Object.keys(info) as (keyof GitInfo)[]) if (info[key] === undefined) delete info[key];
  return info;
}
