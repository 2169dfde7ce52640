// A markdown body (a PR comment, a job summary) as GitHub shows it: rendered as GitHub Flavored
// Markdown (tables, raw <details>/<sub>, task lists) by `marked`, styled with GitHub's own
// markdown stylesheet (github-markdown-css, light theme), in a frame like the one GitHub draws
// around a comment or a job summary. Close enough to judge layout and legibility; GitHub's own
// renderer also sanitizes HTML, which these bodies do not need (they hold only details, summary,
// sub and comments).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { marked } from 'marked';
import { escapeHtml } from '../../src/report/html/escape.ts';

const require = createRequire(import.meta.url);

/** The stylesheet's text; its path also feeds the pictures' freshness hash. */
export const GITHUB_MARKDOWN_CSS = require.resolve('github-markdown-css/github-markdown-light.css');

export type Frame = { kind: 'comment'; author: string } | { kind: 'summary'; job: string };

/** A standalone HTML page showing `markdown` in GitHub's comment or job-summary frame. */
export function githubMarkdownPage(markdown: string, frame: Frame, width: number): string {
  const body = marked.parse(markdown, { gfm: true, async: false });
  const header =
    frame.kind === 'comment'
      ? `<div class="head"><span class="avatar"></span><b>${escapeHtml(frame.author)}</b> <span class="bot">bot</span> commented</div>`
      : `<div class="head summary"><b>${escapeHtml(frame.job)}</b> summary</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${frame.kind}</title>
<style>${readFileSync(GITHUB_MARKDOWN_CSS, 'utf8')}</style>
<style>
  body { margin: 0; padding: 16px; background: #ffffff; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
  .frame { width: ${width}px; border: 1px solid #d1d9e0; border-radius: 6px; overflow: hidden; }
  .head { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; font-size: 14px; color: #59636e; display: flex; align-items: center; gap: 6px; }
  .head b { color: #1f2328; }
  .head.summary b { font-size: 16px; }
  .avatar { width: 20px; height: 20px; border-radius: 50%; background: #2da44e; display: inline-block; }
  .bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 6px; font-size: 12px; }
  .markdown-body { padding: 16px 24px; font-size: 14px; }
</style></head>
<body><div class="frame">${header}<article class="markdown-body">${body}</article></div></body></html>
`;
}
