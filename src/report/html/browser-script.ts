// The browser scripts (report/html/client.js, site/dashboard/client.js) are real JavaScript files,
// type-checked by `tsc -p tsconfig.browser.json`. Their leading `//` lines (// @ts-check and the
// file's comment) are for readers of the source; pages inline what follows, after a newline.
export function inlineScript(source: string): string {
  const lines = source.split('\n');
  let first = 0;
  while (first < lines.length && lines[first]!.startsWith('//')) first++;
  return `\n${lines.slice(first).join('\n')}`;
}
