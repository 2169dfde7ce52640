// An API server that stops answering mid-run (a control-plane restart or upgrade, a load
// balancer's failover): the load does not depend on it (k6 runs on in its pod, see k6-runner.ts),
// so the calls around a repetition are retried with backoff until it answers again, for at most
// kubernetes.apiOutage from the first failure; past that the run stops (exit 3), with the partial
// results written and `mesh-perf down` to remove the rest. Only failures to reach the server are
// retried: an answer, even an error, is the caller's.
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../../config/duration.ts';
import { EnvironmentError } from '../../util/errors.ts';
import type { Logger } from '../../util/log.ts';

/** Errors that mean the API server (or the kubelet stream behind it) could not be reached, not that it answered. */
const UNREACHABLE =
  /cannot reach the Kubernetes API server|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|socket hang up|no answer within|Unexpected server response: (?:5\d\d)|HTTP 50[234]/i;
/** An exec stream that closed with no status at all: the connection went, not an answer (one with a status message is an answer). */
const STREAM_LOST = /ended without an exit status$/;

export function isUnreachable(error: unknown): boolean {
  const text = [(error as Error)?.message, (error as { cause?: Error })?.cause?.message, (error as NodeJS.ErrnoException)?.code]
    .filter(Boolean)
    .join(' ');
  return UNREACHABLE.test(text) || STREAM_LOST.test((error as Error)?.message ?? '');
}

export interface OutageOptions {
  /** kubernetes.apiOutage: how long the server may stay unreachable, in ms. */
  limitMs: number;
  /** Where the limit comes from, for messages: kubernetes.apiOutage unless a caller shortened it. */
  limitSource?: string;
  log: Logger;
  signal?: AbortSignal;
  /** The server's URL, for messages. */
  server: string;
  /**
   * False where no load is running (a teardown): the warning does not say the load goes on, and the
   * error does not say the run stops (the teardown's own message says what is left to `down`).
   */
  duringLoad?: boolean;
}

/**
 * Tracks one outage across calls: the first call that cannot reach the server starts it, the first
 * that does ends it, and every call in between shares its deadline (a repetition's upload, stream
 * and read-back are one outage, not three).
 */
export class ApiOutage {
  private since?: number;
  private lastError = '';

  constructor(private readonly options: OutageOptions) {}

  /** Runs `call`, retrying while the server cannot be reached and the outage is within the limit; `what` says what was being done. */
  async through<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await call();
        this.recovered();
        return value;
      } catch (error) {
        if (!isUnreachable(error) || this.options.signal?.aborted) throw error;
        this.failed(what, error);
        await sleep(this.backoffMs(attempt), undefined, { signal: this.options.signal }).catch(() => undefined);
      }
    }
  }

  /** Throws the outage's stop once it has lasted past the limit; notes its start otherwise. */
  failed(what: string, error: unknown): void {
    const now = Date.now();
    this.lastError = ((error as Error)?.message ?? String(error)).split('\n')[0]!.slice(0, 600);
    if (this.since === undefined) {
      this.since = now;
      this.options.log.warn(
        `the Kubernetes API server ${this.options.server} stopped answering while ${what} (${this.lastError}); retrying for up to ${formatDuration(this.options.limitMs)} (${this.source()})${this.options.duringLoad === false ? '' : ', the load goes on in its pod meanwhile'}`,
      );
    }
    if (now - this.since > this.options.limitMs)
      throw new EnvironmentError(
        `the Kubernetes API server ${this.options.server} did not answer for ${seconds(now - this.since)}, longer than ${this.source()} (${formatDuration(this.options.limitMs)}), while ${what}: ${this.lastError.replace(/\.$/, '')}` +
          (this.options.duringLoad === false
            ? ''
            : '. The run stops here with its partial results; once the cluster answers, `mesh-perf down --config FILE` removes what the run left'),
      );
  }

  /** 250 ms doubling to 5 s, but never far past the limit: the last try comes when the limit ends. */
  private backoffMs(attempt: number): number {
    const left = (this.since ?? Date.now()) + this.options.limitMs - Date.now();
    return Math.max(100, Math.min(5000, 250 * 2 ** Math.min(attempt - 1, 5), left + 50));
  }

  private source(): string {
    return this.options.limitSource ?? 'kubernetes.apiOutage';
  }

  /** Ends an outage, saying how long it lasted. */
  recovered(): void {
    if (this.since === undefined) return;
    this.options.log.info(`the Kubernetes API server answers again, after ${seconds(Date.now() - this.since)}`);
    this.since = undefined;
  }
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
