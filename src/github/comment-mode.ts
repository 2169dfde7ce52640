// The comment sub-action (comment/action.yml): posts or updates the sticky comment from a results
// artifact. It is what the fork-safe workflow_run job runs: it has a write token, so it never
// runs PR code; it only reads the artifact as data and resolves the PR from the run's head SHA.
import * as core from '@actions/core';
import { EXIT, UsageError } from '../util/errors.ts';
import { readGitHubEvent } from './event.ts';
import { COMMENT_INPUT } from './inputs.ts';
import { expandHome } from './path-input.ts';
import { OctokitGitHub } from './octokit-poster.ts';
import { reportToGitHub } from './report.ts';
import { resolvePullRequest } from './resolve-pr.ts';
import { readEventPayload, type ModeOutcome } from './run-benchmark.ts';
import type { CommentPolicy } from './sticky.ts';
import { readUntrustedResults } from './untrusted-results.ts';
import { reconcileWithConclusion } from './run-conclusion.ts';

const POLICIES: CommentPolicy[] = ['off', 'on-failure', 'always'];

export async function runCommentMode(env: NodeJS.ProcessEnv): Promise<ModeOutcome> {
  const token = core.getInput(COMMENT_INPUT.token);
  if (token) core.setSecret(token);
  const policy = (core.getInput(COMMENT_INPUT.comment) || 'always') as CommentPolicy;
  if (!POLICIES.includes(policy))
    throw new UsageError(`input comment: expected one of off, on-failure, always, got ${JSON.stringify(policy)}`);
  const resultsPath = expandHome(core.getInput(COMMENT_INPUT.results, { required: true }));
  const explicitPr = core.getInput(COMMENT_INPUT.pullRequest);
  if (explicitPr && !/^[1-9]\d{0,9}$/.test(explicitPr))
    throw new UsageError(`input pull-request: expected a pull request number, got ${JSON.stringify(explicitPr)}`);

  const event = readGitHubEvent(env, await readEventPayload(env.GITHUB_EVENT_PATH));
  if (!event.repository) throw new UsageError('GITHUB_REPOSITORY is not set: the comment action must run in a GitHub workflow');
  const read = await core.group('Read results artifact', async () => {
    const read = await readUntrustedResults(resultsPath);
    core.info(`read ${read.path}: suite ${read.result.run.suite}, verdict ${read.result.verdict}, ${read.result.modes.length} mode rows`);
    return read;
  });
  const github = new OctokitGitHub(token, event.repository, event.apiUrl);
  const path = read.path;
  let result = read.result;
  if (event.workflowRun) {
    // GitHub's conclusion of the benchmark run outranks the artifact's own claim.
    const reconciled = reconcileWithConclusion(result, event.workflowRun.conclusion);
    if (reconciled.disagreement) core.warning(`mesh-perf comment: ${reconciled.disagreement}`);
    result = reconciled.result;
  }

  let pullRequest: number | undefined;
  let runUrl = event.runUrl;
  let provenance: string | undefined;
  let workflow: string | undefined;
  if (event.workflowRun) {
    const run = event.workflowRun;
    runUrl = run.htmlUrl || undefined;
    if (run.event !== 'pull_request' && run.event !== 'pull_request_target') {
      core.notice(`the benchmark run was triggered by ${run.event || 'an unknown event'}, not a pull request: no comment to post`);
      return { exitCode: EXIT.pass };
    }
    const resolution = await core.group('Find the pull request', () => resolvePullRequest(github, run));
    if (!resolution.pull) {
      core.notice(`No PR comment was posted: ${resolution.why}.`);
      await writeShortSummary(`No PR comment was posted: ${resolution.why}.`);
      return { exitCode: EXIT.pass };
    }
    if (explicitPr && Number(explicitPr) !== resolution.pull.number) {
      throw new UsageError(
        `input pull-request is #${explicitPr} but the benchmark run's head ${run.headSha.slice(0, 12)} belongs to #${resolution.pull.number}; refusing to comment on the wrong PR`,
      );
    }
    pullRequest = resolution.pull.number;
    // The comment belongs to the benchmark's workflow (its check), not to this commenter's.
    workflow = run.name || undefined;
    provenance = `Results of the benchmark run for ${run.headSha.slice(0, 7)}${run.headRepo ? ` from ${run.headRepo}` : ''}, posted by the workflow_run commenter.`;
  } else if (event.pullRequest) {
    pullRequest = event.pullRequest.number;
  } else if (explicitPr) {
    pullRequest = Number(explicitPr);
  }

  const report = await reportToGitHub({
    result,
    event,
    links: { runUrl, artifactUrl: runUrl ? `${runUrl}#artifacts` : undefined, dashboardUrl: dashboardInput() },
    comment: {
      policy,
      token,
      pullRequest,
      // The commenter holds a write token; forks matter only when it runs in the PR's own job.
      fromFork: !event.workflowRun && (event.pullRequest?.fromFork ?? false),
      poster: () => github,
      provenance,
      ...(workflow ? { workflow } : {}),
    },
    files: { results: path },
    full: false,
  });
  if (!report.comment.posted && report.comment.warning) {
    return { exitCode: EXIT.environment, failure: report.comment.reason };
  }
  return { exitCode: EXIT.pass };
}

/** The dashboard link comes from the trusted workflow, never from the artifact (a fork could plant any URL). */
function dashboardInput(): string | undefined {
  const url = core.getInput(COMMENT_INPUT.dashboardUrl);
  if (!url) return undefined;
  if (!/^https?:\/\/[^\s()<>]+$/.test(url))
    throw new UsageError(`input dashboard-url: expected an http(s) URL, got ${JSON.stringify(url)}`);
  return url;
}

async function writeShortSummary(line: string): Promise<void> {
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(`### mesh-perf comment\n\n${line}\n`).write();
}
