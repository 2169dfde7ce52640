// A TCP server on 127.0.0.1 that takes connections and closes them: an endpoint `plan` and `run`
// find reachable, for tests whose configs name one (they check before any load).
import { createServer } from 'node:net';

export interface Listening {
  port: number;
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one). */
export async function listening(port = 0): Promise<Listening> {
  const server = createServer((socket) => socket.end());
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', done);
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** A TCP port nothing listens on: one bound and released again (an endpoint or store that is down). */
export async function closedPort(): Promise<number> {
  const server = await listening();
  await server.close();
  return server.port;
}
