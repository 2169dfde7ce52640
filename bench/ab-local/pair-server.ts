// Two of the project's echo servers (src/echo/server.ts, as the local platform runs them) in one
// process, one per delay: `node --import tsx pair-server.ts <delay-ms> <delay-ms>` prints
// {"ports":[a,b]} once both listen and exits when its parent closes stdin. The A/B bench serves
// base and head from one process so that the two arms share one event loop, CPU placement and
// scheduling: from two processes the same head delay measured +4.7 % to +5.6 % from one head
// process to the next (48-pair rounds), which is the wander of two processes, not of the delay.
import type { AddressInfo } from 'node:net';
import { createEchoServer } from '../../src/echo/server.ts';

const delays = process.argv.slice(2).map(Number);
if (delays.length === 0 || delays.some((d) => !Number.isFinite(d) || d < 0)) {
  process.stderr.write('usage: pair-server.ts DELAY_MS [DELAY_MS...]\n');
  process.exit(2);
}
const servers = delays.map((delayMs) => createEchoServer({ delayMs }));
await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
process.stdout.write(`${JSON.stringify({ ports: servers.map((s) => (s.address() as AddressInfo).port) })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
