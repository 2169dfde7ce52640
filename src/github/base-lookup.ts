// Asks the history store for the reference this run is shown against: for a PR, the base
// branch's runs at the PR's base commit, else the base branch's latest; for other events, the
// latest runs of the same branch. Failures never fail the run: there is just no "vs base" column.
import type { ResultStore } from '../history/types.ts';
import type { BaseReference } from './base-compare.ts';
import type { GitHubEvent } from './event.ts';

export async function lookupBase(store: ResultStore, suite: string, event: GitHubEvent, window: number, excludeRunId?: string): Promise<BaseReference | undefined> {
  const pr = event.pullRequest;
  const branch = pr ? pr.baseRef : event.ref?.startsWith('refs/heads/') ? event.ref.slice('refs/heads/'.length) : undefined;
  if (!branch) return undefined;
  const keep = (runs: Awaited<ReturnType<ResultStore['list']>>) => runs.filter((r) => r.run?.id !== excludeRunId && r.verdict !== 'invalid');
  if (pr?.baseSha) {
    const atCommit = keep(await store.list({ suite, branch, commit: pr.baseSha, limit: window }));
    if (atCommit.length > 0) return { ref: branch, commit: pr.baseSha, runs: atCommit };
  }
  const latest = keep(await store.list({ suite, branch, limit: window }));
  return latest.length > 0 ? { ref: branch, runs: latest } : undefined;
}
