// Runs the action entry the way the runner does: a node process with INPUT_* variables, an event
// payload file, and the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_STATE files. Source runs
// through tsx (the bundle is the lead's build; dist is checked separately).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { testTempDir } from '../support/temp-dirs.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface RunnerFiles {
  dir: string;
  summary: string;
  output: string;
  state: string;
  path: string;
  event: string;
}

export async function runnerFiles(prefix: string): Promise<RunnerFiles> {
  const dir = testTempDir(prefix);
  const files = {
    dir,
    summary: join(dir, 'step-summary.md'),
    output: join(dir, 'github-output'),
    state: join(dir, 'github-state'),
    path: join(dir, 'github-path'),
    event: join(dir, 'event.json'),
  };
  for (const f of [files.summary, files.output, files.state, files.path]) await writeFile(f, '');
  return files;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  state: Record<string, string>;
}

export interface RunOptions {
  entry?: 'src/action.ts' | 'src/post.ts';
  files: RunnerFiles;
  eventName: string;
  payload: unknown;
  inputs: Record<string, string>;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export async function runAction(options: RunOptions): Promise<ActionRun> {
  const { files } = options;
  await writeFile(files.event, JSON.stringify(options.payload));
  // Start from a clean environment so the developer's GITHUB_* variables do not leak in.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_PATH: files.path,
    GITHUB_SERVER_URL: 'https://github.test',
    GITHUB_RUN_ID: String(1000 + Math.floor(Math.random() * 9000)),
    GITHUB_RUN_ATTEMPT: '1',
    RUNNER_TEMP: files.dir,
    ...options.env,
  };
  for (const [name, value] of Object.entries(options.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, options.entry ?? 'src/action.ts')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`action did not finish within ${options.timeoutMs ?? 180_000} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 180_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      resolvePromise(c);
    });
  });
  return {
    code,
    stdout,
    stderr,
    outputs: parseFileCommands(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
    state: parseFileCommands(await readFile(files.state, 'utf8')),
  };
}

/** Parses the runner's `name<<delimiter` file-command format; later values win, as on the runner. */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = lines[i]!.match(/^([^=<]+)<<(.+)$/);
    if (match) {
      const [, name, delimiter] = match;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i]!);
      out[name!] = value.join('\n');
    } else if (lines[i]!.includes('=')) {
      const at = lines[i]!.indexOf('=');
      out[lines[i]!.slice(0, at)] = lines[i]!.slice(at + 1);
    }
  }
  return out;
}

/** Workflow commands printed on stdout, e.g. ::error title=x::message. */
export function commands(stdout: string, name: string): { props: string; message: string }[] {
  return stdout
    .split('\n')
    .map((line) => line.match(new RegExp(`^::${name}( [^:]*)?::(.*)$`)))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ props: (m[1] ?? '').trim(), message: m[2]! }));
}

export function pullRequestPayload(o: { number: number; repo: string; headRepo?: string; headSha?: string; baseSha?: string }): unknown {
  return {
    action: 'synchronize',
    number: o.number,
    pull_request: {
      number: o.number,
      head: { sha: o.headSha ?? 'a'.repeat(40), ref: 'feature', repo: { full_name: o.headRepo ?? o.repo } },
      base: { sha: o.baseSha ?? 'b'.repeat(40), ref: 'main', repo: { full_name: o.repo } },
    },
    repository: { full_name: o.repo },
  };
}
