// Connects to a cluster the way kubectl would: an explicit kubeconfig file, else KUBECONFIG (a
// colon-separated list), else ~/.kube/config; an optional context. Error messages name the file,
// context and server URL, never credentials. Raw requests carry a hard timeout so an unreachable
// server fails within seconds instead of hanging on a TCP connect.
import { existsSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfig } from '@kubernetes/client-node';
import { registerSecret, urlSecrets } from '../../util/redact.ts';
import { didYouMean } from '../../util/did-you-mean.ts';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import { backoffMs } from './retry.ts';

export interface ClusterAccess {
  kc: KubeConfig;
  /** API server URL (no credentials). */
  server: string;
  contextName: string;
  /** The kubeconfig file the mesh CLIs get with --kubeconfig, when one was named explicitly. */
  kubeconfigPath?: string;
}

export interface AccessOptions {
  kubeconfig?: string;
  context?: string;
}

export function loadAccess(options: AccessOptions, env: NodeJS.ProcessEnv = process.env): ClusterAccess {
  const kc = new KubeConfig();
  if (options.kubeconfig) {
    if (!existsSync(options.kubeconfig)) {
      throw new UsageError(
        `kubernetes.kubeconfig: ${options.kubeconfig} does not exist; pass the path of a kubeconfig file (--kubeconfig) or unset it to use KUBECONFIG / ~/.kube/config`,
      );
    }
    loadFile(kc, options.kubeconfig);
  } else {
    const fromEnv = (env.KUBECONFIG ?? '').split(':').filter((p) => p && existsSync(p));
    const fallback = join(env.HOME ?? homedir(), '.kube', 'config');
    if (fromEnv.length === 0 && !existsSync(fallback)) {
      const named = env.KUBECONFIG ? `KUBECONFIG=${env.KUBECONFIG} names no existing file and ` : '';
      throw new UsageError(
        `no kubeconfig found: ${named}${fallback} does not exist. Pass --kubeconfig FILE (or kubernetes.kubeconfig in the config), or set KUBECONFIG.`,
      );
    }
    try {
      kc.loadFromDefault({}, false);
    } catch (error) {
      throw new UsageError(
        `cannot read the kubeconfig (${env.KUBECONFIG ? `KUBECONFIG=${env.KUBECONFIG}` : fallback}): ${firstLine(error)}`,
      );
    }
  }
  if (options.context) {
    const names = kc.getContexts().map((c) => c.name);
    if (!names.includes(options.context)) {
      const guess = didYouMean(options.context, names);
      throw new UsageError(
        `kubernetes.context: context "${options.context}" is not in the kubeconfig${guess ? `; did you mean "${guess}"?` : ''} (available: ${names.join(', ') || 'none'})`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  registerKubeconfigSecrets(kc);
  const cluster = kc.getCurrentCluster();
  if (!cluster) {
    throw new UsageError(
      `the kubeconfig has no current context with a cluster (contexts: ${
        kc
          .getContexts()
          .map((c) => c.name)
          .join(', ') || 'none'
      }); pass --context NAME`,
    );
  }
  return { kc, server: cluster.server, contextName: kc.getCurrentContext(), kubeconfigPath: options.kubeconfig };
}

/** The kubeconfig's credentials are redacted from every output of the run (util/redact.ts). */
function registerKubeconfigSecrets(kc: KubeConfig): void {
  for (const user of kc.getUsers()) {
    for (const value of [user.token, user.password, user.keyData]) registerSecret(value);
    for (const value of Object.values(user.authProvider?.config ?? {})) if (typeof value === 'string') registerSecret(value);
    for (const entry of (user.exec?.env ?? []) as { value?: string }[]) registerSecret(entry.value);
  }
  for (const cluster of kc.getClusters()) for (const secret of urlSecrets(cluster.server)) registerSecret(secret);
}

function loadFile(kc: KubeConfig, path: string): void {
  try {
    kc.loadFromFile(path);
  } catch (error) {
    // The parser's message may quote file content; keep only its first line.
    throw new UsageError(`kubernetes.kubeconfig: ${path} is not a valid kubeconfig: ${firstLine(error)}`);
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
}

export interface RawResponse {
  status: number;
  body: string;
  headers: IncomingMessage['headers'];
}

const RETRIED_STATUS = new Set([429, 500, 502, 503, 504]);
const RAW_ATTEMPTS = 5;

/**
 * One API request with a hard deadline (connect included); throws EnvironmentError naming the
 * server. Throttling (429) and server errors (5xx) are retried a bounded number of times with
 * retry.ts's backoff (Retry-After honoured); the last answer is returned as is. `attempts: 1` is
 * for callers to whom a late answer is worth less than none (a periodic scrape that copes with a
 * gap); `baseDelayMs` lets a test retry without waiting seconds.
 */
export async function rawRequest(
  access: ClusterAccess,
  path: string,
  options: { method?: string; timeoutMs?: number; body?: string; contentType?: string; attempts?: number; baseDelayMs?: number } = {},
): Promise<RawResponse> {
  const attempts = options.attempts ?? RAW_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    const response = await rawRequestOnce(access, path, options);
    if (!RETRIED_STATUS.has(response.status) || attempt >= attempts) return response;
    await sleep(backoffMs(attempt, { headers: response.headers }, { baseDelayMs: options.baseDelayMs }));
  }
}

async function rawRequestOnce(
  access: ClusterAccess,
  path: string,
  options: { method?: string; timeoutMs?: number; body?: string; contentType?: string },
): Promise<RawResponse> {
  const url = new URL(path, access.server.endsWith('/') ? access.server : `${access.server}/`);
  // Keep a path prefix the server URL may carry (e.g. Rancher's /k8s/clusters/x).
  url.pathname = new URL(access.server).pathname.replace(/\/$/, '') + path.split('?')[0];
  const opts: RequestOptions = { method: options.method ?? 'GET', headers: { accept: 'application/json, */*' } };
  await access.kc.applyToHTTPSOptions(opts);
  if (options.contentType) (opts.headers as Record<string, string>)['content-type'] = options.contentType;
  // Node frames a GET or DELETE body only with a length (its chunked encoding is for other methods):
  // a DELETE's DeleteOptions went out unframed and the server answered 400.
  if (options.body !== undefined) (opts.headers as Record<string, string>)['content-length'] = String(Buffer.byteLength(options.body));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise<RawResponse>((resolve, reject) => {
    const req = send(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers });
      });
      res.on('error', fail);
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000}s`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    function fail(error: Error) {
      clearTimeout(timer);
      reject(unreachable(access, error));
    }
    req.on('error', fail);
    req.end(options.body);
  });
}

export function unreachable(access: ClusterAccess, error: unknown): EnvironmentError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code && !firstLine(error).includes(code) ? `${code}: ${firstLine(error)}` : firstLine(error);
  return new EnvironmentError(
    `cannot reach the Kubernetes API server ${access.server} (context "${access.contextName}"): ${reason}. Check that the cluster is running and that the kubeconfig and context point at it.`,
  );
}

export interface ServerVersion {
  gitVersion: string;
  minor: number;
}

/** Fails within timeoutMs when the server is unreachable or rejects our credentials. */
export async function probeServer(access: ClusterAccess, timeoutMs = 5000): Promise<ServerVersion> {
  const response = await rawRequest(access, '/version', { timeoutMs });
  if (response.status === 401) {
    throw new EnvironmentError(
      `the Kubernetes API server ${access.server} (context "${access.contextName}") rejected the kubeconfig's credentials (HTTP 401); refresh them and retry`,
    );
  }
  if (response.status !== 200) {
    throw new EnvironmentError(`the Kubernetes API server ${access.server} answered /version with HTTP ${response.status}; expected 200`);
  }
  const body = JSON.parse(response.body) as { gitVersion?: string; minor?: string };
  return { gitVersion: body.gitVersion ?? 'unknown', minor: Number.parseInt(body.minor ?? '0', 10) };
}
