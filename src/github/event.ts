// What the workflow run is about, read from the runner's environment and event payload. Pure:
// the caller reads GITHUB_EVENT_PATH. We do not rely on @actions/github's `context`, which is
// built at import time; reading here keeps the order explicit and the function testable.

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface PullRequestInfo {
  number: number;
  headSha: string;
  headRef: string;
  /** owner/name of the repository the PR comes from. */
  headRepo: string;
  baseRef: string;
  baseSha: string;
  baseRepo: string;
  /** The head lives in another repository: GITHUB_TOKEN is read-only and secrets are absent. */
  fromFork: boolean;
}

export interface WorkflowRunInfo {
  id: number;
  /** Name of the benchmark run's workflow (keys the sticky comment with the suite). */
  name: string;
  headSha: string;
  headRepo: string;
  headBranch: string;
  /** Event that triggered the benchmark run (pull_request for the fork-safe pair). */
  event: string;
  conclusion: string | null;
  htmlUrl: string;
  /** PR numbers GitHub attached to the run; empty for fork PRs, so never trusted alone. */
  pullRequests: number[];
}

export interface GitHubEvent {
  name: string;
  /** Name of the workflow this job runs in (GITHUB_WORKFLOW). */
  workflow: string | undefined;
  repository: RepoRef | undefined;
  serverUrl: string;
  apiUrl: string;
  runId: string | undefined;
  runAttempt: string | undefined;
  sha: string | undefined;
  ref: string | undefined;
  /** Link to this run's page, where the job summary and artifacts are. */
  runUrl: string | undefined;
  pullRequest: PullRequestInfo | undefined;
  workflowRun: WorkflowRunInfo | undefined;
  /** The repository's default branch, from the payload (absent for some events). */
  defaultBranch: string | undefined;
}

type Json = Record<string, unknown>;

export function readGitHubEvent(env: NodeJS.ProcessEnv, payload: unknown): GitHubEvent {
  const name = env.GITHUB_EVENT_NAME ?? 'local';
  const serverUrl = (env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/$/, '');
  const apiUrl = (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, '');
  const repository = parseRepo(env.GITHUB_REPOSITORY);
  const runId = env.GITHUB_RUN_ID || undefined;
  const runUrl = repository && runId ? `${serverUrl}/${repository.owner}/${repository.repo}/actions/runs/${runId}` : undefined;
  const body = isObject(payload) ? payload : {};
  return {
    name,
    workflow: env.GITHUB_WORKFLOW || undefined,
    repository,
    serverUrl,
    apiUrl,
    runId,
    runAttempt: env.GITHUB_RUN_ATTEMPT || undefined,
    sha: env.GITHUB_SHA || undefined,
    ref: env.GITHUB_REF || undefined,
    runUrl,
    pullRequest: readPullRequest(body.pull_request),
    workflowRun: readWorkflowRun(body.workflow_run),
    defaultBranch:
      isObject(body.repository) && typeof body.repository.default_branch === 'string' ? body.repository.default_branch : undefined,
  };
}

export function parseRepo(text: string | undefined): RepoRef | undefined {
  const match = text?.match(/^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/);
  return match ? { owner: match[1]!, repo: match[2]! } : undefined;
}

function readPullRequest(value: unknown): PullRequestInfo | undefined {
  if (!isObject(value) || typeof value.number !== 'number') return undefined;
  const head = isObject(value.head) ? value.head : {};
  const base = isObject(value.base) ? value.base : {};
  const headRepo = repoName(head.repo);
  const baseRepo = repoName(base.repo);
  return {
    number: value.number,
    headSha: str(head.sha),
    headRef: str(head.ref),
    headRepo,
    baseRef: str(base.ref),
    baseSha: str(base.sha),
    baseRepo,
    // A deleted fork has head.repo null: treat it as a fork, the token is read-only either way.
    fromFork: headRepo === '' || headRepo !== baseRepo,
  };
}

function readWorkflowRun(value: unknown): WorkflowRunInfo | undefined {
  if (!isObject(value) || typeof value.id !== 'number') return undefined;
  const pulls = Array.isArray(value.pull_requests) ? value.pull_requests : [];
  return {
    id: value.id,
    name: str(value.name),
    headSha: str(value.head_sha),
    headRepo: repoName(value.head_repository),
    headBranch: str(value.head_branch),
    event: str(value.event),
    conclusion: typeof value.conclusion === 'string' ? value.conclusion : null,
    htmlUrl: str(value.html_url),
    pullRequests: pulls.flatMap((p) => (isObject(p) && typeof p.number === 'number' ? [p.number] : [])),
  };
}

/**
 * The event with its default branch filled in. GitHub's schedule payload has no `repository`
 * object (and other payloads may lack it), so the branch is then asked of the REST API; a run
 * that cannot learn it cannot tell whether it is on the default branch, and says so loudly.
 */
export async function withDefaultBranch(event: GitHubEvent, lookup: () => Promise<string>): Promise<GitHubEvent> {
  if (event.defaultBranch) return event;
  return { ...event, defaultBranch: await lookup() };
}

/** Publishing to history is allowed only for trusted code: a schedule, a push or a manual run on the default branch. */
export function publishRefusal(event: GitHubEvent): string | undefined {
  if (!['schedule', 'push', 'workflow_dispatch'].includes(event.name)) {
    return `publishing to history is only done for schedule, push and workflow_dispatch events on the default branch, never for ${event.name} (PR code must not write history)`;
  }
  if (!event.defaultBranch) return 'publishing to history needs the default branch from the event payload, and it is missing';
  if (event.ref !== `refs/heads/${event.defaultBranch}`) {
    return `publishing to history is only done on the default branch (${event.defaultBranch}), this run is on ${event.ref ?? 'an unknown ref'}`;
  }
  return undefined;
}

function repoName(value: unknown): string {
  return isObject(value) && typeof value.full_name === 'string' ? value.full_name : '';
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
