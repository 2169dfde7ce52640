// The registry (distribution v3) inside the kind host, on every address of its network namespace
// (the nodes reach it at the kind network's gateway): the product pins the node image by digest,
// which a locally built image only has once pushed, and the meshes' and the workload's images are
// pulled from it by the nodes' containerd, as on a runner through kubernetes.images.registry. Its
// storage is kept between runs beside Docker's data. A port already taken inside the host is
// refused naming what holds it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kindComponentPath } from '../components.ts';
import type { Action } from '../host.ts';
import { paths, REGISTRY, REGISTRY_PORT, stateDir } from '../layout.ts';
import { KindHostRefusal } from './preflight.ts';

export const registry: Action = {
  name: 'registry',
  async up(host) {
    const holders = (await host.sh(`ss -Hltnp 'sport = :${REGISTRY_PORT}' || true`)).trim();
    if (holders)
      throw new KindHostRefusal(
        `the registry's port ${REGISTRY_PORT} is already in use inside the kind host (${holders.split('\n')[0]}): stop what holds it`,
      );
    mkdirSync(paths.registryData(), { recursive: true });
    const config = join(stateDir(), 'registry.yaml');
    writeFileSync(
      config,
      stringify({
        version: 0.1,
        log: { level: 'warn', accesslog: { disabled: true } },
        storage: { filesystem: { rootdirectory: paths.registryData() }, delete: { enabled: true } },
        http: { addr: `0.0.0.0:${REGISTRY_PORT}` },
      }),
    );
    await host.start('registry', kindComponentPath('registry'), ['serve', config], 'registry');
    await host.waitFor(
      `the registry answering at http://${REGISTRY}/v2/`,
      async () =>
        (await host.exec('curl', ['-fsS', '-o', '/dev/null', `http://${REGISTRY}/v2/`], { namespaces: ['net'], timeoutMs: 5_000 })).code ===
        0,
      30_000,
      ['registry'],
    );
  },
  async down(host) {
    await host.stop('registry');
  },
};
