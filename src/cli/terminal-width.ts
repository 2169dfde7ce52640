// How wide the CLI's tables may be: COLUMNS when set (the user's or the shell's word), else the
// terminal's width, else 100 (CI logs, pipes), so output reads the same wherever it lands.
import { DEFAULT_WIDTH } from '../report/terminal.ts';

const MIN_WIDTH = 40;

export function terminalWidth(
  env: NodeJS.ProcessEnv = process.env,
  stdout: { isTTY?: boolean; columns?: number } = process.stdout,
): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return Math.max(MIN_WIDTH, fromEnv);
  if (stdout.isTTY && stdout.columns) return Math.max(MIN_WIDTH, stdout.columns);
  return DEFAULT_WIDTH;
}
