// A "host" made of namespaces this harness creates (the real node's, the kind tier's): a record of
// its init and processes kept in a state file, processes started inside it and stopped by pid,
// commands run inside it, and a list of named actions brought up in order and undone in reverse
// (like kind's cluster create). The real node (real/node.ts) and the kind tier's contained Docker
// (kind/host.ts) differ only in their layout and their actions.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { alive, childOf, enterNode, logTail, spawnLogged, stopPid } from './real/processes.ts';

const run = promisify(execFile);

export interface HostProcess {
  name: string;
  pid: number;
  /** A piece of its command line that identifies it (a recycled pid is never signalled). */
  expect: string;
}

export interface HostNamespaces {
  net: string;
  pid: string;
  mnt: string;
}

export interface HostRecord {
  /** The host's PID 1 (pause) as the machine sees it, and the unshare that forked it. */
  init?: number;
  launcher?: number;
  startedAt?: string;
  processes: HostProcess[];
  namespaces?: HostNamespaces;
  /** Actions whose up() finished. */
  done: string[];
}

export interface HostLayout {
  /** The JSON file holding the record. */
  state: () => string;
  /** Where each started process writes <name>.log. */
  logs: () => string;
  /** What the record calls this host in errors ("the real node", "the kind host"). */
  what: string;
}

export interface ExecOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Action<C extends NamespacedHost = NamespacedHost> {
  name: string;
  up(host: C): Promise<void>;
  /** Undoes up(); must be safe to run when up() never ran or ran halfway. */
  down?(host: C): Promise<void>;
}

export function readHostRecord(layout: HostLayout): HostRecord | undefined {
  if (!existsSync(layout.state())) return undefined;
  try {
    return JSON.parse(readFileSync(layout.state(), 'utf8')) as HostRecord;
  } catch {
    return undefined;
  }
}

export class NamespacedHost {
  readonly record: HostRecord;
  readonly timings: { action: string; seconds: number }[] = [];

  constructor(
    readonly layout: HostLayout,
    readonly log: (line: string) => void = () => {},
  ) {
    this.record = readHostRecord(layout) ?? { processes: [], done: [] };
  }

  save(): void {
    mkdirSync(dirname(this.layout.state()), { recursive: true });
    writeFileSync(this.layout.state(), `${JSON.stringify(this.record, null, 2)}\n`);
  }

  /** The record is gone with the host (down finished). */
  forget(): void {
    rmSync(this.layout.state(), { force: true });
  }

  get init(): number {
    if (!this.record.init || !alive(this.record.init)) throw new Error(`${this.layout.what} is not up (no init process)`);
    return this.record.init;
  }

  /** The machine's path of a file inside the host's mount namespace. */
  root(path: string): string {
    return `/proc/${this.init}/root${path}`;
  }

  /** Starts a long-running component inside the host; records and returns its pid. */
  async start(name: string, command: string, args: string[], expect = command, env: NodeJS.ProcessEnv = process.env): Promise<number> {
    mkdirSync(this.layout.logs(), { recursive: true });
    const launcher = spawnLogged('nsenter', [...enterNode(this.init), command, ...args], join(this.layout.logs(), `${name}.log`), env);
    const pid = await childOf(launcher, name);
    this.record.processes = [...this.record.processes.filter((p) => p.name !== name), { name, pid, expect }];
    this.save();
    return pid;
  }

  /** Stops a recorded component by pid (SIGTERM, SIGKILL after the grace), and forgets it. */
  async stop(name: string, graceMs = 10_000): Promise<void> {
    const proc = this.record.processes.find((p) => p.name === name);
    if (!proc) return;
    const how = await stopPid(proc.pid, proc.expect, graceMs);
    if (how === 'killed') this.log(`${name} (pid ${proc.pid}) did not stop within ${graceMs / 1000}s of SIGTERM: killed`);
    this.record.processes = this.record.processes.filter((p) => p.name !== name);
    this.save();
  }

  /** Fails with the component's log tail when it has exited. */
  checkAlive(name: string): void {
    const proc = this.record.processes.find((p) => p.name === name);
    if (proc && !alive(proc.pid)) throw new Error(`${name} exited:\n${logTail(this.layout.logs(), name)}`);
  }

  /** Runs a command inside the host and waits for it. */
  async exec(
    command: string,
    args: string[],
    options: { timeoutMs?: number; namespaces?: Parameters<typeof enterNode>[1]; env?: NodeJS.ProcessEnv } = {},
  ): Promise<ExecOutput> {
    try {
      const { stdout, stderr } = await run('nsenter', [...enterNode(this.init, options.namespaces), command, ...args], {
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: options.env ?? process.env,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
      return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
    }
  }

  /** exec that fails with the command's output on a non-zero exit. */
  async sh(script: string, timeoutMs?: number): Promise<string> {
    const out = await this.exec('/bin/sh', ['-ec', script], { timeoutMs });
    if (out.code !== 0)
      throw new Error(
        `in ${this.layout.what}: ${script.slice(0, 200)}\nexit ${out.code}: ${(out.stderr || out.stdout).trim().slice(-2000)}`,
      );
    return out.stdout;
  }

  /** Polls `check` until it holds; the error names what was awaited and which components died. */
  async waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 120_000, watch: string[] = []): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const name of watch) this.checkAlive(name);
      if (await check().catch(() => false)) return;
      await sleep(250);
    }
    throw new Error(
      `${what}: not within ${timeoutMs / 1000}s${watch.map((w) => `\n--- ${w}\n${logTail(this.layout.logs(), w, 15)}`).join('')}`,
    );
  }
}

/**
 * Runs the actions in order; on a failure undoes, in reverse, those this call started (the failed
 * one included: it may have done half), and rethrows. A refusal undoes nothing: the host another
 * run left up is refused by name, never taken down by this one.
 */
export async function upActions<C extends NamespacedHost>(actions: readonly Action<C>[], host: C): Promise<void> {
  const begun: Action<C>[] = [];
  for (const action of actions) {
    const started = Date.now();
    host.log(`▶ ${action.name}`);
    begun.push(action);
    try {
      await action.up(host);
    } catch (error) {
      const undo = begun.filter((a) => a.down);
      if (undo.length > 0) {
        host.log(`✖ ${action.name}: ${(error as Error).message.split('\n')[0]}; undoing what was done`);
        await downActions(undo, host).catch((e: Error) => host.log(`  undo: ${e.message}`));
      }
      throw error;
    }
    host.timings.push({ action: action.name, seconds: (Date.now() - started) / 1000 });
    host.record.done.push(action.name);
    host.save();
  }
}

/** Every action's undo, in reverse order; collects failures instead of stopping at the first. */
export async function downActions<C extends NamespacedHost>(actions: readonly Action<C>[], host: C): Promise<void> {
  const problems: string[] = [];
  for (const action of [...actions].reverse()) {
    if (!action.down) continue;
    try {
      await action.down(host);
    } catch (error) {
      problems.push(`${action.name}: ${(error as Error).message}`);
    }
  }
  host.record.done = [];
  if (problems.length > 0) throw new Error(`down was incomplete:\n  ${problems.join('\n  ')}`);
  host.forget();
}
