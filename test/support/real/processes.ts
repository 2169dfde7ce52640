// Processes of the real node, started and stopped by pid. Each runs inside the node's namespaces
// (network, mount, PID) through nsenter, which forks it into the node's PID namespace and waits;
// the component's own host pid (nsenter's child) is what is recorded and signalled. Nothing is
// ever found or killed by name.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The parent pid of a process, or undefined when it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** The children of a process (no /proc/<pid>/task/<pid>/children on this kernel: a scan of /proc). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    if (parentOf(Number(name)) === pid) out.push(Number(name));
  }
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** Waits for the single child a forking launcher (nsenter --pid, unshare --fork) starts. */
export async function childOf(launcher: number, what: string, timeoutMs = 10_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [child] = childrenOf(launcher);
    if (child) return child;
    if (!alive(launcher)) throw new Error(`${what}: its launcher (pid ${launcher}) exited before starting it`);
    await sleep(20);
  }
  throw new Error(`${what}: no process started within ${timeoutMs / 1000}s`);
}

/** Starts a long-running command detached, output to a log file; returns the launcher's pid. */
export function spawnLogged(command: string, args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): number {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env });
  closeSync(fd);
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  return child.pid;
}

/** The nsenter arguments that enter every namespace of the node (init's pid on the host). */
export function enterNode(init: number, namespaces: ('net' | 'mount' | 'pid' | 'uts')[] = ['net', 'mount', 'pid', 'uts']): string[] {
  return ['--target', String(init), ...namespaces.map((n) => `--${n}`), '--'];
}

/**
 * SIGTERM, then SIGKILL after `graceMs`, and waits until the process is gone. `expect` guards
 * against a recycled pid: a process whose command line lacks it is left alone.
 */
export async function stopPid(pid: number, expect: string, graceMs = 10_000): Promise<'stopped' | 'killed' | 'gone'> {
  if (!alive(pid) || !commandLine(pid).includes(expect)) return 'gone';
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return 'stopped';
    await sleep(50);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
  for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
  return 'killed';
}

/** The last lines of a log file (for failure messages). */
export function logTail(dir: string, name: string, lines = 20): string {
  try {
    return readFileSync(join(dir, `${name}.log`), 'utf8')
      .trim()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '';
  }
}
