// Decides whether and where the sticky comment goes, and posts it. Every "no" carries a reason a
// user can act on; the reason ends up in the log and in the job summary.
import type { Verdict } from '../results/types.ts';
import type { GitHubEvent } from './event.ts';
import { GitHubPermissionError } from './permission-error.ts';
import {
  refreshStickyComment,
  shouldComment,
  upsertStickyComment,
  type CommentPolicy,
  type CommentPoster,
  type StickyOutcome,
} from './sticky.ts';

export type CommentResult =
  | { posted: true; outcome: StickyOutcome }
  | { posted: false; reason: string /** worth a notice in the summary, not only a log line */; notable: boolean; warning?: boolean };

export interface CommentPlan {
  policy: CommentPolicy;
  verdict: Verdict;
  event: GitHubEvent;
  token: string;
  /** Number of the PR to comment on; undefined when the event is not about one. */
  pullRequest: number | undefined;
  /** The PR's head is in a fork (the token is read-only). */
  fromFork: boolean;
  marker: string;
  body: string;
}

export async function postComment(plan: CommentPlan, poster: () => CommentPoster): Promise<CommentResult> {
  if (plan.pullRequest === undefined)
    return { posted: false, reason: `no pull request to comment on (event ${plan.event.name})`, notable: false };
  const decision = shouldComment(plan.policy, plan.verdict);
  const refreshOnly = !decision.post && plan.policy === 'on-failure';
  if (!decision.post && !refreshOnly) return { posted: false, reason: `no PR comment: ${decision.reason}`, notable: plan.policy !== 'off' };
  if (refreshOnly && (plan.fromFork || !plan.token || !plan.event.repository)) {
    return { posted: false, reason: `no PR comment: ${decision.reason}`, notable: true };
  }
  if (plan.fromFork) {
    const head = plan.event.pullRequest?.headRepo || 'a fork';
    return {
      posted: false,
      notable: true,
      reason:
        `No PR comment was posted: this pull request comes from ${head}, and GitHub gives workflows on fork pull requests a read-only token, ` +
        'so no write was attempted. The results are in this job summary and the results artifact. To comment on fork PRs safely, add the workflow_run ' +
        'commenter from workflows/fork-safe-comment.yml to the default branch.',
    };
  }
  if (!plan.token)
    return {
      posted: false,
      notable: true,
      reason: 'No PR comment was posted: the token input is empty; pass token: ${{ github.token }} with pull-requests: write.',
    };
  if (!plan.event.repository)
    return {
      posted: false,
      notable: true,
      reason: 'No PR comment was posted: GITHUB_REPOSITORY is not set, so the repository is unknown.',
    };
  try {
    if (refreshOnly) {
      const refreshed = await refreshStickyComment(poster(), plan.pullRequest, plan.marker, plan.body);
      if (!refreshed)
        return {
          posted: false,
          reason: `no PR comment: ${decision.reason}, and there is no earlier comment to bring up to date`,
          notable: true,
        };
      return { posted: true, outcome: refreshed };
    }
    const outcome = await upsertStickyComment(poster(), plan.pullRequest, plan.marker, plan.body);
    return { posted: true, outcome };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      posted: false,
      notable: true,
      warning: true,
      reason: `No PR comment was posted: ${message}${error instanceof GitHubPermissionError ? '' : '.'}`,
    };
  }
}
