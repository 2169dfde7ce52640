// Every CLI command, in the order `mesh-perf --help` lists them. Add a command: create
// src/cli/commands/<name>.ts exporting `command`, then add one import and one entry here.
import type { Command } from './command.ts';
import { command as demo } from './commands/demo.ts';
import { command as init } from './commands/init.ts';
import { command as run } from './commands/run.ts';
import { command as plan } from './commands/plan.ts';
import { command as compare } from './commands/compare.ts';
import { command as calibrate } from './commands/calibrate.ts';
import { command as presets } from './commands/presets.ts';
import { command as publish } from './commands/publish.ts';
import { command as report } from './commands/report.ts';
import { command as confirm } from './commands/confirm.ts';
import { command as up } from './commands/up.ts';
import { command as down } from './commands/down.ts';

export const COMMANDS: Command[] = [demo, init, run, plan, compare, calibrate, presets, publish, confirm, report, up, down];
