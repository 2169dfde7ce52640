// Starts the local platform's server processes and guarantees they stop: on teardown, on
// error, on Ctrl-C, and (because each child exits when its stdin closes) even if we are killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { echoCommand } from '../echo/entry.ts';
import { EnvironmentError } from '../util/errors.ts';

const START_TIMEOUT_MS = 15_000;
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export interface StartedServer {
  port: number;
  /** The server process's id, which tells one instance from the next. */
  pid: number;
  stop(): Promise<void>;
}

export async function startServer(role: 'echo' | 'proxy', args: string[], label: string): Promise<StartedServer> {
  installExitHook();
  const { command, args: base } = echoCommand();
  const child = spawn(command, [...base, role, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new EnvironmentError(`${label} did not start within ${START_TIMEOUT_MS / 1000}s: ${stderr.trim()}`)),
      START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new EnvironmentError(`${label} printed ${JSON.stringify(line)} instead of its port`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new EnvironmentError(`${label} exited with code ${code} before listening: ${stderr.trim() || 'no output'}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { port, pid: child.pid ?? 0, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  live.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Requests a fresh server answers before it is measured: enough for node to have compiled its paths. */
const WARM_REQUESTS = 60;
const WARM_CONCURRENCY = 4;
const WARM_TIMEOUT_MS = 5_000;

/**
 * Sends WARM_REQUESTS GETs to a fresh server (or the outermost proxy of a chain), WARM_CONCURRENCY at
 * a time; errors are left to the measurement to report. The local platform warms each A/B arm's
 * server of a block this way, and bench/ab-local its plain-k6 references.
 */
export async function warmServer(port: number, signal: AbortSignal): Promise<void> {
  const one = () =>
    new Promise<void>((resolve) => {
      const request = get({ host: '127.0.0.1', port, path: '/', agent: false }, (response) => {
        response.resume();
        response.on('end', resolve);
        response.on('error', () => resolve());
      });
      request.on('error', () => resolve());
      // A server that does not answer is the block's to find; warming gives up on it.
      request.setTimeout(WARM_TIMEOUT_MS, () => request.destroy());
    });
  // The signal is checked between batches, not handed to each request (an abort listener apiece).
  for (let sent = 0; sent < WARM_REQUESTS && !signal.aborted; sent += WARM_CONCURRENCY)
    await Promise.all(Array.from({ length: WARM_CONCURRENCY }, one));
}
