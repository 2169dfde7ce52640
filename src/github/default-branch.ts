// Fills in the default branch a publishing run must check it is on. GitHub's schedule payload
// carries no repository object, so the branch is asked of the REST API (contents: read suffices);
// when that fails too the caller must say so loudly, not publish nothing quietly.
import * as core from '@actions/core';
import { messageOf } from '../util/errors.ts';
import { withDefaultBranch, type GitHubEvent } from './event.ts';
import { OctokitGitHub } from './octokit-poster.ts';

/** The payload's event, with the default branch asked of the API when the payload lacks it (schedule). */
export async function trustedEvent(event: GitHubEvent, token: string): Promise<GitHubEvent> {
  if (event.defaultBranch || !['schedule', 'push', 'workflow_dispatch'].includes(event.name)) return event;
  if (!event.repository)
    throw new Error(
      'the event payload has no repository.default_branch and GITHUB_REPOSITORY is not set, so the default branch is unknown',
    );
  const repository = event.repository;
  return withDefaultBranch(event, async () => {
    try {
      const branch = await new OctokitGitHub(token, repository, event.apiUrl).defaultBranch();
      core.info(`default branch ${branch} (from the API: the ${event.name} payload does not carry it)`);
      return branch;
    } catch (error) {
      throw new Error(
        `the ${event.name} payload has no repository.default_branch and the API did not say either (${messageOf(error)}); the job needs contents: read`,
      );
    }
  });
}
