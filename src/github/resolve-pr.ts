// Finds the pull request a workflow_run belongs to. GitHub leaves workflow_run.pull_requests
// empty for fork PRs, and a number carried inside the artifact is attacker-controlled, so the PR
// is resolved from the run's head SHA and accepted only when its head still is that SHA.
import type { WorkflowRunInfo } from './event.ts';
import { GitHubPermissionError } from './permission-error.ts';

export interface PullSummary {
  number: number;
  state: string;
  headSha: string;
  headRepo: string;
  baseRef: string;
  baseSha: string;
}

export interface PullLookup {
  pullsForCommit(sha: string): Promise<PullSummary[]>;
  openPulls(): Promise<PullSummary[]>;
}

export type Resolution = { pull: PullSummary } | { pull?: undefined; why: string };

export async function resolvePullRequest(lookup: PullLookup, run: WorkflowRunInfo): Promise<Resolution> {
  if (!/^[0-9a-f]{40}$/.test(run.headSha))
    return { why: `the workflow_run event has no usable head SHA (got ${JSON.stringify(run.headSha.slice(0, 40))})` };
  const matches = (pulls: PullSummary[]) =>
    pulls.filter((p) => p.state === 'open' && p.headSha === run.headSha && (!run.headRepo || !p.headRepo || p.headRepo === run.headRepo));
  let found: PullSummary[] = [];
  let refused: Error | undefined;
  try {
    found = matches(await lookup.pullsForCommit(run.headSha));
  } catch (error) {
    // On a private repository this needs contents: read, which a commenter job granted only
    // actions: read and pull-requests: write lacks: open PRs answer the same question.
    if (!(error instanceof GitHubPermissionError)) throw error;
    refused = error;
  }
  // Commits of fork PRs are not associated with the base repository; fall back to open PRs.
  if (found.length === 0) {
    try {
      found = matches(await lookup.openPulls());
    } catch (error) {
      if (refused && error instanceof GitHubPermissionError) throw new GitHubPermissionError(`${refused.message}; ${error.message}`);
      throw error;
    }
  }
  if (found.length === 0)
    return {
      why: `no open pull request has head ${run.headSha.slice(0, 12)} (it may have been closed or pushed to since the benchmark ran)`,
    };
  if (found.length > 1)
    return {
      why: `${found.length} open pull requests (#${found.map((p) => p.number).join(', #')}) have head ${run.headSha.slice(0, 12)}; not guessing which one to comment on`,
    };
  return { pull: found[0]! };
}
