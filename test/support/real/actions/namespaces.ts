// The node itself: new network, mount, PID and UTS namespaces, made by unshare, with kubernetes'
// pause as PID 1 (it reaps orphans, and when it exits the kernel kills everything left in the
// PID namespace, containers and shims included). Inside, before pause starts:
//   /proc   the node's own (so "PID 1" and /proc/1/ns/net, which istio-cni reads, are the node's)
//   /run    a tmpfs (containerd's and the kubelet's sockets, /run/netns, ztunnel's and istio-cni's
//           sockets: nothing of the host's /run is seen or touched)
//   /etc /opt /var   overlays whose writes land in that tmpfs (/etc/cni/net.d, /opt/cni/bin,
//           /var/log/pods: the kubelet's and istio-cni's default paths, private to the node)
//   /var/lib/containerd /var/lib/kubelet /var/lib/etcd   tmpfs (overlayfs snapshots need a
//           non-overlay upper)
//   /       made rshared inside the node, for the kubelet's mount propagation (istio-cni's
//           HostToContainer view of /run/netns)
// Its network namespace starts with a loopback only; network.ts adds the bridge. No interface
// joins it to the host's: nothing inside can reach off the machine.
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { componentPath } from '../components.ts';
import { NODE_NAME, paths, stateDir } from '../layout.ts';
import type { Action } from '../node.ts';
import { alive, childOf, commandLine, spawnLogged } from '../processes.ts';
import { makeCgroups, removeCgroups } from './cgroups.ts';
import { type NodeNamespaces, nodeProcesses } from '../host-state.ts';
import type { NamespacedHost } from '../../namespaced-host.ts';

/** The init's command line carries this, so a recycled pid is never taken for the node. */
export const initMarker = () => `mesh-perf-real-init ${stateDir()}`;

/**
 * Inits of nodes of this state directory that are running, found by their marker: a node whose
 * record was lost (a killed run's, overwritten) is still found, refused and taken down by its pid.
 */
export function runningInits(): number[] {
  return initsMarked(initMarker());
}

function namespacesOf(pid: number): NodeNamespaces | undefined {
  try {
    return { net: readlinkSync(`/proc/${pid}/ns/net`), pid: readlinkSync(`/proc/${pid}/ns/pid`), mnt: readlinkSync(`/proc/${pid}/ns/mnt`) };
  } catch {
    return undefined;
  }
}

const SETUP = `set -euo pipefail
mount -t tmpfs -o mode=0755 mesh-perf-node /run
for d in etc opt var; do
  mkdir -p /run/.node/$d/upper /run/.node/$d/work
  mount -t overlay mesh-perf-node -o lowerdir=/$d,upperdir=/run/.node/$d/upper,workdir=/run/.node/$d/work /$d
done
for d in /var/lib/containerd /var/lib/kubelet /var/lib/etcd; do mkdir -p $d; mount -t tmpfs -o mode=0700 mesh-perf-node $d; done
mkdir -p /run/netns /etc/cni/net.d /opt/cni/bin
mount --make-rshared /
ip link set lo up
hostname "$NODE_NAME"
touch /run/.mesh-perf-node-ready
exec -a "$MARKER" "$PAUSE"`;

/** What an init of namespaces needs: its marker, the script that sets them up and execs pause, its log. */
export interface InitOptions {
  marker: string;
  /** unshare's namespace flags. */
  unshare: string[];
  setup: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** A file (inside the new mount namespace) the setup touches when it is done. */
  readyFile: string;
}

/**
 * Starts an init in namespaces of its own (unshare, then the setup script, then pause under the
 * marker's name); records its pid and namespaces before waiting for it to be ready, so a failure
 * halfway is undone by endInit.
 */
export async function launchInit(host: NamespacedHost, options: InitOptions): Promise<number> {
  const launcher = spawnLogged('unshare', [...options.unshare, '--', '/bin/bash', '-c', options.setup], options.logFile, {
    ...options.env,
    MARKER: options.marker,
  });
  host.record.launcher = launcher;
  const init = await childOf(launcher, 'the init');
  host.record.init = init;
  host.record.startedAt = new Date().toISOString();
  host.save();
  for (let i = 0; i < 200 && !(commandLine(init).includes(options.marker) && existsSync(`/proc/${init}/root${options.readyFile}`)); i++) {
    if (!alive(init)) throw new Error(`the namespaces could not be set up: see ${options.logFile}`);
    await sleep(50);
  }
  if (!commandLine(init).includes(options.marker)) throw new Error('the init did not start pause');
  host.record.namespaces = namespacesOf(init);
  host.save();
  return init;
}

/** Inits running under a marker (a killed run's too, whose record was lost). */
export function initsMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => commandLine(pid) === marker);
}

/**
 * Ends the recorded init (or one found by its marker): the kernel then kills everything left in its
 * PID namespace; waits until no process holds any of its namespaces.
 */
export async function endInit(host: NamespacedHost, marker: string): Promise<void> {
  const recorded = host.record.init && alive(host.record.init) && commandLine(host.record.init) === marker ? host.record.init : undefined;
  const init = recorded ?? initsMarked(marker)[0];
  const ns = host.record.namespaces ?? (init ? namespacesOf(init) : undefined);
  if (init) {
    process.kill(init, 'SIGTERM');
    for (let i = 0; i < 200 && alive(init); i++) await sleep(50);
    if (alive(init)) process.kill(init, 'SIGKILL');
  }
  if (ns) {
    const deadline = Date.now() + 30_000;
    while (nodeProcesses(ns).length > 0 && Date.now() < deadline) await sleep(100);
    const left = nodeProcesses(ns);
    if (left.length > 0) throw new Error(`processes still in the namespaces after their init exited: ${left.join(', ')}`);
  }
  host.record.init = undefined;
  host.record.launcher = undefined;
  host.save();
}

export const namespaces: Action = {
  name: 'namespaces',
  async up(node) {
    makeCgroups();
    mkdirSync(paths.logs(), { recursive: true });
    await launchInit(node, {
      marker: initMarker(),
      unshare: ['--net', '--mount', '--pid', '--uts', '--fork', '--mount-proc', '--propagation', 'private'],
      setup: SETUP,
      env: { ...process.env, NODE_NAME, PAUSE: componentPath('pause') },
      logFile: join(paths.logs(), 'init.log'),
      readyFile: '/run/.mesh-perf-node-ready',
    });
  },
  async down(node) {
    await endInit(node, initMarker());
    await removeCgroups();
  },
};
