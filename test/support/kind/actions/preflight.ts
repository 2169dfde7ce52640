// Refusals before anything is created: a missing component (which, and the command that builds
// it; Docker named with how to install it), a kind host from an earlier run still up (refused by
// name; `down` removes it), and the benchmarking range in use on the machine (the kind network's
// subnet would not be contained). Only once none applies: a stale record or empty cgroups of a
// killed run whose host is gone are cleaned, and said.
import { rmSync } from 'node:fs';
import { hostRangeUsers } from '../../real/actions/preflight.ts';
import { leftoverCgroups, removeCgroups } from '../../real/actions/cgroups.ts';
import { BENCHMARK_RANGE } from '../../real/layout.ts';
import { alive, commandLine } from '../../real/processes.ts';
import { missingKindComponents } from '../components.ts';
import type { Action } from '../host.ts';
import { CGROUP_PARENT, KIND_SUBNET, paths } from '../layout.ts';
import { initsMarked } from '../../real/actions/namespaces.ts';
import { kindInitMarker } from './namespaces.ts';

export class KindHostRefusal extends Error {}

export const preflight: Action = {
  name: 'preflight',
  async up(host) {
    const missing = missingKindComponents();
    if (missing.length > 0) {
      const docker = missing.some((c) => c.name === 'dockerd' || c.name === 'docker')
        ? "\nDocker is Debian's docker.io (installed by `bash scripts/kind/build.sh apt`; the tier runs its own daemon, contained)."
        : '';
      throw new KindHostRefusal(
        `the kind tier cannot start, components are missing:\n${missing.map((c) => `  ${c.name} ${c.version} (${c.path}): run \`${c.how}\``).join('\n')}${docker}`,
      );
    }
    const record = host.record;
    const recorded = record.init && alive(record.init) && commandLine(record.init) === kindInitMarker() ? record.init : undefined;
    const running = recorded ?? initsMarked(kindInitMarker())[0];
    if (running)
      throw new KindHostRefusal(
        `a kind host from an earlier run is still up (init pid ${running}${recorded ? `, started ${record.startedAt}, record ${paths.state()}` : ', its record lost'}): ` +
          'remove it with `node --import tsx scripts/kind/host.ts down` (or let that run finish)',
      );
    const users = hostRangeUsers();
    if (users.length > 0)
      throw new KindHostRefusal(
        `the kind network's subnet ${KIND_SUBNET} (and the rest of ${BENCHMARK_RANGE}) is already in use on this machine (${users.join('; ')}): ` +
          'the cluster would not be contained. Remove it (e.g. `ip link del <interface>` for a bridge left by an earlier setup) and try again',
      );
    if (record.init || record.processes.length > 0) {
      host.log(`a killed run left a record (${paths.state()}) whose host is gone: removed`);
      rmSync(paths.state(), { force: true });
      record.init = undefined;
      record.processes = [];
      record.done = [];
    }
    const cgroups = leftoverCgroups(CGROUP_PARENT);
    if (cgroups.length > 0) {
      host.log(`a killed run left empty cgroups (${cgroups.join(', ')}): removed`);
      await removeCgroups(20_000, CGROUP_PARENT);
    }
  },
};
