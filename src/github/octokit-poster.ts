// CommentPoster and PullLookup over Octokit (@actions/github). The only module that talks to
// GitHub's API. Errors are translated into messages a user can act on; the token never appears.
import { getOctokit } from '@actions/github';
import type { RepoRef } from './event.ts';
import { GitHubPermissionError } from './permission-error.ts';
import type { CommentPoster, IssueComment } from './sticky.ts';
import type { PullLookup, PullSummary } from './resolve-pr.ts';

type Octokit = ReturnType<typeof getOctokit>;

const REQUEST_TIMEOUT_MS = 30_000;

export class OctokitGitHub implements CommentPoster, PullLookup {
  private readonly octokit: Octokit;
  private login: string | undefined;

  constructor(
    token: string,
    private readonly repo: RepoRef,
    apiUrl: string,
  ) {
    this.octokit = getOctokit(token, { baseUrl: apiUrl });
    // Each request gets its own deadline, so a hung API cannot hold the job.
    this.octokit.hook.before('request', (options) => {
      options.request = { ...options.request, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    });
  }

  async identity(): Promise<string> {
    if (this.login) return this.login;
    try {
      // Works for GITHUB_TOKEN (viewer is the github-actions bot), app tokens and PATs.
      const data = await this.octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
      this.login = data.viewer.login;
    } catch {
      try {
        const { data } = await this.octokit.rest.users.getAuthenticated();
        this.login = data.login;
      } catch (error) {
        throw translate(error, 'find out which account the token belongs to (needed to find our earlier comment)', 'pull-requests: write');
      }
    }
    return this.login;
  }

  async list(issue: number): Promise<IssueComment[]> {
    try {
      const comments = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
        ...this.repo,
        issue_number: issue,
        per_page: 100,
      });
      return comments.map((c) => ({ id: c.id, body: c.body ?? '', authorLogin: c.user?.login ?? '', url: c.html_url }));
    } catch (error) {
      throw translate(error, `list the comments of #${issue}`, 'pull-requests: write');
    }
  }

  async create(issue: number, body: string): Promise<IssueComment> {
    try {
      const { data } = await this.octokit.rest.issues.createComment({ ...this.repo, issue_number: issue, body });
      return { id: data.id, body: data.body ?? '', authorLogin: data.user?.login ?? '', url: data.html_url };
    } catch (error) {
      throw translate(error, `comment on #${issue}`, 'pull-requests: write');
    }
  }

  async update(commentId: number, body: string): Promise<IssueComment> {
    try {
      const { data } = await this.octokit.rest.issues.updateComment({ ...this.repo, comment_id: commentId, body });
      return { id: data.id, body: data.body ?? '', authorLogin: data.user?.login ?? '', url: data.html_url };
    } catch (error) {
      throw translate(error, `update comment ${commentId}`, 'pull-requests: write');
    }
  }

  /** The repository's default branch (schedule payloads carry no repository object to read it from). */
  async defaultBranch(): Promise<string> {
    try {
      const { data } = await this.octokit.rest.repos.get({ ...this.repo });
      return data.default_branch;
    } catch (error) {
      throw translate(error, `read the default branch of ${this.repo.owner}/${this.repo.repo}`, 'contents: read');
    }
  }

  async pullsForCommit(sha: string): Promise<PullSummary[]> {
    try {
      const pulls = await this.octokit.paginate(this.octokit.rest.repos.listPullRequestsAssociatedWithCommit, {
        ...this.repo,
        commit_sha: sha,
        per_page: 100,
      });
      return pulls.map(toSummary);
    } catch (error) {
      throw translate(error, `look up pull requests of commit ${sha.slice(0, 12)}`, 'contents: read');
    }
  }

  async openPulls(): Promise<PullSummary[]> {
    try {
      const pulls = await this.octokit.paginate(this.octokit.rest.pulls.list, { ...this.repo, state: 'open', per_page: 100 });
      return pulls.map(toSummary);
    } catch (error) {
      throw translate(error, 'list open pull requests', 'pull-requests: read');
    }
  }
}

function toSummary(p: {
  number: number;
  state: string;
  head: { sha: string; repo: { full_name: string } | null };
  base: { ref: string; sha: string };
}): PullSummary {
  return {
    number: p.number,
    state: p.state,
    headSha: p.head.sha,
    headRepo: p.head.repo?.full_name ?? '',
    baseRef: p.base.ref,
    baseSha: p.base.sha,
  };
}

/**
 * `permission` is what this call needs of the job's `permissions:` (on a private repository,
 * listing a commit's pull requests needs contents: read, which pull-requests: write does not
 * imply), so a 403 names what is actually missing.
 */
function translate(error: unknown, doing: string, permission: string): Error {
  const status = (error as { status?: number }).status;
  const apiMessage = (error as { response?: { data?: { message?: string } } }).response?.data?.message;
  if (status === 401)
    return new GitHubPermissionError(
      `GitHub rejected the token while trying to ${doing} (401 Bad credentials): pass a valid token in the token input`,
    );
  if (status === 403) {
    return new GitHubPermissionError(
      `GitHub refused to let the token ${doing} (403${apiMessage ? ` ${apiMessage}` : ''}): give the job \`permissions: ${permission}\`${permission.endsWith('write') ? '; on fork PRs the token is read-only, use the fork-safe workflow_run pair (workflows/fork-safe-*.yml)' : ''}`,
    );
  }
  if (status === 404 || status === 410)
    return new Error(`GitHub could not ${doing} (${status}): the pull request may be closed, locked or in another repository`);
  if (status === 422) return new Error(`GitHub rejected the request to ${doing} (422${apiMessage ? ` ${apiMessage}` : ''})`);
  return new Error(`could not ${doing}: ${status ? `HTTP ${status} ` : ''}${error instanceof Error ? error.message : String(error)}`);
}
