// Fortio's server (built by scripts/install-test-tools.sh from the Go module proxy): a real
// gRPC ping service, the one the Istio-vs-Linkerd seed benchmarks against.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { cachedToolPath } from '../../src/tools/cache.ts';
import { freePortRun } from './ports.ts';

export const FORTIO = cachedToolPath('fortio', '1.66.0');

export async function startFortio(): Promise<{ grpcPort: number; httpPort: number; stop: () => Promise<void> }> {
  // Named to fortio ahead of its bind: below the ephemeral range (./ports.ts).
  const httpPort = await freePortRun(2);
  const grpcPort = httpPort + 1;
  const child = spawn(
    FORTIO,
    ['server', '-http-port', `127.0.0.1:${httpPort}`, '-grpc-port', `127.0.0.1:${grpcPort}`, '-redirect-port', 'disabled'],
    { stdio: 'ignore' },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let i = 0; i < 100; i++) {
    if (await canConnect(grpcPort)) return { grpcPort, httpPort, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error('fortio did not start listening within 10 s');
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
