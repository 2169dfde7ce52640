// A local HTTP stand-in for the few GitHub REST/GraphQL endpoints the action uses, recording
// every request. It is the only fake in the project: GitHub's API cannot run here. It keeps
// state (comments, pull requests) so tests can run the action several times against it, and it
// enforces what the real API enforces and the action must cope with: token identity, read-only
// tokens (403 "Resource not accessible by integration"), the 65,536-character body limit (422),
// pagination via Link headers.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenIdentity {
  /** REST login, e.g. "github-actions[bot]" or "octocat". */
  login: string;
  type: 'Bot' | 'User';
  /** false: every write answers 403, as a fork PR's GITHUB_TOKEN does. */
  write: boolean;
  /** false: the job granted no `contents` permission (e.g. only actions: read, pull-requests: write). */
  contents?: boolean;
  /** false: the job granted no `pull-requests` permission. */
  pullRequests?: boolean;
}

export interface FakePull {
  number: number;
  state: 'open' | 'closed';
  head: { sha: string; ref: string; repo: { full_name: string } };
  base: { sha: string; ref: string; repo: { full_name: string } };
}

export interface FakeComment {
  id: number;
  node_id: string;
  body: string;
  user: { login: string; type: 'Bot' | 'User' };
  html_url: string;
  created_at: string;
  updated_at: string;
  issue: number;
  repo: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The token the request carried, or undefined. */
  token: string | undefined;
  body: unknown;
  status: number;
}

export interface GitHubApiOptions {
  tokens: Record<string, TokenIdentity>;
  pulls?: Record<string, FakePull[]>;
  /** Repositories GET /repos/{owner}/{repo} knows, with their default branch. */
  repositories?: Record<string, { defaultBranch: string; private?: boolean }>;
  /** Page size the server uses when per_page is absent. */
  defaultPageSize?: number;
  /** Largest page the server returns whatever per_page asks (GitHub: 100); small values exercise pagination. */
  maxPageSize?: number;
}

export interface GitHubApi {
  url: string;
  requests: RecordedRequest[];
  comments: FakeComment[];
  /** Adds a comment directly (another user's, or an old one of ours). */
  seedComment(repo: string, issue: number, body: string, user: TokenIdentity): FakeComment;
  writes(): RecordedRequest[];
  close(): Promise<void>;
}

const BODY_LIMIT = 65_536;

