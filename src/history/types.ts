// The seam between the pipeline and where past results live. Implementations: a directory
// (local use) and a git branch (gh-pages). The regression gate only sees RunResult values.
import type { ConfirmationRecord } from '../confirm/record.ts';
import type { RunResult } from '../results/types.ts';
import type { SuiteChangePoint, SuiteChangePoints } from './change-points.ts';

export interface HistoryQuery {
  suite: string;
  /** Only results from this branch (the PR's base branch, or the default branch). */
  branch?: string;
  /** Only results for this commit (the PR's base commit), when known. */
  commit?: string;
  /** Only results from comparable machines (MachineInfo.runnerClass). */
  runnerClass?: string;
  /** Only these runs (by id): a change point's two runs. */
  ids?: readonly string[];
  /** Leave out this run (the one being judged, when it was published already). */
  excludeRunId?: string;
  /** At most this many, newest first. */
  limit?: number;
}

/** What a publish did; stores that cannot tell return nothing. */
export interface PublishOutcome {
  /** Commit pushed (git stores); undefined when nothing changed. */
  commit?: string;
  /** Tries it took (a concurrent writer makes a git store fetch and re-apply). */
  attempts: number;
  /** Run files added or replaced, paths inside the store. */
  added: string[];
  /** Runs that were already stored with identical content. */
  unchanged: string[];
  /** Run files removed by retention. */
  pruned: string[];
  /** Run files rewritten without per-second timelines (timeline retention). */
  compacted?: string[];
  /** Change points the published runs made appear (the change-point gate reads them). */
  changePoints?: SuiteChangePoint[];
  warnings: string[];
}

export interface ResultStore {
  /** Human description for messages, without credentials. */
  describe(): string;
  /** Past results, newest first. Invalid runs are included; callers skip them. */
  list(query: HistoryQuery): Promise<RunResult[]>;
  /** Change points of one branch's series in a suite (read from its index); stores that cannot tell omit it. */
  changePoints?(suite: string, branch: string): Promise<SuiteChangePoints>;
  /** Adds runs to the store. Atomic: on error nothing is written. */
  publish(results: RunResult[]): Promise<PublishOutcome | void>;
  /** The verdicts of a suite's confirmed change points (history/confirmations.ts); stores that cannot tell omit it. */
  confirmations?(suite: string): Promise<ConfirmationRecord[]>;
  /** Stores confirmations with their change points (atomic, as publish). */
  recordConfirmations?(records: ConfirmationRecord[]): Promise<ConfirmationOutcome>;
}

/** What recording confirmations did. */
export interface ConfirmationOutcome {
  commit?: string;
  attempts: number;
  recorded: ConfirmationRecord[];
  warnings: string[];
}
