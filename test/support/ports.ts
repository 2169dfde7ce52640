// Ports for listeners a test must name ahead of time, such as the k6 REST APIs of a group under
// kwok (base, base + 1, ...). A port from listen(0) comes from the ephemeral range, and so does
// the source port of every outgoing connection on the machine: the port next to it can be taken
// by any client between the check and k6's bind (k6 then exits 106, "cannot start the REST API").
// Below that range (Linux: 32768-60999) only explicit binds take ports, so a run checked free
// here stays free unless another test names the same one.
import { createServer } from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free ports below the ephemeral range. */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const start = LOW + Math.floor(Math.random() * (HIGH - LOW - count));
    let free = true;
    for (let port = start; port < start + count && free; port++) free = await bindable(port);
    if (free) return start;
  }
  throw new Error(`no ${count} consecutive free ports between ${LOW} and ${HIGH} after 200 tries`);
}
