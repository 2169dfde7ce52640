// The seam between the pipeline and where past results live. Implementations: a directory
// (local use) and a git branch (gh-pages). The regression gate only sees RunResult values.
import type { RunResult } from '../results/types.ts';

export interface HistoryQuery {
  suite: string;
  /** Only results from this branch (the PR's base branch, or the default branch). */
  branch?: string;
  /** Only results for this commit (the PR's merge base), when known. */
  commit?: string;
  /** At most this many, newest first. */
  limit?: number;
}

export interface ResultStore {
  /** Human description for messages, without credentials. */
  describe(): string;
  /** Past results, newest first. Invalid runs are included; callers skip them. */
  list(query: HistoryQuery): Promise<RunResult[]>;
  /** Adds runs to the store. Atomic: on error nothing is written. */
  publish(results: RunResult[]): Promise<void>;
}
