// Hands a finished run to GitHub: the sticky comment (first, so the summary can say what happened
// to it), the job summary, annotations and outputs.
import * as core from '@actions/core';
import { dirname } from 'node:path';
import type { RunResult } from '../results/types.ts';
import type { BaseReference } from '../report/reference.ts';
import { annotationsFor } from './annotations.ts';
import { commentMarker, renderComment } from './comment-body.ts';
import { postComment, type CommentResult } from './comment-stage.ts';
import type { GitHubEvent } from './event.ts';
import { OUTPUT } from './inputs.ts';
import { renderJobSummary, type ReportLinks } from './job-summary.ts';
import { buildRunView, type RunView } from '../report/view.ts';
import type { CommentPolicy, CommentPoster } from './sticky.ts';

export interface ReportInput {
  result: RunResult;
  event: GitHubEvent;
  links: ReportLinks;
  base?: BaseReference;
  comment: {
    policy: CommentPolicy;
    token: string;
    pullRequest: number | undefined;
    fromFork: boolean;
    poster: () => CommentPoster;
    provenance?: string;
    /** The workflow that measured the results, when it is not this one (the fork-safe commenter's workflow_run). */
    workflow?: string;
  };
  files?: { results?: string; report?: string };
  /** Extra lines for the top of the job summary (publishing outcome). */
  notices?: string[];
  /** Set outputs and annotations (the run mode); the comment mode only comments and summarizes. */
  full: boolean;
}

export interface ReportOutcome {
  view: RunView;
  comment: CommentResult;
  summaryMarkdown: string;
}

export async function reportToGitHub(input: ReportInput): Promise<ReportOutcome> {
  const view = buildRunView(input.result, input.base ? { base: input.base } : {});
  const workflow = input.comment.workflow ?? input.event.workflow;
  const rendered = renderComment({ view, links: input.links, provenance: input.comment.provenance, workflow });
  const marker = commentMarker(view.suite, workflow);

  const comment = await core.group('PR comment', async () => {
    const outcome = await postComment(
      { ...input.comment, verdict: view.verdict, event: input.event, marker, body: rendered.body },
      input.comment.poster,
    );
    if (outcome.posted)
      core.info(
        `comment ${outcome.outcome.action}: ${outcome.outcome.url}${rendered.folded ? ' (details folded to fit the size limit)' : ''}`,
      );
    else if (outcome.warning) core.warning(outcome.reason);
    else if (outcome.notable) core.notice(outcome.reason);
    else core.info(outcome.reason);
    return outcome;
  });

  const notices = [...(comment.posted ? [] : comment.notable ? [comment.reason] : []), ...(input.notices ?? [])];
  const summaryMarkdown = renderJobSummary({ view, links: input.links, notices });
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summaryMarkdown).write();
  else core.info('GITHUB_STEP_SUMMARY is not set (not on a runner?): no job summary written');

  if (input.full) {
    for (const a of annotationsFor(view)) {
      if (a.level === 'error') core.error(a.message, { title: a.title });
      else core.warning(a.message, { title: a.title });
    }
    core.setOutput(OUTPUT.verdict, view.verdict);
    core.setOutput(OUTPUT.resultsPath, input.files?.results ?? '');
    core.setOutput(OUTPUT.resultsDir, input.files?.results ? dirname(input.files.results) : '');
    core.setOutput(OUTPUT.reportPath, input.files?.report ?? '');
    core.setOutput(OUTPUT.summary, rendered.body.replace(marker, '').trimEnd());
  }
  core.setOutput(OUTPUT.commentUrl, comment.posted ? comment.outcome.url : '');
  return { view, comment, summaryMarkdown };
}
