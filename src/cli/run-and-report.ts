// Shared by `run` and `demo`: run the pipeline, print the table and where the files are, publish
// the run when history.publish says so, and turn the verdict into an exit code (exitCodeFor: 0 pass, 1 gate failed, 3 invalid; inconclusive
// 0, or 1 under gates.regression.inconclusive: fail).
import { relative } from 'node:path';
import type { Config } from '../config/validate.ts';
import { runPipeline } from '../pipeline.ts';
import type { RunResult } from '../results/types.ts';
import { renderTerminalTable } from '../report/terminal.ts';
import { buildRunView } from '../report/view.ts';
import { exitCodeFor } from '../analysis/verdict.ts';
import { terminalWidth } from './terminal-width.ts';
import { EXIT, MeshPerfError } from '../util/errors.ts';
import type { CommandContext } from './command.ts';
import { referenceLoader } from './reference.ts';
import { publishAfterRun } from './publish-after-run.ts';

export async function runAndReport(config: Config, context: CommandContext, baseline?: string): Promise<number> {
  const reference = referenceLoader(config, baseline, context.cwd, context.log);
  const outcome = await runPipeline(config, {
    log: context.log,
    signal: context.signal,
    cwd: context.cwd,
    ...(reference ? { reference } : {}),
  });
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const shown = outcome.error ? withErrorBelow(outcome.result) : outcome.result;
  context.stdout(
    `\n${renderTerminalTable(buildRunView(shown), { color, width: terminalWidth(), wide: context.args.switches.has('wide') })}`,
  );
  const show = (path: string) => relative(context.cwd, path) || path;
  context.stdout(
    `Results: ${show(outcome.files.results)}\nSummary: ${show(outcome.files.summary)}\n${outcome.files.report ? `Report:  ${show(outcome.files.report)}\n` : ''}`,
  );
  if (outcome.error) {
    if (outcome.error instanceof MeshPerfError) throw outcome.error;
    throw new MeshPerfError(outcome.error.message, EXIT.environment);
  }
  const verdictCode = exitCodeFor(outcome.result.verdict, config.gates.regression.inconclusive);
  // history.publish: the run goes to the store as `mesh-perf publish` would put it there.
  const changePointCode = await publishAfterRun(config, outcome.result, show(outcome.files.results), context);
  const code = verdictCode === EXIT.pass && changePointCode === EXIT.gateFailed ? EXIT.gateFailed : verdictCode;
  // An unreachable store is an environment problem (exit 3), printed below the table; a gate that
  // failed on what was measured still says so (exit 1).
  if (outcome.comparisonSkipped && code !== EXIT.gateFailed) {
    throw new MeshPerfError(
      `${outcome.comparisonSkipped.message}; the comparison with past runs was skipped (results above and in ${show(outcome.files.results)} are complete)`,
      EXIT.environment,
    );
  }
  return code;
}

/**
 * The error that ended a run is printed once, in full, by main() below the table (with its exit
 * code); the table's verdict points there instead of repeating it cut to the width.
 * results.json and summary.md keep the reason as it is.
 */
function withErrorBelow(result: RunResult): RunResult {
  const reason = `run ended early: ${result.run.aborted}`;
  return {
    ...result,
    verdictReasons: result.verdictReasons.map((r) => (r === reason ? 'run ended early (the error is printed below)' : r)),
  };
}
