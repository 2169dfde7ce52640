// Bounded retries for API calls: throttling (429) and server errors (5xx) are retried with
// exponential backoff (honouring Retry-After), connection resets too; everything else fails at once.
import { setTimeout as sleep } from 'node:timers/promises';

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

const RETRIED_CODES = new Set([429, 500, 502, 503, 504]);
const RETRIED_ERRNO = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED', 'EAI_AGAIN']);

export function statusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  if (status !== undefined) return RETRIED_CODES.has(status);
  const errno = (error as NodeJS.ErrnoException).code ?? (error as { cause?: NodeJS.ErrnoException }).cause?.code;
  return typeof errno === 'string' && RETRIED_ERRNO.has(errno);
}

function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: Record<string, string> }).headers;
  const value = headers?.['retry-after'] ?? headers?.['Retry-After'];
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
}

/** Delay before attempt n+1 (n from 1): base·2^(n-1), capped, or the server's Retry-After. */
export function backoffMs(attempt: number, error: unknown, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 250;
  const max = options.maxDelayMs ?? 8000;
  return Math.min(max, retryAfterMs(error) ?? base * 2 ** (attempt - 1));
}

export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error) || options.signal?.aborted) throw error;
      await sleep(backoffMs(attempt, error, options), undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
}
