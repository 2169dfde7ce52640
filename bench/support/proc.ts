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

export async function startFortio(): Promise<{ url: string; stop: () => void }> {
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
      return { url, stop: () => child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('fortio did not answer within 10 s');
}
