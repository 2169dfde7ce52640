// Whether each endpoints mode's address answers a TCP connection: what the endpoints platform
// checks before any load, and what `plan` and `run` check with the config's other problems, so a
// typo fails in seconds, in the same words, whichever command finds it.
import { connect } from 'node:net';
import type { Config, ConfigProblem } from '../config/validate.ts';
import { EnvironmentError } from '../util/errors.ts';

const CONNECT_TIMEOUT_MS = 5000;

/** The address k6 will send a mode's load to (gRPC when a profile speaks it), or undefined (a script's own). */
function addressOf(config: Config, mode: Config['modes'][number]): string | undefined {
  const needsGrpc = config.profiles.some((p) => p.protocol === 'grpc');
  return needsGrpc && mode.grpc ? mode.grpc : mode.url;
}

/** One problem per endpoints mode whose address does not answer, all checked at once; none on other platforms. */
export async function unreachableProblems(config: Config): Promise<ConfigProblem[]> {
  if (config.platform !== 'endpoints') return [];
  const checks = config.modes.map(async (mode): Promise<ConfigProblem[]> => {
    const address = addressOf(config, mode);
    if (!address) return [];
    const why = await unreachable(address);
    if (!why) return [];
    const field = address === mode.grpc ? 'grpc' : 'url';
    return [
      {
        path: `modes (${mode.name}).${field}`,
        message: `${address} is unreachable (${why}); check the address and that the service is up`,
        environment: true,
      },
    ];
  });
  return (await Promise.all(checks)).flat();
}

/** Throws the environment error a run stops with when a mode's address does not answer: the lines `plan` prints. */
export async function checkReachable(config: Config): Promise<void> {
  const problems = await unreachableProblems(config);
  if (problems.length === 0) return;
  const lines = problems.map((p) => `  - ${p.path}: ${p.message}`);
  throw new EnvironmentError(
    `${problems.length === 1 ? 'an endpoint does not answer' : `${problems.length} endpoints do not answer`}:\n${lines.join('\n')}`,
  );
}

function hostPort(address: string): { host: string; port: number } {
  if (/^https?:/.test(address)) {
    const url = new URL(address);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  }
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return { host: match?.[1] ?? address, port: Number(match?.[2] ?? 0) };
}

/** Why `address` does not take a connection, or undefined when it does. */
function unreachable(address: string): Promise<string | undefined> {
  const { host, port } = hostPort(address);
  // A port no connection can use is the config's problem, said by its validation.
  if (!Number.isInteger(port) || port < 1 || port > 65535) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: CONNECT_TIMEOUT_MS });
    const fail = (why: string) => {
      socket.destroy();
      resolve(why);
    };
    socket.once('connect', () => {
      socket.end();
      resolve(undefined);
    });
    socket.once('timeout', () => fail(`no answer within ${CONNECT_TIMEOUT_MS / 1000}s`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
  });
}
