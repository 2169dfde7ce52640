// Shared by the benches: a generator's own CPU time from /proc, and a Fortio echo server.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cachedToolPath } from '../../src/tools/cache.ts';
import { freePort } from '../../src/util/net.ts';

const FORTIO = cachedToolPath('fortio', '1.66.0');
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

/** CPU seconds (user + system) used by our child (or grandchild) processes named `comm`. */
export class ChildCpu {
  private readonly seen = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly comm: string) {}
  start(): void {
    this.timer = setInterval(() => this.sample(), 100);
  }
  stop(): number {
    this.sample();
    clearInterval(this.timer);
    return [...this.seen.values()].reduce((a, b) => a + b, 0);
  }
  private sample(): void {
    for (const pid of descendants(process.pid)) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        if (stat.slice(stat.indexOf('(') + 1, close) !== this.comm) continue;
        const fields = stat.slice(close + 2).split(' '); // fields[0] is field 3 (state)
        const seconds = (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime
        this.seen.set(pid, Math.max(this.seen.get(pid) ?? 0, seconds));
      } catch {
        // the process ended between listing and reading: its last sample stands
      }
    }
  }
}

/** Fields of /proc/<pid>/stat after the command name; [0] is field 3 (state). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone
  }
}

/**
 * CPU seconds of a process: its own (utime + stime) and that of the children it has waited for
 * (cutime + cstime, which the kernel adds when a child is reaped, with the child's own reaped
 * children). Undefined once the process is gone.
 */
export function processCpu(pid: number | 'self'): { own: number; reaped: number } | undefined {
  const f = statFields(pid);
  if (!f) return undefined;
  return { own: (Number(f[11]) + Number(f[12])) / CLK_TCK, reaped: (Number(f[13]) + Number(f[14])) / CLK_TCK };
}

/**
 * CPU seconds of every child of this process that exits between start and stop, exactly (from
 * this process's own cutime + cstime, counted by the kernel when Node reaps the child): with one
 * child at a time, that child's whole CPU, its own children's included, to 10 ms. A child still
 * running at stop (the Fortio server) is not counted.
 */
export class ReapedCpu {
  private readonly before = processCpu('self')!.reaped;
  seconds(): number {
    return processCpu('self')!.reaped - this.before;
  }
}

/** A process's peak resident memory (VmHWM) in MB; undefined once it is gone. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined; // gone
  }
}

/**
 * The peak resident memory of a process found by `find` (looked for until it appears), sampled
 * every 100 ms while it runs: VmHWM only grows, so the last sample before it exits is its peak
 * to within what it took in its last 100 ms. Several processes found in turn: the largest peak.
 */
export class PeakRss {
  private readonly timer: NodeJS.Timeout;
  private pid: number | undefined;
  private peak = 0;
  constructor(private readonly find: () => number | undefined) {
    this.timer = setInterval(() => this.sample(), 100);
  }
  private sample(): void {
    let mb = this.pid === undefined ? undefined : peakRssMb(this.pid);
    if (mb === undefined) {
      this.pid = this.find();
      mb = this.pid === undefined ? undefined : peakRssMb(this.pid);
    }
    if (mb !== undefined) this.peak = Math.max(this.peak, mb);
  }
  /** MB; NaN when the process was never seen. */
  stop(): number {
    clearInterval(this.timer);
    return this.peak === 0 ? Number.NaN : this.peak;
  }
}

/** The command name of a process (its executable's, as ps shows it); undefined once it is gone. */
export function commOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined; // gone
  }
}

export function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) out.push(child, ...descendants(child));
  }
  return out;
}

export async function startFortio(): Promise<{ url: string; pid: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn(FORTIO, ['server', '-http-port', `127.0.0.1:${port}`, '-grpc-port', 'disabled', '-redirect-port', 'disabled'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, pid: child.pid!, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('fortio did not answer within 10 s');
}
