// The kind host: Docker from Debian inside network, mount, PID and UTS namespaces this harness
// creates (../namespaced-host.ts; the same machinery as the real node), with a registry beside it
// and the node image kind needs. kind, the product and act run with their network namespace and
// DOCKER_HOST pointing at its socket: every container, bridge, rule and the API server's port
// mapping are inside, and when the host's init (pause) exits the kernel ends everything in it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Action as HostAction, downActions, type HostLayout, NamespacedHost, upActions } from '../namespaced-host.ts';
import { paths } from './layout.ts';

export type Action = HostAction<KindHost>;

const run = promisify(execFile);

const layout: HostLayout = { state: paths.state, logs: paths.logs, what: 'the kind host' };

export class KindHost extends NamespacedHost {
  constructor(log: (line: string) => void = () => {}) {
    super(layout, log);
  }

  /** The environment kind, docker and the product need from outside: the socket, Debian's CLI first. */
  dockerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return { ...env, DOCKER_HOST: `unix://${paths.socket()}`, PATH: `${paths.bin()}:${env.PATH ?? '/usr/bin:/bin'}` };
  }

  /** `docker …` against the host's daemon (the CLI needs only its socket); fails with its output. */
  async docker(args: string[], timeoutMs = 300_000): Promise<string> {
    try {
      const { stdout } = await run('docker', args, { env: this.dockerEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    } catch (error) {
      const e = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
      throw new Error(`docker ${args.join(' ').slice(0, 200)}: exit ${e.code}: ${(e.stderr || e.stdout || e.message).trim().slice(-2000)}`);
    }
  }
}

export const upKindHost = (actions: readonly Action[], host: KindHost): Promise<void> => upActions(actions, host);
export const downKindHost = (actions: readonly Action[], host: KindHost): Promise<void> => downActions(actions, host);
