// Small markdown helpers shared by the job summary and the PR comment. Every string that comes
// from results (which, in the fork-safe workflow, is an untrusted artifact) goes through text()
// so it cannot open HTML, fake our hidden marker, @mention people or break a table.

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

/** Milliseconds with about three significant digits: 0.412, 2.43, 12.4, 245. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  const abs = Math.abs(value);
  if (abs === 0) return '0';
  if (abs < 1) return value.toFixed(3);
  if (abs < 10) return value.toFixed(2);
  if (abs < 100) return value.toFixed(1);
  return value.toFixed(0);
}

export function signedMs(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${ms(Math.abs(value))}`;
}

export function signedPct(fraction: number | undefined): string {
  if (fraction === undefined || !Number.isFinite(fraction)) return '–';
  const pct = fraction * 100;
  const digits = Math.abs(pct) < 10 ? 1 : 0;
  return `${pct > 0 ? '+' : pct < 0 ? '−' : '±'}${Math.abs(pct).toFixed(digits)}%`;
}

export function rps(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

/** Byte length of a string as GitHub's job summary limit counts it. */
export function utf8Bytes(value: string): number {
  return new TextEncoder().encode(value).length;
}
