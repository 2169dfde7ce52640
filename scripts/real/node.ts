// The real node by hand: brings it up, runs a command inside its network namespace, takes it down.
//   node --import tsx scripts/real/node.ts up        (components from scripts/real/build.sh)
//   node --import tsx scripts/real/node.ts run -- node dist/cli.js run --config real.yaml
//   node --import tsx scripts/real/node.ts mesh-perf -- run --config real.yaml --out DIR
//       (the product inside the node; modes the node cannot run are refused first, exit 2)
//   node --import tsx scripts/real/node.ts check     (the refusals alone: components, leftovers, range)
//   node --import tsx scripts/real/node.ts status | down
// The kubeconfig is printed by up; it reaches the API server only from inside the node
// (`run -- kubectl --kubeconfig … get pods -A`).
import { spawnSync } from 'node:child_process';
import { ACTIONS } from '../../test/support/real/actions/index.ts';
import { preflight, RealNodeRefusal } from '../../test/support/real/actions/preflight.ts';
import { refuseUnsupported, runProduct } from '../../test/support/real/product.ts';
import { exitCodeOf } from '../../src/util/errors.ts';
import { paths } from '../../test/support/real/layout.ts';
import { down, NodeContext, readRecord, up } from '../../test/support/real/node.ts';
import { alive } from '../../test/support/real/processes.ts';

const [command, ...rest] = process.argv.slice(2);
const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  switch (command) {
    case 'up': {
      const node = new NodeContext(log);
      const started = Date.now();
      await up(ACTIONS, node);
      log(
        `real node up in ${((Date.now() - started) / 1000).toFixed(1)} s (${node.timings.map((t) => `${t.action} ${t.seconds.toFixed(1)}`).join(', ')})`,
      );
      log(`kubeconfig: ${paths.kubeconfig()} (from inside the node: scripts/real/node.ts run -- …)`);
      return 0;
    }
    case 'check': {
      await preflight.up(new NodeContext(log));
      log('the real node can start here');
      return 0;
    }
    case 'down': {
      const node = new NodeContext(log);
      await down(ACTIONS, node);
      log('real node down');
      return 0;
    }
    case 'status': {
      const record = readRecord();
      if (!record?.init || !alive(record.init)) {
        log('no real node is up');
        return 1;
      }
      log(
        `real node up since ${record.startedAt}: init pid ${record.init}; ${record.processes.map((p) => `${p.name} ${p.pid}${alive(p.pid) ? '' : ' (exited)'}`).join(', ')}`,
      );
      return 0;
    }
    case 'run': {
      const args = rest[0] === '--' ? rest.slice(1) : rest;
      const node = new NodeContext(log);
      const result = spawnSync('nsenter', ['--target', String(node.init), '--net', '--', ...args], {
        stdio: 'inherit',
        env: { ...process.env, KUBECONFIG: paths.kubeconfig() },
      });
      return result.status ?? 1;
    }
    case 'mesh-perf': {
      const args = rest[0] === '--' ? rest.slice(1) : rest;
      const config = args[args.indexOf('--config') + 1];
      if (args[0] === 'run' && config && args.includes('--config')) {
        try {
          await refuseUnsupported(config);
        } catch (error) {
          process.stderr.write(`${(error as Error).message}\n`);
          return exitCodeOf(error);
        }
      }
      const node = new NodeContext(log);
      const result = await runProduct(node.init, args, log);
      return result.code;
    }
    default:
      process.stderr.write('usage: scripts/real/node.ts up | check | down | status | run -- COMMAND... | mesh-perf -- ARGS...\n');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(error instanceof RealNodeRefusal ? 2 : 3);
  },
);
