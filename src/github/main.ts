// The action's run(): picks the mode (benchmark, or the comment / setup sub-actions, which run
// the same bundle with MESH_PERF_ACTION_MODE set) and is the ONE place that calls setFailed
// and sets the exit code. Helpers throw; nothing below calls process.exit.
import * as core from '@actions/core';
import { runPipeline } from '../pipeline.ts';
import { EXIT, exitCodeOf, messageOf } from '../util/errors.ts';
import { onSecretRegistered, redactText, registerEnvSecrets } from '../util/redact.ts';
import { text } from '../report/markdown-kit.ts';
import { runBenchmark, type BenchmarkDeps, type ModeOutcome } from './run-benchmark.ts';
import { runCommentMode } from './comment-mode.ts';
import { runSetupMode } from './setup-mode.ts';
import { openHistory } from './history.ts';
import { runPublishMode } from './publish-mode.ts';
import { CONFIRM_INPUT, PUBLISH_RESULTS_INPUT } from './inputs.ts';
import { runConfirmMode } from './confirm-mode.ts';

export const MODE_VARIABLE = 'MESH_PERF_ACTION_MODE';

export const defaultDeps: BenchmarkDeps = { runPipeline, openStore: openHistory };

export async function run(env: NodeJS.ProcessEnv = process.env, deps: BenchmarkDeps = defaultDeps): Promise<void> {
  let outcome: ModeOutcome;
  // Every credential the run learns (tokens, secret-named config values, URL passwords) is masked
  // in the job's log as well as redacted from the files (util/redact.ts).
  onSecretRegistered((secret) => core.setSecret(secret));
  registerEnvSecrets(env);
  try {
    const mode =
      env[MODE_VARIABLE] || (core.getInput(PUBLISH_RESULTS_INPUT) ? 'publish' : core.getInput(CONFIRM_INPUT) ? 'confirm' : 'benchmark');
    if (mode === 'comment') outcome = await runCommentMode(env);
    else if (mode === 'confirm') outcome = await runConfirmMode(env);
    else if (mode === 'setup') outcome = await runSetupMode(env);
    else if (mode === 'publish') outcome = await runPublishMode(env);
    else if (mode === 'benchmark') outcome = await runBenchmark(env, deps);
    else
      outcome = {
        exitCode: EXIT.usage,
        failure: `${MODE_VARIABLE}=${mode} is not a mode (expected benchmark, publish, confirm, comment or setup)`,
      };
  } catch (error) {
    outcome = { exitCode: exitCodeOf(error), failure: `mesh-perf: ${messageOf(error)}` };
    await summarizeFailure(outcome.failure!);
  }
  if (outcome.exitCode !== EXIT.pass) {
    core.setFailed(redactText(outcome.failure ?? 'mesh-perf failed'));
    // setFailed sets 1; usage (2) and environment/invalid (3) keep their own codes.
    process.exitCode = outcome.exitCode;
  }
}

/** An error before any results exist still leaves a job summary saying why. */
async function summarizeFailure(message: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  try {
    await core.summary.addRaw(`## mesh-perf · ⚠️ could not run\n\n${text(redactText(message))}\n`).write();
  } catch {
    // The summary is a courtesy here; the failure itself is reported by setFailed.
  }
}
