// The real node: a list of named actions (actions/index.ts), each a small file, run in order by
// up(); a failure undoes the actions already done, in reverse; down() runs every action's undo in
// reverse whatever state a run left (a killed run included). Like kind's cluster create, without
// Docker: the "node" is a set of namespaces this harness creates (network, mount, PID, UTS) with
// kubernetes' pause as its PID 1, and every process of the cluster lives in them.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { paths, stateDir } from './layout.ts';
import { alive, childOf, enterNode, logTail, spawnLogged, stopPid } from './processes.ts';

const run = promisify(execFile);

export interface NodeProcess {
  name: string;
  pid: number;
  /** A piece of its command line that identifies it (a recycled pid is never signalled). */
  expect: string;
}

export interface NodeRecord {
  /** The node's PID 1 (pause) as the host sees it, and the unshare that forked it. */
  init?: number;
  launcher?: number;
  startedAt?: string;
  processes: NodeProcess[];
  namespaces?: import('./host-state.ts').NodeNamespaces;
  /** Actions whose up() finished. */
  done: string[];
}

export interface Action {
  name: string;
  up(node: NodeContext): Promise<void>;
  /** Undoes up(); must be safe to run when up() never ran or ran halfway. */
  down?(node: NodeContext): Promise<void>;
}

export interface ExecOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export class NodeContext {
  readonly record: NodeRecord;
  readonly timings: { action: string; seconds: number }[] = [];

  constructor(readonly log: (line: string) => void = () => {}) {
    this.record = readRecord() ?? { processes: [], done: [] };
  }

  save(): void {
    mkdirSync(stateDir(), { recursive: true });
    writeFileSync(paths.state(), `${JSON.stringify(this.record, null, 2)}\n`);
  }

  get init(): number {
    if (!this.record.init || !alive(this.record.init)) throw new Error('the real node is not up (no init process)');
    return this.record.init;
  }

  /** The host path of a file inside the node's mount namespace. */
  root(path: string): string {
    return `/proc/${this.init}/root${path}`;
  }

  /** Starts a long-running component inside the node; records and returns its host pid. */
  async start(name: string, command: string, args: string[], expect = command, env: NodeJS.ProcessEnv = process.env): Promise<number> {
    mkdirSync(paths.logs(), { recursive: true });
    const launcher = spawnLogged('nsenter', [...enterNode(this.init), command, ...args], join(paths.logs(), `${name}.log`), env);
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
    if (proc && !alive(proc.pid)) throw new Error(`${name} exited:\n${logTail(paths.logs(), name)}`);
  }

  /** Runs a command inside the node and waits for it. */
  async exec(
    command: string,
    args: string[],
    options: { timeoutMs?: number; namespaces?: Parameters<typeof enterNode>[1] } = {},
  ): Promise<ExecOutput> {
    try {
      const { stdout, stderr } = await run('nsenter', [...enterNode(this.init, options.namespaces), command, ...args], {
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
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
      throw new Error(`in the node: ${script.slice(0, 200)}\nexit ${out.code}: ${(out.stderr || out.stdout).trim().slice(-2000)}`);
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
    throw new Error(`${what}: not within ${timeoutMs / 1000}s${watch.map((w) => `\n--- ${w}\n${logTail(paths.logs(), w, 15)}`).join('')}`);
  }
}

export function readRecord(): NodeRecord | undefined {
  if (!existsSync(paths.state())) return undefined;
  try {
    return JSON.parse(readFileSync(paths.state(), 'utf8')) as NodeRecord;
  } catch {
    return undefined;
  }
}

/**
 * Runs the actions in order; on a failure undoes, in reverse, those this call started (the failed
 * one included: it may have done half), and rethrows. A refusal undoes nothing: the node another
 * run left up is refused by name, never taken down by this one.
 */
export async function up(actions: readonly Action[], node: NodeContext): Promise<void> {
  const begun: Action[] = [];
  for (const action of actions) {
    const started = Date.now();
    node.log(`▶ ${action.name}`);
    begun.push(action);
    try {
      await action.up(node);
    } catch (error) {
      const undo = begun.filter((a) => a.down);
      if (undo.length > 0) {
        node.log(`✖ ${action.name}: ${(error as Error).message.split('\n')[0]}; undoing what was done`);
        await down(undo, node).catch((e: Error) => node.log(`  undo: ${e.message}`));
      }
      throw error;
    }
    node.timings.push({ action: action.name, seconds: (Date.now() - started) / 1000 });
    node.record.done.push(action.name);
    node.save();
  }
}

/** Every action's undo, in reverse order; collects failures instead of stopping at the first. */
export async function down(actions: readonly Action[], node: NodeContext): Promise<void> {
  const problems: string[] = [];
  for (const action of [...actions].reverse()) {
    if (!action.down) continue;
    try {
      await action.down(node);
    } catch (error) {
      problems.push(`${action.name}: ${(error as Error).message}`);
    }
  }
  node.record.done = [];
  if (problems.length > 0) throw new Error(`down was incomplete:\n  ${problems.join('\n  ')}`);
  rmSync(paths.state(), { force: true });
}
