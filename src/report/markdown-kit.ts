// The one markdown kit of every markdown output: summary.md, the exports' table, the job summary
// and the PR comment. Every string that comes from results (which, in the fork-safe workflow, is
// an untrusted artifact) goes through text() so it cannot open HTML, fake our hidden marker,
// @mention people or break a table. Numbers come from numbers.ts.

/** Escapes a plain string for a GFM table cell or paragraph. */
export function text(value: unknown): string {
  // Markdown punctuation first, then HTML entities: the entities' own '#' must stay unescaped.
  return String(value ?? '')
    .replace(/[\r\n]+/g, ' ')
    .replace(/([\\`*_[\]|#~!])/g, '\\$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@/g, '&#64;');
}

/** Inline code that cannot be broken out of (backticks removed). */
export function code(value: unknown): string {
  const clean = String(value ?? '')
    .replace(/[`\r\n]/g, ' ')
    .trim();
  return clean ? `\`${clean}\`` : '';
}

export function table(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => (align?.[i] === 'r' ? '---:' : '---'));
  return [row(header), row(sep), ...rows.map(row)].join('\n');
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

export function details(summary: string, body: string, open = false): string {
  // GFM renders markdown inside <details> only with a blank line after </summary>.
  return `<details${open ? ' open' : ''}><summary>${summary}</summary>\n\n${body}\n\n</details>`;
}

export function link(label: string, url: string | undefined): string {
  if (!url || !/^https?:\/\/[^\s()<>]+$/.test(url)) return label;
  return `[${label}](${url})`;
}

/** Byte length of a string as GitHub's job summary limit counts it. */
export function utf8Bytes(value: string): number {
  return new TextEncoder().encode(value).length;
}
