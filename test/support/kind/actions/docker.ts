// Debian's dockerd inside the kind host, configured for containment and for this VM:
//   -H unix://<state>/docker.sock    the only way in: kind, the product and act reach it by DOCKER_HOST
//   --data-root <cache>/kind-data    images (the node image, the layers) stay between runs
//   --bip, --default-address-pool    docker0 and any network Docker makes are in 198.18.0.0/15
//   --insecure-registry              the registry inside the host (plain HTTP, on the kind network)
//   --cgroup-parent                  every container's cgroups under one tree, removed by down
//   --add-runtime/--default-runtime  the runc wrapper (scripts/kind/runc-wrapper): this VM's
//                                    capability bounding set, nothing else
// Its config file is one of the tier's own (the host's /etc/docker is never read). Stopped by pid
// on down (it stops its containers, then its containerd); the host's init ending kills the rest.
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kindComponentPath } from '../components.ts';
import type { Action, KindHost } from '../host.ts';
import { ADDRESS_POOL, CGROUP_PARENT, DOCKER0_CIDR, KIND_NETWORK, paths, REGISTRY, RUNTIME, stateDir } from '../layout.ts';

const WRAPPER = fileURLToPath(new URL('../../../../scripts/kind/runc-wrapper', import.meta.url));

/** Removes every container and volume, and every network but Docker's own and kind's; says what went. */
async function leftovers(host: KindHost): Promise<string> {
  const containers = (await host.docker(['ps', '-aq'])).split('\n').filter(Boolean);
  if (containers.length > 0) await host.docker(['rm', '-f', '-v', ...containers]);
  const volumes = (await host.docker(['volume', 'ls', '-q'])).split('\n').filter(Boolean);
  if (volumes.length > 0) await host.docker(['volume', 'rm', '-f', ...volumes]);
  const networks = (await host.docker(['network', 'ls', '--format', '{{.Name}}']))
    .split('\n')
    .filter((n) => n && !['bridge', 'host', 'none', KIND_NETWORK].includes(n));
  if (networks.length > 0) await host.docker(['network', 'rm', ...networks]);
  const said = [
    ...(containers.length > 0 ? [`${containers.length} container${containers.length === 1 ? '' : 's'}`] : []),
    ...(volumes.length > 0 ? [`${volumes.length} volume${volumes.length === 1 ? '' : 's'}`] : []),
    ...(networks.length > 0 ? [`network${networks.length === 1 ? '' : 's'} ${networks.join(', ')}`] : []),
  ];
  return said.join(', ');
}

export const docker: Action = {
  name: 'dockerd',
  async up(host) {
    mkdirSync(paths.dockerData(), { recursive: true });
    mkdirSync(paths.bin(), { recursive: true });
    // Debian's CLI first on PATH: the machine may have another docker client (a newer API).
    rmSync(join(paths.bin(), 'docker'), { force: true });
    symlinkSync(kindComponentPath('docker'), join(paths.bin(), 'docker'));
    // The wrapper beside its fail-once file, in the state directory (not the checkout).
    copyFileSync(WRAPPER, paths.runtime());
    rmSync(paths.failOnce(), { force: true });
    rmSync(paths.socket(), { force: true });
    const config = join(stateDir(), 'daemon.json');
    writeFileSync(config, '{}\n');
    await host.start(
      'dockerd',
      kindComponentPath('dockerd'),
      [
        '--config-file',
        config,
        '-H',
        `unix://${paths.socket()}`,
        '--data-root',
        paths.dockerData(),
        '--bip',
        DOCKER0_CIDR,
        '--default-address-pool',
        ADDRESS_POOL,
        '--insecure-registry',
        REGISTRY,
        '--cgroup-parent',
        CGROUP_PARENT,
        '--exec-opt',
        'native.cgroupdriver=cgroupfs',
        '--add-runtime',
        `${RUNTIME}=${paths.runtime()}`,
        '--default-runtime',
        RUNTIME,
        '--log-level',
        'warn',
      ],
      'dockerd',
    );
    await host.waitFor(
      'dockerd answering on its socket',
      async () => (await host.docker(['info', '--format', '{{.ServerVersion}}'], 10_000)).trim() !== '',
      60_000,
      ['dockerd'],
    );
    // The data root keeps images between runs, and with them a killed run's containers (kind's
    // nodes, stopped by the host's end): removed, so every run starts with none.
    const left = await leftovers(host);
    if (left) host.log(`removed what a killed run left in the kind host's Docker: ${left}`);
  },
  async down(host) {
    // What a failed test left (a cluster the product did not delete), before the daemon stops.
    if (host.record.processes.some((p) => p.name === 'dockerd')) {
      const left = await leftovers(host).catch(() => '');
      if (left) host.log(`removed at down: ${left}`);
    }
    // dockerd stops its containers (10 s each at most) and its containerd before it exits.
    await host.stop('dockerd', 60_000);
    rmSync(paths.socket(), { force: true });
  },
};
