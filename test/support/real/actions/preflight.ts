// Refusals before anything is created: a missing component (which, and the command that builds
// it), a node from an earlier run still up (refused by name; `down` removes it), and the
// benchmarking range already in use on the host (an address or route in 198.18.0.0/15: refused,
// naming the interface). Only once none applies: a stale record or empty cgroups of a killed run
// whose node is gone are cleaned, and said.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { missingComponents } from '../components.ts';
import { BENCHMARK_RANGE, paths } from '../layout.ts';
import type { Action } from '../node.ts';
import { alive, commandLine } from '../processes.ts';
import { initMarker, runningInits } from './namespaces.ts';
import { leftoverCgroups, removeCgroups } from './cgroups.ts';

export class RealNodeRefusal extends Error {}

/** Whether an IPv4 address or prefix overlaps 198.18.0.0/15. */
export function inBenchmarkRange(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return a === 198 && (b === 18 || b === 19);
}

/** Host addresses and routes in the benchmarking range: "<what> on <interface>". */
export function hostRangeUsers(): string[] {
  const addresses = JSON.parse(execFileSync('ip', ['-j', '-4', 'addr'], { encoding: 'utf8' })) as {
    ifname: string;
    addr_info?: { local: string; prefixlen: number }[];
  }[];
  const routes = JSON.parse(execFileSync('ip', ['-j', '-4', 'route', 'show', 'table', 'all'], { encoding: 'utf8' })) as {
    dst: string;
    dev?: string;
  }[];
  return [
    ...addresses.flatMap((i) =>
      (i.addr_info ?? []).filter((a) => inBenchmarkRange(a.local)).map((a) => `address ${a.local}/${a.prefixlen} on ${i.ifname}`),
    ),
    ...routes.filter((r) => inBenchmarkRange(r.dst)).map((r) => `route ${r.dst}${r.dev ? ` on ${r.dev}` : ''}`),
  ];
}

export const preflight: Action = {
  name: 'preflight',
  async up(node) {
    const missing = missingComponents();
    if (missing.length > 0)
      throw new RealNodeRefusal(
        `the real node cannot start, components are missing:\n${missing.map((c) => `  ${c.name} ${c.version} (${c.path}): run \`${c.how}\``).join('\n')}`,
      );
    const record = node.record;
    const recorded = record.init && alive(record.init) && commandLine(record.init) === initMarker() ? record.init : undefined;
    const running = recorded ?? runningInits()[0];
    if (running)
      throw new RealNodeRefusal(
        `a real node from an earlier run is still up (init pid ${running}${recorded ? `, started ${record.startedAt}, record ${paths.state()}` : ', its record lost'}): ` +
          'remove it with `node --import tsx scripts/real/node.ts down` (or let that run finish)',
      );
    const users = hostRangeUsers();
    if (users.length > 0)
      throw new RealNodeRefusal(
        `the node's range ${BENCHMARK_RANGE} is already in use on this machine (${users.join('; ')}): the node would not be contained. ` +
          'Remove it (e.g. `ip link del <interface>` for a bridge left by an earlier setup) and try again',
      );
    if (record.init || record.processes.length > 0) {
      node.log(`a killed run left a record (${paths.state()}) whose node is gone: removed`);
      rmSync(paths.state(), { force: true });
      record.init = undefined;
      record.processes = [];
      record.done = [];
    }
    const cgroups = leftoverCgroups();
    if (cgroups.length > 0) {
      node.log(`a killed run left empty cgroups (${cgroups.join(', ')}): removed`);
      await removeCgroups();
    }
  },
};
