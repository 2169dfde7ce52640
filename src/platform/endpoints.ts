// Platform "endpoints": URLs (or gRPC addresses) the user already has, one per mode, e.g. a
// service reached through the ingress gateway with and without a sidecar. Checks each is
// reachable before any load starts, so a typo fails in seconds, not after the warm-up.
import type { ModeConfig } from '../config/schema.ts';
import { LocalK6Runner } from '../load/local-runner.ts';
import type { LoadRunner } from '../load/types.ts';
import { ensureK6 } from '../tools/k6.ts';
import { checkRateCeiling } from '../load/ceiling.ts';
import { cpus } from 'node:os';
import { checkReachable } from './reachable.ts';
import type { ModeTarget } from '../load/types.ts';
import type { Platform, PlatformContext } from './types.ts';

export class EndpointsPlatform implements Platform {
  readonly name = 'endpoints';
  private runner?: LoadRunner;

  constructor(private readonly context: PlatformContext) {}

  async prepare(): Promise<void> {
    checkRateCeiling(this.context.config.profiles, cpus().length, false);
    // In seconds, before k6 is fetched: what `plan` says of the same endpoints, in its words.
    await checkReachable(this.context.config);
    const k6 = await ensureK6(this.context.log);
    this.runner = new LocalK6Runner(k6.path, { sharesMachineWithServer: false, source: k6.source });
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
