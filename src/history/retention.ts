// Retention (`history.keep`): by age ("365d") or by count per suite ("1000runs"). Pruned runs
// leave the branch in the same commit that compacts the index, so the two never disagree. Pure.
import { UsageError } from '../util/errors.ts';
import type { IndexEntry } from './suite-index.ts';

export type Retention = { kind: 'age'; days: number } | { kind: 'count'; runs: number };

export function parseRetention(text: string, label = 'history.keep'): Retention {
  const match = /^(\d+)(d|runs)$/.exec(text.trim());
  const amount = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(amount) || amount < 1) {
    throw new UsageError(
      `${label}: expected "<N>d" (days, e.g. "365d") or "<N>runs" (e.g. "1000runs") with N ≥ 1, got ${JSON.stringify(text)}`,
    );
  }
  return match[2] === 'd' ? { kind: 'age', days: amount } : { kind: 'count', runs: amount };
}

/** Entries that retention removes. Counting keeps the newest runs; age is measured from `now`. */
export function prunedEntries(entries: readonly IndexEntry[], retention: Retention, now: Date): IndexEntry[] {
  const newestFirst = [...entries].sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
  if (retention.kind === 'count') return newestFirst.slice(retention.runs);
  const cutoff = now.getTime() - retention.days * 86_400_000;
  return newestFirst.filter((e) => new Date(e.startedAt).getTime() < cutoff);
}

export function describeRetention(retention: Retention): string {
  return retention.kind === 'age' ? `runs older than ${retention.days} days` : `all but the newest ${retention.runs} runs per suite`;
}

/** Timeline retention: like `keep`, plus "all" (never drop them) and "none" (never store them). */
export const DEFAULT_TIMELINE_RETENTION = '30d';

export function parseTimelineRetention(text: string, label = 'history.keepTimelines'): Retention | undefined {
  if (text.trim() === 'all') return undefined;
  if (text.trim() === 'none') return { kind: 'count', runs: 0 };
  try {
    return parseRetention(text, label);
  } catch {
    throw new UsageError(`${label}: expected "<N>d" (e.g. "30d"), "<N>runs", "all" or "none", got ${JSON.stringify(text)}`);
  }
}
