// Shared by `run` and `demo`: run the pipeline, print the table and where the files are, and
// turn the verdict into an exit code (0 pass, 1 gate failed, 3 invalid).
import { relative } from 'node:path';
import type { Config } from '../config/validate.ts';
import { runPipeline } from '../pipeline.ts';
import { renderTerminalTable } from '../report/terminal.ts';
import { terminalWidth } from './terminal-width.ts';
import { EXIT, MeshPerfError } from '../util/errors.ts';
import type { CommandContext } from './command.ts';
import { referenceLoader } from './reference.ts';

export async function runAndReport(config: Config, context: CommandContext, baseline?: string): Promise<number> {
  const reference = referenceLoader(config, baseline, context.cwd, context.log);
  const outcome = await runPipeline(config, { log: context.log, signal: context.signal, cwd: context.cwd, ...(reference ? { reference } : {}) });
  context.stdout(`\n${renderTerminalTable(outcome.result, { width: terminalWidth(), wide: context.args.switches.has('wide') })}`);
  const show = (path: string) => relative(context.cwd, path) || path;
  context.stdout(`Results: ${show(outcome.files.results)}\nSummary: ${show(outcome.files.summary)}\n${outcome.files.report ? `Report:  ${show(outcome.files.report)}\n` : ''}`);
  if (outcome.error) {
    if (outcome.error instanceof MeshPerfError) throw outcome.error;
    throw new MeshPerfError(outcome.error.message, EXIT.environment);
  }
  if (outcome.result.verdict === 'fail') return EXIT.gateFailed;
  if (outcome.result.verdict === 'invalid') return EXIT.environment;
  return EXIT.pass;
}
