// `mesh-perf run` with history.publish: true (or --publish true): the finished run goes to
// history.store through the same publishRuns as `mesh-perf publish`, with history.branch, keep,
// keepTimelines, adopt and gates.changePoint from the config. Without a store there is nowhere to
// publish: `plan` and `run` refuse that before any load (publishProblems).
import type { Config, ConfigProblem } from '../config/validate.ts';
import { publishRuns, refusedRuns } from '../history/publish-runs.ts';
import { storeFromFlags, storeToken } from '../history/store-options.ts';
import type { RunResult } from '../results/types.ts';
import { EnvironmentError, messageOf, MeshPerfError } from '../util/errors.ts';
import type { CommandContext } from './command.ts';
import { invocation } from './invocation.ts';

/** history.publish without history.store: the CLI has no repository of its own to fall back on (the action has). */
export function publishProblems(config: Config): ConfigProblem[] {
  if (!config.history.publish || config.history.store) return [];
  return [
    {
      path: 'history.publish',
      message: 'true needs history.store (a git URL, a repository or a folder; or --history-store) to publish the run to',
    },
  ];
}

/**
 * Publishes `result` (written to `resultsPath`) when the config asks for it; returns the
 * change-point gate's exit code (1 when it failed, else 0). A run that does not belong in history
 * is left out with a warning; a publish that fails is an environment problem (exit 3) whose
 * message says how to publish the written results later.
 */
export async function publishAfterRun(config: Config, result: RunResult, resultsPath: string, context: CommandContext): Promise<0 | 1> {
  if (!config.history.publish || !config.history.store) return 0;
  const refused = refusedRuns([result]);
  if (refused.length > 0) {
    context.log.warn(`not published: this run is ${refused[0]!.reason}`);
    return 0;
  }
  const { history } = config;
  try {
    const store = storeFromFlags(
      {},
      {
        store: history.store,
        branch: history.branch,
        ...(history.keep ? { keep: history.keep } : {}),
        ...(history.keepTimelines ? { keepTimelines: history.keepTimelines } : {}),
        adopt: history.adopt,
      },
      storeToken(process.env),
      context.log,
      context.cwd,
    );
    const report = await publishRuns(
      store,
      [result],
      { mode: config.gates.changePoint, minEffectPct: config.gates.regression.minEffectPct, confirm: config.confirm.changePoints },
      context.log,
    );
    context.stdout(`Published: ${report.lines.join('\n')}\n`);
    return report.exitCode;
  } catch (error) {
    const later = `${invocation()} publish --results ${resultsPath} --store ${history.store}`;
    const code = error instanceof MeshPerfError ? error.exitCode : 3;
    const message = `not published to ${history.store}: ${messageOf(error)}; the results are complete, publish them later with: ${later}`;
    throw code === 3 ? new EnvironmentError(message) : new MeshPerfError(message, code);
  }
}
