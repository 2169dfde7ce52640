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

/** The init's command line carries this, so a recycled pid is never taken for the node. */
export const initMarker = () => `mesh-perf-real-init ${stateDir()}`;

/**
 * Inits of nodes of this state directory that are running, found by their marker: a node whose
 * record was lost (a killed run's, overwritten) is still found, refused and taken down by its pid.
 */
export function runningInits(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => commandLine(pid) === initMarker());
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

export const namespaces: Action = {
  name: 'namespaces',
  async up(node) {
    makeCgroups();
    mkdirSync(paths.logs(), { recursive: true });
    const launcher = spawnLogged(
      'unshare',
      ['--net', '--mount', '--pid', '--uts', '--fork', '--mount-proc', '--propagation', 'private', '--', '/bin/bash', '-c', SETUP],
      join(paths.logs(), 'init.log'),
      { ...process.env, NODE_NAME, MARKER: initMarker(), PAUSE: componentPath('pause') },
    );
    node.record.launcher = launcher;
    const init = await childOf(launcher, 'the node init');
    node.record.init = init;
    node.record.startedAt = new Date().toISOString();
    node.save();
    for (
      let i = 0;
      i < 200 && !(commandLine(init).includes(initMarker()) && existsSync(`/proc/${init}/root/run/.mesh-perf-node-ready`));
      i++
    ) {
      if (!alive(init)) throw new Error(`the node's namespaces could not be set up: see ${join(paths.logs(), 'init.log')}`);
      await sleep(50);
    }
    if (!commandLine(init).includes(initMarker())) throw new Error('the node init did not start pause');
    node.record.namespaces = namespacesOf(init);
    node.save();
  },
  async down(node) {
    const recorded =
      node.record.init && alive(node.record.init) && commandLine(node.record.init) === initMarker() ? node.record.init : undefined;
    const init = recorded ?? runningInits()[0];
    const ns = node.record.namespaces ?? (init ? namespacesOf(init) : undefined);
    if (init) {
      process.kill(init, 'SIGTERM');
      for (let i = 0; i < 200 && alive(init); i++) await sleep(50);
      if (alive(init)) process.kill(init, 'SIGKILL');
    }
    // The kernel kills what was left in the PID namespace; wait until no process holds the node's namespaces.
    if (ns) {
      const deadline = Date.now() + 30_000;
      while (nodeProcesses(ns).length > 0 && Date.now() < deadline) await sleep(100);
      const left = nodeProcesses(ns);
      if (left.length > 0) throw new Error(`processes still in the node's namespaces after its init exited: ${left.join(', ')}`);
    }
    node.record.init = undefined;
    node.record.launcher = undefined;
    node.save();
    await removeCgroups();
  },
};
