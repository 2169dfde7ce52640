// Escaping for the HTML renderers. Everything that came from a results file (mode names, reasons,
// environment values, a user's config) is text, never markup.
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;

export function escapeHtml(value: unknown): string {
  const text = String(value ?? '');
  // Most values (numbers, timestamps, mode names) hold nothing to escape: a test is cheaper than a
  // replace with a callback, which counts across a 100,000-row repetitions table.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!) : text;
}

/** JSON safe inside <script type="application/json">: no "</script>", no HTML comment openers. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A library's source inlined in a <script> element: "</script" inside it would end the element. */
export function inlineScriptSource(source: string): string {
  return source.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}
