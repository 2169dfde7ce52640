// The project's own echo server, used by the local platform, the demo, tests and benchmarks.
// GET returns the request headers as JSON; POST echoes the body. An optional per-request delay
// (with uniform jitter) makes a known, measurable "overhead" for calibration and tests.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { waitPrecisely } from './precise-wait.ts';

export interface EchoOptions {
  delayMs?: number;
  jitterMs?: number;
  /** Freeze all handling for stallMs every stallEveryMs: a coordinated-omission probe. */
  stallMs?: number;
  stallEveryMs?: number;
}

export function createEchoServer(options: EchoOptions = {}): Server {
  const stall = stallSchedule(options);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delay = (options.delayMs ?? 0) + (options.jitterMs ?? 0) * Math.random() + stall();
      if (delay > 0) void waitPrecisely(delay).then(() => respond(request, response, chunks));
      else respond(request, response, chunks);
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

function respond(request: IncomingMessage, response: ServerResponse, chunks: Buffer[]): void {
  if (request.method === 'POST' || request.method === 'PUT') {
    const body = Buffer.concat(chunks);
    response.writeHead(200, {
      'content-type': request.headers['content-type'] ?? 'application/octet-stream',
      'content-length': body.length,
    });
    response.end(body);
    return;
  }
  const body = JSON.stringify({ method: request.method, url: request.url, headers: request.headers });
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Returns the extra wait a request arriving now must take to honour the stall schedule. */
function stallSchedule(options: EchoOptions): () => number {
  const { stallMs, stallEveryMs } = options;
  if (!stallMs || !stallEveryMs) return () => 0;
  const start = performance.now();
  return () => {
    const phase = (performance.now() - start) % stallEveryMs;
    // A stalled server answers everything that arrived during the stall when the stall ends.
    return phase < stallMs ? stallMs - phase : 0;
  };
}
