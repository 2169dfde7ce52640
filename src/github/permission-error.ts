// The GitHub API refused the token; the message names the permission the job is missing.

export class GitHubPermissionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitHubPermissionError';
  }
}
