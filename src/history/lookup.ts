// The base a run compares with: for a pull request the runs of its base commit (GitHub's
// pull_request.base.sha, stored as `mergeBase`: the base tip when the event fired, not the merge
// base), pooled with the base branch's latest runs up to N (one base-commit run cannot show how far a
// whole job moves, so the gate could not include the job-to-job spread τ in its pass bound; issue
// 23), or the base branch's latest N alone when that commit was never measured; else its own
// branch's latest N.
// The git facts come from the run's own GitInfo.
import type { GitInfo, RunResult } from '../results/types.ts';
import type { ResultStore } from './types.ts';

export interface BaseLookup {
  /** Which rule found the runs. */
  basis: 'merge-base' | 'merge-base+base-branch' | 'base-branch-latest' | 'branch-latest';
  branch?: string;
  commit?: string;
  runs: RunResult[];
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
    const latest = keep(await store.list({ suite, branch: base, limit }));
    if (git.mergeBase) {
      const runs = keep(await store.list({ suite, branch: base, commit: git.mergeBase, limit }));
      if (runs.length > 0) {
        // The merge base's own runs first, then the branch's latest others, at most `limit`.
        const ids = new Set(runs.map((r) => r.run.id));
        const pooled = [...runs, ...latest.filter((r) => !ids.has(r.run.id))].slice(0, limit);
        const basis = pooled.length > runs.length ? 'merge-base+base-branch' : 'merge-base';
        return { basis, branch: base, commit: git.mergeBase, runs: pooled };
      }
    }
    return latest.length > 0 ? { basis: 'base-branch-latest', branch: base, runs: latest } : undefined;
  }
  if (!git.branch) return undefined;
  const runs = keep(await store.list({ suite, branch: git.branch, limit: limit + (selfId ? 1 : 0) })).slice(0, limit);
  return runs.length > 0 ? { basis: 'branch-latest', branch: git.branch, runs } : undefined;
}
