// The kubelet's cgroup root (layout.ts CGROUP_ROOT; the kind tier passes its Docker cgroup parent) in every cgroup v1 hierarchy of the host:
// made before the kubelet starts (cpuset's with its parent's CPUs and memory nodes, or nothing can
// join it), removed depth-first once the node's processes are gone. cgroups are the one thing a
// node shares with the host; this is how they are left as they were.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CGROUP_ROOT } from '../layout.ts';

const CGROUPS = '/sys/fs/cgroup';

function hierarchies(): string[] {
  return readdirSync(CGROUPS)
    .map((name) => join(CGROUPS, name))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, 'cgroup.procs')));
}

export function makeCgroups(root = CGROUP_ROOT): void {
  for (const hierarchy of hierarchies()) {
    const dir = join(hierarchy, root);
    mkdirSync(dir, { recursive: true });
    for (const file of ['cpuset.cpus', 'cpuset.mems'])
      if (existsSync(join(hierarchy, file))) writeFileSync(join(dir, file), readFileSync(join(hierarchy, file)));
  }
}

export function leftoverCgroups(root = CGROUP_ROOT): string[] {
  return hierarchies()
    .map((h) => join(h, root))
    .filter((dir) => existsSync(dir));
}

function removeTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeTree(join(dir, entry.name));
  rmdirSync(dir);
}

/** Removes the tree in every hierarchy; retries while the kernel is still releasing exited tasks. */
export async function removeCgroups(timeoutMs = 20_000, root = CGROUP_ROOT): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = leftoverCgroups(root);
    let error: Error | undefined;
    for (const dir of left) {
      try {
        removeTree(dir);
      } catch (e) {
        error = e as Error;
      }
    }
    if (!error) return;
    if (Date.now() > deadline) throw new Error(`cgroups of the node could not be removed: ${error.message}`);
    await sleep(200);
  }
}
