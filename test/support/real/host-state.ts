// What the host looks like from outside the node, for the containment checks: processes inside the
// node's namespaces, and a snapshot of the host's interfaces, network namespaces, iptables chains,
// mounts, CNI files and cgroups that up/down must leave as they were.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { CGROUP_ROOT } from './layout.ts';
import { LEAK_TABLE_PREFIX } from './leak-counter.ts';

export interface NodeNamespaces {
  net: string;
  pid: string;
  mnt: string;
}

/** Host pids of every process in any of the node's namespaces. */
export function nodeProcesses(ns: NodeNamespaces): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      for (const kind of ['net', 'pid', 'mnt'] as const)
        if (readlinkSync(`/proc/${name}/ns/${kind}`) === ns[kind]) {
          out.push(Number(name));
          break;
        }
    } catch {}
  }
  return out;
}

const tryRun = (command: string, args: string[]) => {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return '';
  }
};

export interface HostSnapshot {
  links: string[];
  netns: string[];
  iptablesChains: string[];
  /** nftables tables (iptables-nft's and any other). */
  nftTables: string[];
  mounts: string[];
  cniFiles: string[];
  cgroups: string[];
}

export function hostSnapshot(): HostSnapshot {
  const chains = ['iptables-save', 'ip6tables-save'].flatMap((save) =>
    tryRun(save, [])
      .split('\n')
      .filter((l) => l.startsWith(':'))
      .map((l) => `${save}: ${l.split(' ')[0]!.slice(1)}`),
  );
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).map((f) => `${dir}/${f}`) : []);
  return {
    links: tryRun('ip', ['-br', 'link'])
      .split('\n')
      .map((l) => l.split(/\s+/)[0]!)
      .filter(Boolean)
      .sort(),
    netns: tryRun('ip', ['netns', 'list']).split('\n').filter(Boolean).sort(),
    iptablesChains: chains.sort(),
    // Without the leak counters' own tables (leak-counter.ts): another tier's may come and go.
    nftTables: tryRun('nft', ['list', 'tables'])
      .split('\n')
      .filter((t) => t && !t.includes(LEAK_TABLE_PREFIX))
      .sort(),
    mounts: readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => `${l.split(' ')[4]} ${l.split(' - ')[1]?.split(' ')[0]}`)
      .sort(),
    cniFiles: [
      ...list('/etc/cni/net.d'),
      ...list('/opt/cni/bin'),
      ...list('/run/netns'),
      ...list('/var/run/ztunnel'),
      ...list('/var/run/istio-cni'),
    ].sort(),
    cgroups: readdirSync('/sys/fs/cgroup')
      .map((h) => `/sys/fs/cgroup/${h}/${CGROUP_ROOT}`)
      .filter((p) => existsSync(p)),
  };
}
