// Writes a run's files: results.json (the contract), summary.md, and whatever renderers add.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from './types.ts';
import { makeDirectory } from '../util/make-directory.ts';

export interface WrittenFiles {
  results: string;
  summary: string;
  report?: string;
  extra: string[];
}

export async function writeRunFiles(
  outDir: string,
  result: RunResult,
  rendered: { summaryMarkdown: string; reportHtml?: string },
  extraFiles: Record<string, string> = {},
): Promise<WrittenFiles> {
  await makeDirectory(outDir);
  const files: WrittenFiles = { results: join(outDir, 'results.json'), summary: join(outDir, 'summary.md'), extra: [] };
  await writeFile(files.results, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(files.summary, rendered.summaryMarkdown);
  if (rendered.reportHtml !== undefined) {
    files.report = join(outDir, 'report.html');
    await writeFile(files.report, rendered.reportHtml);
  }
  for (const [name, content] of Object.entries(extraFiles)) {
    const path = join(outDir, name.replace(/[/\\]/g, '_'));
    await writeFile(path, content);
    files.extra.push(path);
  }
  return files;
}
