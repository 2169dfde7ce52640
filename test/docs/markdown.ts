// Headings and links of a markdown page as GitHub renders them: a heading's anchor is GitHub's slug
// (lower case, punctuation but '-' and '_' dropped, spaces to '-', a repeated slug numbered '-1',
// '-2'), and neither headings nor links count inside fenced code blocks.

/** The text of every line outside ``` fences (fenced lines become empty, so line numbers hold). */
function outsideFences(page: string): string[] {
  let fenced = false;
  return page.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/<[^>]*>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export interface Heading {
  level: number;
  text: string;
  anchor: string;
}

export function headings(page: string): Heading[] {
  const seen = new Map<string, number>();
  return outsideFences(page).flatMap((line) => {
    const m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) return [];
    const base = slug(m[2]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return [{ level: m[1]!.length, text: m[2]!, anchor: n === 0 ? base : `${base}-${n}` }];
  });
}

export interface Link {
  line: number;
  target: string;
}

/** Every inline link and image target `[text](target)` outside code blocks and code spans. */
export function links(page: string): Link[] {
  return outsideFences(page).flatMap((line, i) =>
    [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({ line: i + 1, target: m[1]! })),
  );
}
