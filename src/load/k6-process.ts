// One local k6 process: its temp dir with the script files, its command line (REST API on a free
// loopback port), the process itself with a stderr tail, and what it left behind (summary, the
// script's own files, raw samples). Shared by the single run and the group run.
import { type ChildProcess, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { K6_ENV } from '../tools/k6.ts';
import { collectRawSamples } from './raw-samples.ts';
import type { K6Invocation, K6Outcome } from './types.ts';

const STDERR_TAIL_BYTES = 4000;

export async function prepareDir(invocation: K6Invocation): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-k6-'));
  for (const [name, content] of Object.entries(invocation.files)) await writeFile(join(dir, name), content);
  return dir;
}

export function k6Args(invocation: K6Invocation, dir: string, apiPort: number, extra: string[] = []): string[] {
  const envArgs = Object.entries(invocation.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [
    'run',
    '--quiet',
    '--no-color',
    '--address',
    `127.0.0.1:${apiPort}`,
    ...extra,
    ...invocation.args,
    ...envArgs,
    join(dir, invocation.entry),
  ];
}

export interface K6Process {
  child: ChildProcess;
  /** Settles when the process has exited; never rejects after it started. */
  exited: Promise<{ exitCode: number; signal: NodeJS.Signals | null; stderrTail: string }>;
  /** Rejects when the process could not be started (ENOENT, EACCES). */
  started: Promise<void>;
}

export function startK6(k6Path: string, args: string[], cwd: string): K6Process {
  // GOGC=200 halves garbage-collection pauses, which otherwise stall the arrival-rate
  // scheduler at high rates: toggled alone at 2,000 rps it took k6 from ~190 to ~178 µs of
  // CPU per request and p99 from 15–39 ms to 8 ms on a loaded 2-core VM (issue 12 profiling).
  const child = spawn(k6Path, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GOGC: process.env.GOGC ?? '200', ...K6_ENV },
  });
  let stderr = '';
  const keepTail = (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
  };
  child.stderr?.on('data', keepTail);
  child.stdout?.on('data', keepTail);
  const started = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  const exited = new Promise<{ exitCode: number; signal: NodeJS.Signals | null; stderrTail: string }>((resolve) => {
    // Killed by a signal: 128 + its number, as a shell reports it (SIGKILL → 137).
    child.once('close', (code, signal) =>
      resolve({ exitCode: code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1), signal, stderrTail: stderr.trim() }),
    );
  });
  return { child, exited, started };
}

/** Asks k6 to stop (it then writes its summary), and kills it if it has not gone in 5 s. */
export function stopK6(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGINT');
  setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, 5000).unref();
}

/** What the process left in its dir: the summary, the script's own files, raw samples. */
export async function readOutcome(
  dir: string,
  invocation: K6Invocation,
  exit: { exitCode: number; stderrTail: string },
): Promise<K6Outcome> {
  const summary = await readFile(join(dir, invocation.summaryFile), 'utf8').catch(() => undefined);
  const extraFiles: Record<string, string> = {};
  for (const name of await readdir(dir)) {
    if (name === invocation.summaryFile || name === invocation.rawFile || name in invocation.files) continue;
    extraFiles[name] = await readFile(join(dir, name), 'utf8').catch(() => '');
  }
  const outcome: K6Outcome = { exitCode: exit.exitCode, summary, extraFiles, stderrTail: exit.stderrTail };
  if (invocation.rawFile) {
    // Missing or unreadable raw samples leave outcome.raw unset; the merge names the instance.
    const raw = await collectRawSamples(createReadStream(join(dir, invocation.rawFile))).catch(() => undefined);
    if (raw) outcome.raw = raw;
  }
  return outcome;
}

export async function fetchIterations(port: number): Promise<number | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/metrics/iterations`, { signal: AbortSignal.timeout(800) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { data?: { attributes?: { sample?: { count?: number } } } };
    return body.data?.attributes?.sample?.count;
  } catch {
    return undefined; // k6 not listening yet, or already gone: progress just skips a beat
  }
}
