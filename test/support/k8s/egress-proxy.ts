// The API server refuses to proxy to nodes whose address is not global unicast, so fake nodes
// cannot advertise 127.0.0.1. They advertise addresses from TEST-NET-3 (203.0.113.0/24, never
// routed) instead, and the API server's egress selector sends every connection to the cluster
// through this HTTP CONNECT proxy on a unix socket, which delivers 203.0.113.x:port to
// 127.0.0.1:port (where that node's kwok listens). Nothing leaves the machine.
//
// An emulated pod's address leads nowhere, unless a test routes it: route(podIp, port, local)
// sends the API server's pod proxy (/api/v1/namespaces/NS/pods/NAME:PORT/proxy/…) for that pod
// and port to a server of the test on 127.0.0.1:local, which then answers as the pod's process
// would (a proxy's metrics endpoint).
import { connect, createServer, type Server, type Socket } from 'node:net';

export const FAKE_NODE_NET = '203.0.113.';

export function fakeNodeIp(index: number): string {
  return `${FAKE_NODE_NET}${10 + index}`;
}

export interface EgressProxy {
  socketPath: string;
  /** Delivers connections to podIp:port to 127.0.0.1:localPort. */
  route(podIp: string, port: number, localPort: number): void;
  close(): Promise<void>;
}

export async function startEgressProxy(socketPath: string): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  const routes = new Map<string, number>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const match = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.[01]\r\n/.exec(head.toString('latin1'));
      const routed = match ? routes.get(`${match[1]}:${match[2]}`) : undefined;
      if (!match || (!match[1]!.startsWith(FAKE_NODE_NET) && routed === undefined)) {
        // Pod and service IPs of emulated pods lead nowhere: fail fast instead of timing out.
        client.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
        return;
      }
      const upstream = connect(routed ?? Number(match[2]), '127.0.0.1');
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length > 0) upstream.write(rest);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      upstream.on('error', () => {
        if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        upstream.destroy();
      });
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    route: (podIp, port, localPort) => routes.set(`${podIp}:${port}`, localPort),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function egressSelectorConfig(socketPath: string): string {
  return `apiVersion: apiserver.k8s.io/v1beta1
kind: EgressSelectorConfiguration
egressSelections:
- name: cluster
  connection:
    proxyProtocol: HTTPConnect
    transport:
      uds:
        udsName: ${socketPath}
`;
}
