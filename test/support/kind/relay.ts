// A loopback port of the test process made reachable inside the kind host's network namespace:
// the recording GitHub API stand-in runs in the test process (on the machine's 127.0.0.1), and act,
// the action and the product run inside the host, whose 127.0.0.1 is its own. A process inside
// listens on the same port of its loopback and relays each connection through a unix socket in
// the state directory (the file system is shared) to the test process, which relays it on to the
// port. Nothing is routed between the two network namespaces.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KindHost } from './host.ts';
import { stateDir } from './layout.ts';

const INSIDE = `const net = require('node:net');
const [socket, port] = process.argv.slice(1);
net.createServer((c) => {
  const u = net.connect(socket);
  c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy());
}).listen(Number(port), '127.0.0.1');`;

const pipeBoth = (a: Socket, b: Socket) => {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
};

export interface Relay {
  close(): Promise<void>;
}

/** Makes 127.0.0.1:<port> of this process answer at 127.0.0.1:<port> inside the host. */
export async function relayIntoHost(host: KindHost, port: number): Promise<Relay> {
  const socket = join(stateDir(), `relay-${port}.sock`);
  rmSync(socket, { force: true });
  const server: Server = createServer((inbound) => pipeBoth(inbound, createConnection(port, '127.0.0.1')));
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  const name = `relay-${port}`;
  await host.start(name, process.execPath, ['-e', INSIDE, socket, String(port)], process.execPath);
  await host.waitFor(
    `the relay of port ${port} listening inside the kind host`,
    async () => (await host.exec('sh', ['-c', `ss -Hltn 'sport = :${port}' | grep -q .`], { namespaces: ['net'] })).code === 0,
    15_000,
    [name],
  );
  return {
    async close() {
      await host.stop(name, 5_000);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(socket, { force: true });
    },
  };
}
