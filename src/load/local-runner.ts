// Runs k6 as local processes: writes the script into a temp dir, starts `k6 run`, polls k6's
// REST API on a free loopback port for a live request count, and reads the summary file back.
// A group (load.generators > 1) runs as N processes started together (local-group.ts).
import { cpus } from 'node:os';
import { rm } from 'node:fs/promises';
import type { K6Invocation, K6Outcome, K6Progress, LoadRunner } from './types.ts';
import { freePort } from '../util/net.ts';
import { k6Version, pacerVersion } from '../tools/k6.ts';
import { type GeneratorCapacity, machineCapacity } from './ceiling.ts';
import { fetchIterations, k6Args, prepareDir, readOutcome, startK6, stopK6 } from './k6-process.ts';
import { runLocalGroup } from './local-group.ts';

export interface LocalRunnerOptions {
  /** The servers under test run on this machine too (platform local): k6 gets half the cores. */
  sharesMachineWithServer?: boolean;
  cores?: number;
  /** Where the binary came from (tools/k6.ts ensureK6), for the results. */
  source?: string;
}

export class LocalK6Runner implements LoadRunner {
  constructor(
    private readonly k6Path: string,
    private readonly options: LocalRunnerOptions = {},
  ) {}

  version(): Promise<string> {
    return k6Version(this.k6Path);
  }

  async pacer(): Promise<{ version: string | undefined; where: string }> {
    return { version: await pacerVersion(this.k6Path), where: `the k6 at ${this.k6Path}` };
  }

  binary(): { path: string; source: string } {
    return { path: this.k6Path, source: this.options.source ?? 'given' };
  }

  capacity(): GeneratorCapacity {
    return machineCapacity(this.options.cores ?? cpus().length, this.options.sharesMachineWithServer ?? false);
  }

  async run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome> {
    const dir = await prepareDir(invocation);
    try {
      const apiPort = await freePort();
      const k6 = startK6(this.k6Path, k6Args(invocation, dir, apiPort), dir);
      const started = Date.now();
      const poll = setInterval(() => {
        const elapsedS = (Date.now() - started) / 1000;
        void fetchIterations(apiPort).then((requests) => onProgress({ elapsedS, totalS: invocation.expectedSeconds, requests }));
      }, 1000);
      const abort = () => stopK6(k6.child);
      signal.addEventListener('abort', abort, { once: true });
      try {
        await k6.started;
        const exit = await k6.exited;
        return await readOutcome(dir, invocation, exit);
      } finally {
        clearInterval(poll);
        signal.removeEventListener('abort', abort);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  runGroup(invocations: K6Invocation[], onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome[]> {
    return runLocalGroup(this.k6Path, invocations, onProgress, signal);
  }
}
