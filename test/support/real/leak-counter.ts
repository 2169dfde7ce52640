// Counts packets to or from the node's range (198.18.0.0/15) in the host's own network namespace:
// an nftables table of its own with counters on every hook a packet can pass (prerouting, input,
// forward, output, postrouting), so every packet the host's stack sees on any interface is
// counted. The node's network namespace has no link to the host, so the count around a full
// up/run/down must be 0; anything else is a leak. The table is deleted whole afterwards: the
// host's ruleset is left exactly as it was. Each test process has its own table (the real and the
// kind tiers may count at once on a developer's machine); host-state.ts leaves these out of its
// snapshot, and leakCounterGone says this process's is gone.
import { execFileSync } from 'node:child_process';
import { BENCHMARK_RANGE } from './layout.ts';

/** The tables of every process start with this (host-state.ts leaves them out of the snapshot). */
export const LEAK_TABLE_PREFIX = 'mesh_perf_leak_';
const TABLE = `${LEAK_TABLE_PREFIX}${process.pid}`;
const HOOKS = ['prerouting', 'input', 'forward', 'output', 'postrouting'];
const nft = (args: string[], input?: string) =>
  execFileSync('nft', args, { encoding: 'utf8', input, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });

export function startLeakCounter(): void {
  stopLeakCounter();
  const chains = HOOKS.map(
    (hook) =>
      `  chain ${hook} {\n    type filter hook ${hook} priority -400; policy accept;\n    ip daddr ${BENCHMARK_RANGE} counter\n    ip saddr ${BENCHMARK_RANGE} counter\n  }`,
  );
  nft(['-f', '-'], `table inet ${TABLE} {\n${chains.join('\n')}\n}\n`);
}

/** Packets counted since startLeakCounter (both directions, every hook). */
export function leakedPackets(): number {
  const listing = nft(['list', 'table', 'inet', TABLE]);
  return [...listing.matchAll(/counter packets (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

export function stopLeakCounter(): void {
  try {
    nft(['delete', 'table', 'inet', TABLE]);
  } catch {}
}

/** This process's counter table is gone (after stopLeakCounter). */
export function leakCounterGone(): boolean {
  try {
    nft(['list', 'table', 'inet', TABLE]);
    return false;
  } catch {
    return true;
  }
}
