// The examples in README.md and docs/*.md, read from the pages themselves so tests that run or
// lint them cannot drift from what users copy.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** README.md and every docs/*.md page, as paths relative to the repository root. */
export function documentationPages(root: string): string[] {
  const docs = existsSync(join(root, 'docs'))
    ? readdirSync(join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .sort()
        .map((f) => `docs/${f}`)
    : [];
  return ['README.md', ...docs];
}

export interface DocExample {
  /** 1-based line of the block's first YAML line. */
  line: number;
  text: string;
}

export interface YamlBlock extends DocExample {
  kind: 'workflow' | 'jobs' | 'steps' | 'other';
}

/** Every ```yaml block that is a whole workflow (has `on:` and `jobs:`). */
export function workflowExamples(page: string): DocExample[] {
  return yamlBlocks(page)
    .filter((b) => b.kind === 'workflow')
    .map(({ line, text }) => ({ line, text }));
}

/**
 * Every workflow example of a page as a whole workflow a linter or engine accepts: whole workflows as they
 * are, a `jobs:` fragment under `on: workflow_dispatch`, a list of steps as one job's steps.
 * Blocks that are not workflow YAML (a mesh-perf.yaml config) are left out.
 */
export function workflowExampleTexts(page: string): DocExample[] {
  return yamlBlocks(page).flatMap((b): DocExample[] => {
    if (b.kind === 'workflow') return [{ line: b.line, text: b.text }];
    if (b.kind === 'jobs') return [{ line: b.line, text: `on: workflow_dispatch\npermissions: {}\n${b.text}` }];
    if (b.kind === 'steps') {
      const steps = b.text
        .trimEnd()
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n');
      const job = 'jobs:\n  example:\n    runs-on: ubuntu-latest\n    steps:\n';
      return [{ line: b.line, text: `on: workflow_dispatch\npermissions: {}\n${job}${steps}\n` }];
    }
    return [];
  });
}

/** Every ```yaml block of a page, with its first line and what kind of YAML it is. */
export function yamlBlocks(page: string): YamlBlock[] {
  const blocks: YamlBlock[] = [];
  const lines = page.split('\n');
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
    const isMap = doc !== null && typeof doc === 'object' && !Array.isArray(doc);
    const isSteps = Array.isArray(doc) && doc.every((s) => s !== null && typeof s === 'object' && ('uses' in s || 'run' in s));
    const kind = isMap && 'on' in doc && 'jobs' in doc ? 'workflow' : isMap && 'jobs' in doc ? 'jobs' : isSteps ? 'steps' : 'other';
    blocks.push({ line: start + 1, text: `${text}\n`, kind });
  }
  return blocks;
}
