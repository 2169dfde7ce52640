// What the benches that run in pieces on a shared machine share: a JSON-lines file that every
// measurement is appended to as it happens (a piece stopped or killed loses nothing), the machine's
// load beside each, and the commit of the code that measured.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function appendJsonLine(file: string, line: unknown): void {
  appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** The 1-minute load average, two decimals. */
export const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

/** The commit this piece runs (with "+" when the working tree's src/ differs from it). */
export function codeVersion(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no', '--', 'src') === '' ? '' : '+'}`;
  } catch {
    return 'unknown';
  }
}
