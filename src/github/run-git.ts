// git for the action's PR path, in the job's checkout: the PR base's config and server manifests.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { messageOf } from '../util/errors.ts';

/** Runs git in `cwd`; stdout, or throws with git's stderr. */
export type Git = (args: string[], cwd: string) => Promise<string>;

const execFileAsync = promisify(execFile);

export const runGit: Git = async (args, cwd) => {
  try {
    const { stdout } = await execFileAsync('git', args, {
      cwd,
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
      // Never wait for a password prompt: a job has no one to answer it.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(stderr ? lastLines(stderr, 3) : messageOf(error));
  }
};

function lastLines(text: string, count: number): string {
  return text.split('\n').slice(-count).join(' ').replace(/\s+/g, ' ');
}
