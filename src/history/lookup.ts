// The base a run compares with: for a pull request the runs of its base commit (GitHub's
// pull_request.base.sha, stored as `baseSha`: the base tip when the event fired, not the merge
// base), pooled with the base branch's latest runs up to N (one base-commit run cannot show how far a
// whole job moves, so the gate could not include the job-to-job spread τ in its pass bound; issue
// 23), or the base branch's latest N alone when that commit was never measured; else its own
// branch's latest N.
// The git facts come from the run's own GitInfo.
import type { GitInfo, RunResult } from '../results/types.ts';
import { describeChangePoint } from './change-points.ts';
import type { ResultStore } from './types.ts';

export interface BaseLookup {
  /** Which rule found the runs. */
  basis: 'base-commit' | 'base-commit+base-branch' | 'base-branch-latest' | 'branch-latest';
  branch?: string;
  commit?: string;
  runs: RunResult[];
  /** Runs before the branch's last change point were left out: the reference starts after it. */
  window?: ReferenceWindow;
}

export interface ReferenceWindow {
  /** First run after the change point, and when it started. */
  after: string;
  startedAt: string;
  /** The series the change point is in, one line. */
  changePoint: string;
  /** Runs of the latest `limit` that the window left out. */
  leftOut: number;
}

/** Series whose steps move what the regression gate judges by default: p50 and its ratio to the baseline. */
const WINDOW_METRICS = new Set(['ratio', 'p50']);

/** The reference window: runs since the last change point of the branch's gated series. */
async function windowed(
  store: ResultStore,
  suite: string,
  branch: string,
  runs: RunResult[],
): Promise<{ runs: RunResult[]; window?: ReferenceWindow }> {
  if (!store.changePoints || runs.length === 0) return { runs };
  const last = (await store.changePoints(suite, branch)).changePoints.find((cp) => WINDOW_METRICS.has(cp.metric));
  if (!last) return { runs };
  const start = Date.parse(last.afterStartedAt);
  const kept = runs.filter((r) => Date.parse(r.run.startedAt) >= start);
  if (kept.length === runs.length || kept.length === 0) return { runs };
  return {
    runs: kept,
    window: {
      after: last.after,
      startedAt: last.afterStartedAt,
      changePoint: describeChangePoint(last),
      leftOut: runs.length - kept.length,
    },
  };
}

/**
 * The reference for a run: a PR compares with its base commit (else its base branch's latest),
 * anything else with the latest runs of its own branch. Invalid runs and the run itself are
 * left out; undefined when history holds nothing comparable.
 */
export async function findBase(
  store: ResultStore,
  suite: string,
  git: GitInfo,
  limit: number,
  selfId?: string,
): Promise<BaseLookup | undefined> {
  const keep = (runs: RunResult[]) => runs.filter((r) => r.verdict !== 'invalid' && r.run.id !== selfId);
  const base = git.baseRef;
  if (base) {
    // The base branch's latest runs, after its last change point (a known step no longer flags every PR).
    const latest = await windowed(store, suite, base, keep(await store.list({ suite, branch: base, limit })));
    if (git.baseSha) {
      const runs = keep(await store.list({ suite, branch: base, commit: git.baseSha, limit }));
      if (runs.length > 0) {
        // The base commit's own runs first, then the branch's latest others, at most `limit`.
        const ids = new Set(runs.map((r) => r.run.id));
        const pooled = [...runs, ...latest.runs.filter((r) => !ids.has(r.run.id))].slice(0, limit);
        const basis = pooled.length > runs.length ? 'base-commit+base-branch' : 'base-commit';
        return { basis, branch: base, commit: git.baseSha, runs: pooled, ...(latest.window ? { window: latest.window } : {}) };
      }
    }
    return latest.runs.length > 0 ? { basis: 'base-branch-latest', branch: base, ...latest } : undefined;
  }
  if (!git.branch) return undefined;
  const runs = keep(await store.list({ suite, branch: git.branch, limit: limit + (selfId ? 1 : 0) })).slice(0, limit);
  return runs.length > 0 ? { basis: 'branch-latest', branch: git.branch, ...(await windowed(store, suite, git.branch, runs)) } : undefined;
}

export function referenceWindowLine(window: ReferenceWindow): string {
  return `reference window: runs from ${window.after} (${window.startedAt}) on, after the last change point (${window.changePoint}); ${window.leftOut} older run${window.leftOut === 1 ? '' : 's'} left out`;
}
