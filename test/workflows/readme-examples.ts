// The workflow examples in README.md, read from the README itself so tests that run or lint them
// cannot drift from what users copy: every ```yaml block that is a whole workflow (has `on:` and
// `jobs:`), with the line it starts on.
import { parse } from 'yaml';

export interface ReadmeExample {
  /** 1-based line of the block's first YAML line. */
  line: number;
  text: string;
}

export function readmeWorkflows(readme: string): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```yaml\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const text = lines
      .slice(start, end)
      .map((l) => l.slice(indent))
      .join('\n');
    i = end;
    const doc = parse(text) as unknown;
    if (doc && typeof doc === 'object' && !Array.isArray(doc) && 'on' in doc && 'jobs' in doc)
      examples.push({ line: start + 1, text: `${text}\n` });
  }
  return examples;
}
