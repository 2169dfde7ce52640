// The kind host by hand: Debian's dockerd and a registry in namespaces of their own, the node image
// built and pushed; then kind, the product or any command run against it.
//   node --import tsx scripts/kind/host.ts up          (components from scripts/kind/build.sh)
//   node --import tsx scripts/kind/host.ts mesh-perf -- run --config kind.yaml --out DIR
//       (the product with platform kind; print the settings it needs with `settings`)
//   node --import tsx scripts/kind/host.ts run -- kind get clusters   (any command: DOCKER_HOST set, in its network)
//   node --import tsx scripts/kind/host.ts settings | status | down
import { spawnSync } from 'node:child_process';
import { stringify } from 'yaml';
import { KIND_ACTIONS } from '../../test/support/kind/actions/index.ts';
import { KindHostRefusal } from '../../test/support/kind/actions/preflight.ts';
import { downKindHost, KindHost, upKindHost } from '../../test/support/kind/host.ts';
import { kindProductEnv, kindSettings, runKindProduct } from '../../test/support/kind/product.ts';
import { alive } from '../../test/support/real/processes.ts';

const [command, ...rest] = process.argv.slice(2);
const log = (line: string) => process.stdout.write(`${line}\n`);
const after = (args: string[]) => (args[0] === '--' ? args.slice(1) : args);

async function main(): Promise<number> {
  const host = new KindHost(log);
  switch (command) {
    case 'up': {
      const started = Date.now();
      await upKindHost(KIND_ACTIONS, host);
      log(
        `kind host up in ${((Date.now() - started) / 1000).toFixed(1)} s (${host.timings.map((t) => `${t.action} ${t.seconds.toFixed(1)}`).join(', ')})`,
      );
      return 0;
    }
    case 'down':
      await downKindHost(KIND_ACTIONS, host);
      log('kind host down');
      return 0;
    case 'status': {
      const record = host.record;
      if (!record.init || !alive(record.init)) {
        log('no kind host is up');
        return 1;
      }
      log(
        `kind host up since ${record.startedAt}: init pid ${record.init}; ${record.processes.map((p) => `${p.name} ${p.pid}${alive(p.pid) ? '' : ' (exited)'}`).join(', ')}`,
      );
      return 0;
    }
    case 'settings':
      process.stdout.write(stringify(kindSettings()));
      return 0;
    case 'run': {
      const result = spawnSync('nsenter', ['--target', String(host.init), '--net', '--', ...after(rest)], {
        stdio: 'inherit',
        env: kindProductEnv(host),
      });
      return result.status ?? 1;
    }
    case 'mesh-perf':
      return (await runKindProduct(host, after(rest), log)).code;
    default:
      process.stderr.write('usage: scripts/kind/host.ts up | down | status | settings | run -- COMMAND... | mesh-perf -- ARGS...\n');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(error instanceof KindHostRefusal ? 2 : 3);
  },
);
