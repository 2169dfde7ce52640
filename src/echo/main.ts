// Process entry for the local platform's servers: `node echo.js echo|proxy --port N ...`.
// Prints {"port":N} once listening; exits when its parent closes stdin, so a killed parent
// never leaves servers behind.
import type { Server } from 'node:http';
import { createEchoServer } from './server.ts';
import { createProxy } from './proxy.ts';

function flag(name: string): number | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
}

const role = process.argv[2];
let server: Server;
if (role === 'echo') {
  server = createEchoServer({
    delayMs: flag('delay-ms'),
    jitterMs: flag('jitter-ms'),
    stallMs: flag('stall-ms'),
    stallEveryMs: flag('stall-every-ms'),
  });
} else if (role === 'proxy') {
  server = createProxy(flag('upstream-port')!);
} else {
  process.stderr.write(`usage: echo.js echo|proxy --port N [--delay-ms D] [--upstream-port P]\n`);
  process.exit(2);
}
server.on('error', (error: NodeJS.ErrnoException) => {
  process.stderr.write(`${error.code === 'EADDRINUSE' ? `port ${flag('port')} is already in use` : error.message}\n`);
  process.exit(3);
});
server.listen(flag('port') ?? 0, process.argv.includes('--ipv6') ? '::1' : '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
