// Platform "local": the tool starts its own echo server per mode, with `local.hops` forwarding
// proxies in front of it, all on 127.0.0.1. What `mesh-perf demo` runs; needs nothing installed.
import type { ModeConfig } from '../config/schema.ts';
import { parseDurationMs } from '../config/duration.ts';
import { LocalK6Runner } from '../load/local-runner.ts';
import type { LoadRunner } from '../load/types.ts';
import { ensureK6 } from '../tools/k6.ts';
import { checkRateCeiling } from '../load/ceiling.ts';
import { cpus } from 'node:os';
import type { ModeTarget } from '../load/types.ts';
import type { Platform, PlatformContext } from './types.ts';
import { startServer, type StartedServer } from './processes.ts';

export class LocalPlatform implements Platform {
  readonly name = 'local';
  private servers: StartedServer[] = [];
  private targets = new Map<string, ModeTarget>();
  private runner?: LoadRunner;

  constructor(private readonly context: PlatformContext) {}

  async prepare(): Promise<void> {
    checkRateCeiling(this.context.config.profiles, cpus().length, true);
    const k6 = await ensureK6(this.context.log);
    this.runner = new LocalK6Runner(k6.path, { sharesMachineWithServer: true });
    for (const mode of this.context.config.modes) {
      const local = mode.local ?? { hops: 0 };
      const echoArgs: string[] = [];
      if (local.delay) echoArgs.push('--delay-ms', String(parseDurationMs(local.delay)));
      if (local.jitter) echoArgs.push('--jitter-ms', String(parseDurationMs(local.jitter)));
      const portArgs = (outermost: boolean) => (outermost && local.port ? ['--port', String(local.port)] : []);
      // --run tags each process with the run id, so `ps` shows which run a server belongs to.
      const tag = ['--run', this.context.runId];
      const echo = await startServer('echo', [...echoArgs, ...portArgs(local.hops === 0), ...tag], `echo server for mode "${mode.name}"`);
      this.servers.push(echo);
      let port = echo.port;
      for (let hop = 1; hop <= local.hops; hop++) {
        const proxy = await startServer(
          'proxy',
          ['--upstream-port', String(port), ...portArgs(hop === local.hops), ...tag],
          `proxy hop ${hop} for mode "${mode.name}"`,
        );
        this.servers.push(proxy);
        port = proxy.port;
      }
      this.targets.set(mode.name, {
        mode: mode.name,
        url: `http://127.0.0.1:${port}/`,
        env: mode.env ?? {},
        description: describe(local.hops, local.delay),
      });
      this.context.log.info(`${mode.name}: ${describe(local.hops, local.delay)} on 127.0.0.1:${port}`);
    }
  }

  target(mode: ModeConfig): ModeTarget {
    const target = this.targets.get(mode.name);
    if (!target) throw new Error(`local platform has no target for mode ${mode.name}; prepare() must run first`);
    return target;
  }

  loadRunner(): LoadRunner {
    if (!this.runner) throw new Error('local platform: prepare() must run before loadRunner()');
    return this.runner;
  }

  resourceSampler(): undefined {
    return undefined;
  }

  async environment(): Promise<Record<string, unknown>> {
    return { echoServer: `mesh-perf echo (node ${process.version})`, proxy: 'mesh-perf forwarding proxy (node http, keep-alive)' };
  }

  async teardown(): Promise<void> {
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((s) => s.stop()));
  }
}

function describe(hops: number, delay: string | undefined): string {
  const path = hops === 0 ? 'direct' : `${hops} proxy hop${hops > 1 ? 's' : ''}`;
  return delay ? `${path}, ${delay} server delay` : path;
}
