// Runs the real CLI (from source, through tsx) as a child process, as a user would; or its main()
// in this process, for commands that start nothing (help, usage and config errors, plan), which
// saves a tsx start-up (about a second) per call.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.ts';
import type { Logger } from '../../src/util/log.ts';

export const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    /** SIGINT this long after the start, or after stderr first matches `interruptWhen` when given. */
    interruptAfterMs?: number;
    interruptWhen?: RegExp;
    timeoutMs?: number;
  },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    let interrupter: NodeJS.Timeout | undefined;
    const interruptLater = () => (interrupter = setTimeout(() => child.kill('SIGINT'), options.interruptAfterMs));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (options.interruptWhen && !interrupter && options.interruptWhen.test(stderr)) interruptLater();
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
    if (options.interruptAfterMs !== undefined && !options.interruptWhen) interruptLater();
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      if (interrupter) clearTimeout(interrupter);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * `fn` with COLUMNS set to `columns`, restored after: unit files share a process (scripts/test.mjs
 * groups them), so a width set for one file's output must not leak into the next file's.
 */
export async function withColumns<T>(columns: number, fn: () => Promise<T>): Promise<T> {
  const before = process.env.COLUMNS;
  process.env.COLUMNS = String(columns);
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = before;
  }
}

/**
 * main() with the given arguments and working directory (and terminal width, when given); what it
 * prints is captured, logs go to stderr.
 */
export async function runCliInProcess(args: string[], options: { cwd: string; columns?: number }): Promise<CliResult> {
  if (options.columns !== undefined) {
    const { columns, ...rest } = options;
    return withColumns(columns, () => runCliInProcess(args, rest));
  }
  let stdout = '';
  let stderr = '';
  const toStderr = (text: string) => {
    stderr += `${text}\n`;
  };
  const log: Logger = { phase: toStderr, info: toStderr, warn: toStderr, progress() {}, progressDone() {} };
  const code = await main(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    log,
    cwd: options.cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-test-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
