// A forwarding proxy hop: what a sidecar adds, minus the mesh. Keeps upstream connections
// alive so the hop costs one extra parse/forward, not a TCP handshake per request.
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';

export function createProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Server {
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(
      { host: upstreamHost, port: upstreamPort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`upstream error: ${error.message}`);
    });
    incoming.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
