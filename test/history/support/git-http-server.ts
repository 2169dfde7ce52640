// A real git smart-HTTP server for credential tests: Node's HTTP server in front of git's own
// `git http-backend` (CGI), requiring HTTP Basic auth with one token, as GitHub does for HTTPS
// pushes. Every request is recorded so tests can check what reached the server.
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** Base URL, e.g. http://127.0.0.1:PORT/ — repositories are served below it by folder name. */
  url: string;
  requests: { method: string; path: string; authorized: boolean }[];
  close(): Promise<void>;
}

const BACKEND = process.env.MESH_PERF_GIT_HTTP_BACKEND ?? '/usr/lib/git-core/git-http-backend';

export async function startGitHttpServer(projectRoot: string, token: string): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const expected = Buffer.from(`x-access-token:${token}`).toString('base64');
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The scheme is case-insensitive (RFC 7235); actions/checkout sends "basic".
    const [scheme, credentials] = (req.headers.authorization ?? '').split(' ');
    const authorized = scheme?.toLowerCase() === 'basic' && credentials === expected;
    requests.push({ method: req.method ?? '', path: url.pathname, authorized });
    if (!authorized) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('authentication required\n');
      return;
    }
    cgi(req, res, url, projectRoot);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function cgi(req: IncomingMessage, res: ServerResponse, url: URL, projectRoot: string): void {
  const child = spawn(BACKEND, [], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: 'x-access-token',
      REMOTE_ADDR: '127.0.0.1',
      GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
      ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  req.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headerDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headerDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headerDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
      else if (name) res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
  child.stderr.resume();
}
