// The sticky comment: one per PR per suite, found by its hidden marker among comments written by
// the same identity as our token (so nobody can hijack it by pasting the marker), and updated in
// place instead of piling up. The GitHub API sits behind CommentPoster so this logic is plain.
import type { Verdict } from '../results/types.ts';

export interface IssueComment {
  id: number;
  body: string;
  authorLogin: string;
  url: string;
}

export interface CommentPoster {
  /** Login of the token's identity; bots may come with or without the "[bot]" suffix. */
  identity(): Promise<string>;
  list(issue: number): Promise<IssueComment[]>;
  create(issue: number, body: string): Promise<IssueComment>;
  update(commentId: number, body: string): Promise<IssueComment>;
}

export type CommentPolicy = 'off' | 'on-failure' | 'always';

export interface CommentDecision {
  post: boolean;
  reason: string;
}

export function shouldComment(policy: CommentPolicy, verdict: Verdict): CommentDecision {
  if (policy === 'off') return { post: false, reason: 'comment is off' };
  if (policy === 'on-failure' && verdict === 'pass') return { post: false, reason: 'comment is on-failure and the verdict is pass' };
  return { post: true, reason: policy === 'always' ? 'comment is always' : `comment is on-failure and the verdict is ${verdict}` };
}

export interface StickyOutcome {
  action: 'created' | 'updated' | 'unchanged';
  id: number;
  url: string;
}

export async function upsertStickyComment(poster: CommentPoster, issue: number, marker: string, body: string): Promise<StickyOutcome> {
  if (!body.includes(marker)) throw new Error('internal: the comment body must carry its marker, or the next run cannot find it');
  const me = normalizeLogin(await poster.identity());
  const existing = (await poster.list(issue)).find((c) => normalizeLogin(c.authorLogin) === me && c.body.includes(marker));
  if (!existing) {
    const created = await poster.create(issue, body);
    return { action: 'created', id: created.id, url: created.url };
  }
  if (existing.body === body) return { action: 'unchanged', id: existing.id, url: existing.url };
  const updated = await poster.update(existing.id, body);
  return { action: 'updated', id: updated.id, url: updated.url };
}

/**
 * on-failure and a pass: no new comment, but an earlier ❌ of ours must not stay on the PR as if it
 * still held. It is updated in place to this run's body (the same marker), so the thread shows the
 * latest verdict; undefined when there was none.
 */
export async function refreshStickyComment(
  poster: CommentPoster,
  issue: number,
  marker: string,
  body: string,
): Promise<StickyOutcome | undefined> {
  const me = normalizeLogin(await poster.identity());
  const existing = (await poster.list(issue)).find((c) => normalizeLogin(c.authorLogin) === me && c.body.includes(marker));
  if (!existing) return undefined;
  return upsertStickyComment(poster, issue, marker, body);
}

/** REST says "github-actions[bot]", GraphQL's viewer says "github-actions": compare without the suffix. */
export function normalizeLogin(login: string): string {
  return login.toLowerCase().replace(/\[bot\]$/, '');
}
