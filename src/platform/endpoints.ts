// Platform "endpoints": URLs (or gRPC addresses) the user already has, one per mode, e.g. a
// service reached through the ingress gateway with and without a sidecar. Checks each is
// reachable before any load starts, so a typo fails in seconds, not after the warm-up.
import { connect } from 'node:net';
import type { ModeConfig } from '../config/schema.ts';
import { LocalK6Runner } from '../load/local-runner.ts';
import type { LoadRunner } from '../load/types.ts';
import { ensureK6 } from '../tools/k6.ts';
import { checkRateCeiling } from '../load/ceiling.ts';
import { cpus } from 'node:os';
import { EnvironmentError } from '../util/errors.ts';
import type { ModeTarget } from '../load/types.ts';
import type { Platform, PlatformContext } from './types.ts';

const CONNECT_TIMEOUT_MS = 5000;

export class EndpointsPlatform implements Platform {
  readonly name = 'endpoints';
  private runner?: LoadRunner;

  constructor(private readonly context: PlatformContext) {}

  async prepare(): Promise<void> {
    checkRateCeiling(this.context.config.profiles, cpus().length, false);
    const k6 = await ensureK6(this.context.log);
    this.runner = new LocalK6Runner(k6.path, { sharesMachineWithServer: false, source: k6.source });
    const needsGrpc = this.context.config.profiles.some((p) => p.protocol === 'grpc');
    for (const mode of this.context.config.modes) {
      const address = needsGrpc && mode.grpc ? mode.grpc : mode.url;
      if (!address) continue; // a user script may reach its target through env alone
      await checkReachable(mode.name, address);
    }
  }

  target(mode: ModeConfig): ModeTarget {
    return { mode: mode.name, url: mode.url, grpc: mode.grpc, env: mode.env ?? {}, description: mode.url ?? mode.grpc ?? 'script' };
  }

  loadRunner(): LoadRunner {
    if (!this.runner) throw new Error('endpoints platform: prepare() must run before loadRunner()');
    return this.runner;
  }

  resourceSampler(): undefined {
    return undefined;
  }

  async environment(): Promise<Record<string, unknown>> {
    return {};
  }

  async teardown(): Promise<void> {}
}

function hostPort(address: string): { host: string; port: number } {
  if (/^https?:/.test(address)) {
    const url = new URL(address);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  }
  const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  return { host: match?.[1] ?? address, port: Number(match?.[2] ?? 0) };
}

function checkReachable(mode: string, address: string): Promise<void> {
  const { host, port } = hostPort(address);
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: CONNECT_TIMEOUT_MS });
    const fail = (why: string) => {
      socket.destroy();
      reject(new EnvironmentError(`mode "${mode}": ${address} is unreachable (${why}); check the URL and that the service is up`));
    };
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => fail(`no answer within ${CONNECT_TIMEOUT_MS / 1000}s`));
    socket.once('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
  });
}
