// Platform "local": the tool starts its own echo server per mode, with `local.hops` forwarding
// proxies in front of it, all on 127.0.0.1. What `mesh-perf demo` runs; needs nothing installed.
// An A/B arm's server chain is started afresh for every block: two processes started alike still
// differ (where the scheduler puts them, their memory layout, what the JIT made of them), and one
// process per arm made that difference a persistent offset between the arms that no number of
// blocks averages out (bench/ab-gate: at a 1 % offset, "within 5 %" said at a true +5 % in 9 % of
// runs against 5 % nominal). A new process per block makes it block-to-block noise, which the
// interval carries. A fresh chain is warmed before its block measures it (warmServer): a node
// process answers its first requests while it compiles them, at 10–100 times its later latency
// (an e2e A/A run saw p50 104 ms from a 5 ms server and dropped iterations), which is start-up,
// not the server.
import type { ModeConfig } from '../config/schema.ts';
import type { LoadProfile } from '../config/validate.ts';
import { parseDurationMs } from '../config/duration.ts';
import { LocalK6Runner } from '../load/local-runner.ts';
import type { LoadRunner } from '../load/types.ts';
import { ensureK6 } from '../tools/k6.ts';
import { checkRateCeiling } from '../load/ceiling.ts';
import { cpus } from 'node:os';
import type { ModeTarget } from '../load/types.ts';
import type { Platform, PlatformContext } from './types.ts';
import { startServer, type StartedServer, warmServer } from './processes.ts';

/** One mode's echo server and its proxy hops, outermost last. */
interface Chain {
  servers: StartedServer[];
  port: number;
  /** The block it serves (A/B arms: a chain per block), 0 before the first. */
  block: number;
}

export class LocalPlatform implements Platform {
  readonly name = 'local';
  private chains = new Map<string, Chain>();
  private targets = new Map<string, ModeTarget>();
  private runner?: LoadRunner;

  constructor(private readonly context: PlatformContext) {}

  async prepare(): Promise<void> {
    checkRateCeiling(this.context.config.profiles, cpus().length, true);
    const k6 = await ensureK6(this.context.log);
    this.runner = new LocalK6Runner(k6.path, { sharesMachineWithServer: true, source: k6.source });
    for (const mode of this.context.config.modes) {
      const chain = await this.startChain(mode, 0);
      // An arm's every block is measured on a fresh, warmed chain: the first one too.
      if (mode.arm) await warmServer(chain.port, this.context.signal);
      const local = mode.local ?? { hops: 0 };
      const fresh = mode.arm ? ', a fresh server process for every block' : '';
      this.context.log.info(`${mode.name}: ${describe(local.hops, local.delay)} on 127.0.0.1:${chain.port}${fresh}`);
    }
  }

  /**
   * Before an A/B arm's trial: the block's own server chain, started afresh when the block changes
   * (the previous one stopped first, so at most one chain per arm runs). Other modes keep theirs.
   */
  async beforeTrial(mode: ModeConfig, _profile: LoadProfile, _generators: number, block?: number): Promise<void> {
    if (!mode.arm || block === undefined) return;
    const current = this.chains.get(mode.name);
    if (current && (current.block === block || current.block === 0)) {
      current.block = block;
      this.setTarget(mode, current);
      return;
    }
    await current?.servers.reduceRight((done, s) => done.then(() => s.stop()), Promise.resolve());
    this.chains.delete(mode.name);
    const chain = await this.startChain(mode, block);
    await warmServer(chain.port, this.context.signal);
  }

  private async startChain(mode: ModeConfig, block: number): Promise<Chain> {
    const local = mode.local ?? { hops: 0 };
    const echoArgs: string[] = [];
    if (local.delay) echoArgs.push('--delay-ms', String(parseDurationMs(local.delay)));
    if (local.jitter) echoArgs.push('--jitter-ms', String(parseDurationMs(local.jitter)));
    const portArgs = (outermost: boolean) => (outermost && local.port ? ['--port', String(local.port)] : []);
    // --run tags each process with the run id, so `ps` shows which run a server belongs to.
    const tag = ['--run', this.context.runId];
    const servers: StartedServer[] = [];
    const chain: Chain = { servers, port: 0, block };
    // Registered before it listens, so teardown stops a chain whose start failed halfway.
    this.chains.set(mode.name, chain);
    const echo = await startServer('echo', [...echoArgs, ...portArgs(local.hops === 0), ...tag], `echo server for mode "${mode.name}"`);
    servers.push(echo);
    let port = echo.port;
    for (let hop = 1; hop <= local.hops; hop++) {
      const proxy = await startServer(
        'proxy',
        ['--upstream-port', String(port), ...portArgs(hop === local.hops), ...tag],
        `proxy hop ${hop} for mode "${mode.name}"`,
      );
      servers.push(proxy);
      port = proxy.port;
    }
    chain.port = port;
    this.setTarget(mode, chain);
    return chain;
  }

  private setTarget(mode: ModeConfig, chain: Chain): void {
    const local = mode.local ?? { hops: 0 };
    this.targets.set(mode.name, {
      mode: mode.name,
      url: `http://127.0.0.1:${chain.port}/`,
      env: mode.env ?? {},
      description: describe(local.hops, local.delay),
      ...(mode.arm
        ? { server: `echo pid ${chain.servers[0]!.pid}${local.hops > 0 ? ` behind ${local.hops} hop${local.hops > 1 ? 's' : ''}` : ''}` }
        : {}),
    });
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
    const servers = [...this.chains.values()].flatMap((c) => c.servers);
    this.chains.clear();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

function describe(hops: number, delay: string | undefined): string {
  const path = hops === 0 ? 'direct' : `${hops} proxy hop${hops > 1 ? 's' : ''}`;
  return delay ? `${path}, ${delay} server delay` : path;
}
