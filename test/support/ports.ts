// Ports for listeners a test must name ahead of time, such as the k6 REST APIs of a group under
// kwok (base, base + 1, ...). A port from listen(0) comes from the ephemeral range, and so does
// the source port of every outgoing connection on the machine: the port next to it can be taken
// by any client between the check and k6's bind (k6 then exits 106, "cannot start the REST API").
// Below that range (Linux: 32768-60999) only explicit binds take ports, so a run checked free
// here stays free unless another test names the same one before its owner binds it.
//
// That last case happened (CI, 2026-11-28): a kwok started seconds after its port was checked
// found it taken ("bind: address already in use"), as test files run side by side and a process
// binds its port well after the check. So every port handed out is also reserved, until the test
// process exits: in this process (a Set) and across processes (a file per port under the temp
// dir, holding the owner's pid; a dead owner's file is taken over).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOW = 20_000;
const HIGH = 32_000;
const RESERVATIONS = join(tmpdir(), 'mesh-perf-test-ports');
const reserved = new Set<number>();

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims `port` for this process; false when this or a live process holds it already. */
function reserve(port: number): boolean {
  if (reserved.has(port)) return false;
  mkdirSync(RESERVATIONS, { recursive: true });
  const file = join(RESERVATIONS, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      if (reserved.size === 0) process.once('exit', releaseAll);
      reserved.add(port);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(file, 'utf8'));
      } catch {
        // Removed between our write and read: try again.
      }
      if (alive(owner)) return false;
      rmSync(file, { force: true });
    }
  }
  return false;
}

function releaseAll(): void {
  for (const port of reserved) rmSync(join(RESERVATIONS, String(port)), { force: true });
  reserved.clear();
}

/** The first of `count` consecutive free ports below the ephemeral range, reserved for this process. */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const start = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    const taken: number[] = [];
    let free = true;
    for (let port = start; port < start + count && free; port++) {
      free = reserve(port) && (await bindable(port));
      if (reserved.has(port)) taken.push(port);
    }
    if (free) return start;
    // A partial run goes back, so another attempt (or process) can use those ports.
    for (const port of taken) {
      rmSync(join(RESERVATIONS, String(port)), { force: true });
      reserved.delete(port);
    }
  }
  throw new Error(`no ${count} consecutive free ports between ${LOW} and ${HIGH} after 200 tries`);
}
