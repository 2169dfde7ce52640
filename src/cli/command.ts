// Shape of one CLI command. Each command lives in src/cli/commands/<name>.ts and is listed in
// src/cli/registry.ts; src/cli.ts parses argv, prints --help and maps errors to exit codes.
import type { Logger } from '../util/log.ts';

export interface OptionSpec {
  /** Long name without dashes: "config" for --config. */
  name: string;
  /** Takes a value (--out DIR) or is a switch (--json). */
  value?: string;
  description: string;
  /** May be given more than once; values are collected. */
  repeatable?: boolean;
}

export interface ParsedArgs {
  positionals: string[];
  options: Record<string, string | undefined>;
  switches: Set<string>;
  lists: Record<string, string[]>;
}

export interface CommandContext {
  args: ParsedArgs;
  log: Logger;
  /** Results and tables; stderr carries progress. */
  stdout: (text: string) => void;
  signal: AbortSignal;
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  /** Usage line after `mesh-perf `, e.g. "run [--config FILE] [--out DIR]". */
  usage: string;
  positionals?: { name: string; description: string; required: boolean }[];
  options: OptionSpec[];
  /** Extra help text: examples, notes. */
  details?: string;
  /** Returns the exit code (0 pass, 1 gate failed). Throws MeshPerfError for 2 and 3. */
  run(context: CommandContext): Promise<number>;
}
