// The kind host itself: new network, mount, PID and UTS namespaces made by unshare, kubernetes'
// pause as PID 1 (when it exits the kernel kills everything in the PID namespace: dockerd, its
// containerd, every shim and every kind node). Inside, before pause starts: /run is a tmpfs
// (dockerd's and containerd's sockets and state, the nodes' runtime files: nothing of the host's
// /run is seen or touched); the mount namespace is a slave of the host's, so the host's mounts are
// seen and Docker's (overlays, the nodes' volumes) never reach the host. Its network namespace
// starts with a loopback only; Docker adds its bridges inside. No interface joins it to the
// host's: nothing inside can reach off the machine.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { componentPath } from '../../real/components.ts';
import { endInit, launchInit } from '../../real/actions/namespaces.ts';
import { removeCgroups } from '../../real/actions/cgroups.ts';
import type { Action } from '../host.ts';
import { CGROUP_PARENT, HOST_NAME, paths, stateDir } from '../layout.ts';

/** The init's command line carries this, so a recycled pid is never taken for the host. */
export const kindInitMarker = () => `mesh-perf-kind-init ${stateDir()}`;

const SETUP = `set -euo pipefail
mount -t tmpfs -o mode=0755 mesh-perf-kind /run
ip link set lo up
hostname "$HOST_NAME"
touch /run/.mesh-perf-kind-ready
exec -a "$MARKER" "$PAUSE"`;

export const namespaces: Action = {
  name: 'namespaces',
  async up(host) {
    mkdirSync(paths.logs(), { recursive: true });
    await launchInit(host, {
      marker: kindInitMarker(),
      unshare: ['--net', '--mount', '--pid', '--uts', '--fork', '--mount-proc', '--propagation', 'slave'],
      setup: SETUP,
      env: { ...process.env, HOST_NAME, PAUSE: componentPath('pause') },
      logFile: join(paths.logs(), 'init.log'),
      readyFile: '/run/.mesh-perf-kind-ready',
    });
  },
  async down(host) {
    await endInit(host, kindInitMarker());
    // Docker's containers were under its cgroup parent in every hierarchy; their tasks are gone.
    await removeCgroups(30_000, CGROUP_PARENT);
  },
};
