// Every CLI command, in the order `mesh-perf --help` lists them. Add a command: create
// src/cli/commands/<name>.ts exporting `command`, then add one import and one entry here.
import type { Command } from './command.ts';

export const COMMANDS: Command[] = [];