export async function startGitHubApi(options: GitHubApiOptions): Promise<GitHubApi> {
  const requests: RecordedRequest[] = [];
  const comments: FakeComment[] = [];
  let nextId = 1000 + Math.floor(Math.random() * 1000);
  let baseUrl = '';

  function addComment(repo: string, issue: number, body: string, user: TokenIdentity): FakeComment {
    const id = nextId++;
    const now = new Date().toISOString();
    const comment: FakeComment = {
      id,
      node_id: `IC_${id}`,
      body,
      user: { login: user.login, type: user.type },
      html_url: `https://github.test/${repo}/pull/${issue}#issuecomment-${id}`,
      created_at: now,
      updated_at: now,
      issue,
      repo,
    };
    comments.push(comment);
    return comment;
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        token: tokenOf(req),
        body,
        status: 0,
      };
      requests.push(record);
      const reply = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        record.status = status;
        send(res, status, payload, headers);
      };
      handle(record, reply);
    });
  });

  function handle(r: RecordedRequest, reply: (status: number, payload: unknown, headers?: Record<string, string>) => void): void {
    const identity = r.token ? options.tokens[r.token] : undefined;
    if (!identity) return reply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    const isWrite = r.method !== 'GET' && !(r.method === 'POST' && r.path === '/graphql');
    if (isWrite && !identity.write) {
      return reply(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });
    }

    if (r.method === 'POST' && r.path === '/graphql') {
      const query = String((r.body as { query?: string } | undefined)?.query ?? '');
      if (/viewer\s*\{\s*login/.test(query)) return reply(200, { data: { viewer: { login: identity.login.replace(/\[bot\]$/, '') } } });
      return reply(200, { errors: [{ message: 'stand-in only answers viewer { login }' }] });
    }
    if (r.method === 'GET' && r.path === '/user') {
      if (identity.type === 'Bot') return reply(403, { message: 'Resource not accessible by integration' });
      return reply(200, { login: identity.login, type: identity.type });
    }

    let m = r.path.match(/^\/repos\/([^/]+\/[^/]+)\/issues\/(\d+)\/comments$/);
    if (m) {
      const repo = m[1]!;
      const issue = Number(m[2]);
      if (r.method === 'GET') {
        const all = comments.filter((c) => c.repo === repo && c.issue === issue).map(publicComment);
        return paginate(r, all, reply);
      }
      if (r.method === 'POST') {
        const text = (r.body as { body?: unknown } | undefined)?.body;
        if (typeof text !== 'string') return reply(422, { message: 'Invalid request: body is required' });
        if (text.length > BODY_LIMIT)
          return reply(422, { message: 'Validation Failed', errors: [{ message: 'Body is too long (maximum is 65536 characters)' }] });
        return reply(201, publicComment(addComment(repo, issue, text, identity)));
      }
    }
    m = r.path.match(/^\/repos\/([^/]+\/[^/]+)\/issues\/comments\/(\d+)$/);
    if (m && r.method === 'PATCH') {
      const comment = comments.find((c) => c.repo === m![1] && c.id === Number(m![2]));
      if (!comment) return reply(404, { message: 'Not Found' });
      if (comment.user.login !== identity.login) return reply(403, { message: 'Resource not accessible by integration' });
      const text = (r.body as { body?: unknown } | undefined)?.body;
      if (typeof text !== 'string') return reply(422, { message: 'Invalid request: body is required' });
      if (text.length > BODY_LIMIT)
        return reply(422, { message: 'Validation Failed', errors: [{ message: 'Body is too long (maximum is 65536 characters)' }] });
      comment.body = text;
      comment.updated_at = new Date().toISOString();
      return reply(200, publicComment(comment));
    }
    m = r.path.match(/^\/repos\/([^/]+\/[^/]+)\/commits\/([0-9a-f]{7,40})\/pulls$/);
    if (m && r.method === 'GET') {
      // Like GitHub, a private repository's commits are contents: without it, 403.
      if (options.repositories?.[m[1]!]?.private && identity.contents === false)
        return reply(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });
      // Like GitHub, commits of a fork are not associated with the base repository's PRs here.
      const pulls = (options.pulls?.[m[1]!] ?? []).filter((p) => p.head.sha === m![2] && p.head.repo.full_name === m![1]);
      return paginate(r, pulls, reply);
    }
    m = r.path.match(/^\/repos\/([^/]+\/[^/]+)\/pulls$/);
    if (m && r.method === 'GET') {
      if (options.repositories?.[m[1]!]?.private && identity.pullRequests === false)
        return reply(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });
      const state = r.query.state ?? 'open';
      const pulls = (options.pulls?.[m[1]!] ?? []).filter((p) => state === 'all' || p.state === state);
      return paginate(r, pulls, reply);
    }
    m = r.path.match(/^\/repos\/([^/]+\/[^/]+)$/);
    if (m && r.method === 'GET') {
      const repo = options.repositories?.[m[1]!];
      return repo ? reply(200, { full_name: m[1], default_branch: repo.defaultBranch }) : reply(404, { message: 'Not Found' });
    }
    m = r.path.match(/^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/);
    if (m && r.method === 'GET') {
      const pull = (options.pulls?.[m[1]!] ?? []).find((p) => p.number === Number(m![2]));
      return pull ? reply(200, pull) : reply(404, { message: 'Not Found' });
    }
    return reply(404, { message: `stand-in has no route for ${r.method} ${r.path}` });
  }

  function paginate(
    r: RecordedRequest,
    items: unknown[],
    reply: (status: number, payload: unknown, headers?: Record<string, string>) => void,
  ): void {
    const perPage = Math.min(Number(r.query.per_page ?? options.defaultPageSize ?? 30), options.maxPageSize ?? 100);
    const page = Number(r.query.page ?? 1);
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    if (page * perPage < items.length) {
      const next = new URL(r.path, baseUrl);
      for (const [k, v] of Object.entries(r.query)) next.searchParams.set(k, v);
      next.searchParams.set('page', String(page + 1));
      next.searchParams.set('per_page', String(perPage));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    reply(200, slice, headers);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    requests,
    comments,
    seedComment: addComment,
    writes: () => requests.filter((r) => r.method !== 'GET' && r.path !== '/graphql'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function publicComment(c: FakeComment): Omit<FakeComment, 'issue' | 'repo'> {
  const { issue: _issue, repo: _repo, ...rest } = c;
  return rest;
}

function tokenOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = header.match(/^(?:token|bearer)\s+(.+)$/i);
  return match ? match[1] : undefined;
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
