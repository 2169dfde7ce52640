// One repetition: render the script, run k6 through the platform's runner, parse the summary,
// and judge validity. Errors name the cause with k6's stderr tail.
import { isAbsolute, resolve } from 'node:path';
import type { Trial } from '../plan/plan.ts';
import type { Repetition } from '../results/types.ts';
import { EnvironmentError, UsageError } from '../util/errors.ts';
import type { K6Invocation, K6Progress, LoadRunner, ModeTarget } from './types.ts';
import { K6_ERROR_CODES, renderScript, SUMMARY_FILE } from './script.ts';
import { renderUserScriptWrapper, unreachableImport, USER_WRAPPER } from './user-script.ts';
import { iterationMs, parseSummary, scriptThresholds, SummaryFormatError } from './summary.ts';
import { invalidReasons } from './validity.ts';
import { measuredWindow } from './window.ts';
import type { MeasuredWindow } from './types.ts';

/** k6's exit code when the script's own thresholds failed: the data is still good. */
const K6_THRESHOLDS_FAILED = 99;
const K6_SCRIPT_ERRORS = new Set([104, 107, 108]);

export class CancelledError extends EnvironmentError {
  constructor() {
    super('the run was cancelled; partial results were written with verdict "invalid"');
    this.name = 'CancelledError';
  }
}

export interface RepetitionRun {
  repetition: Repetition;
  /** Files the user's own handleSummary wrote, to be saved beside results.json. */
  extraFiles: Record<string, string>;
  /** When the measured scenario ran, for the resource sampler; undefined when k6 did not say. */
  window?: MeasuredWindow;
}

export function buildInvocation(trial: Trial, target: ModeTarget, cwd: string): K6Invocation {
  const profile = trial.profile;
  const env: Record<string, string> = {
    ...target.env,
    MESH_PERF_MODE: target.mode,
    MESH_PERF_REPETITION: String(trial.repetition),
  };
  if (target.url) env.MESH_PERF_URL = target.url;
  if (target.grpc) env.MESH_PERF_GRPC = target.grpc;
  const expectedSeconds = (profile.warmupMs + profile.durationMs) / 1000;
  if (profile.script) {
    const scriptPath = isAbsolute(profile.script) ? profile.script : resolve(cwd, profile.script);
    return {
      files: { [USER_WRAPPER]: renderUserScriptWrapper(scriptPath) },
      entry: USER_WRAPPER,
      args: [],
      env,
      summaryFile: SUMMARY_FILE,
      expectedSeconds,
      workDir: scriptPath,
    };
  }
  const script = renderScript(profile, target);
  env.MESH_PERF_PARAMS = JSON.stringify(script.params);
  return { files: script.files, entry: script.entry, args: [], env, summaryFile: SUMMARY_FILE, expectedSeconds };
}

export async function runRepetition(
  trial: Trial,
  target: ModeTarget,
  runner: LoadRunner,
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
  cwd = process.cwd(),
): Promise<RepetitionRun> {
  const invocation = buildInvocation(trial, target, cwd);
  const startedAt = new Date().toISOString();
  let outcome;
  try {
    outcome = await runner.run(invocation, onProgress, signal);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new EnvironmentError(`k6 could not be started${code ? ` (${code})` : ''}: ${(error as Error).message}`);
  }
  if (signal.aborted) throw new CancelledError();
  const where = `mode "${trial.mode.name}", repetition ${trial.repetition}`;
  if (!outcome.summary) {
    const tail = outcome.stderrTail ? `\nk6 said:\n${indent(outcome.stderrTail)}` : '';
    const remote = unreachableImport(outcome.stderrTail);
    if (remote && trial.profile.script) {
      throw new UsageError(
        `k6 could not fetch the remote module ${remote} imported by ${trial.profile.script} (${where}); vendor it next to the script or make it reachable.${tail}`,
      );
    }
    if (K6_SCRIPT_ERRORS.has(outcome.exitCode)) {
      throw new UsageError(
        `the k6 script failed (${where}, k6 exit code ${outcome.exitCode})${trial.profile.script ? ` in ${trial.profile.script}` : ''}.${tail}`,
      );
    }
    throw new EnvironmentError(`k6 exited with code ${outcome.exitCode} without a summary (${where}).${tail}`);
  }
  if (outcome.exitCode !== 0 && outcome.exitCode !== K6_THRESHOLDS_FAILED) {
    throw new EnvironmentError(`k6 exited with code ${outcome.exitCode} (${where}).\nk6 said:\n${indent(outcome.stderrTail)}`);
  }
  let measurement;
  try {
    measurement = parseSummary(outcome.summary);
  } catch (error) {
    if (error instanceof SummaryFormatError) throw new EnvironmentError(`${error.message} (${where})`);
    throw error;
  }
  const targetRps = trial.profile.model === 'open' && trial.profile.rate !== undefined && !trial.profile.script ? trial.profile.rate : null;
  const reasons = invalidReasons({
    targetRps,
    ...measurement,
    timeouts: measurement.errorCauses?.[K6_ERROR_CODES[1050]!] ?? 0,
    timeoutMs: trial.profile.timeoutMs,
  });
  const thrown = scriptException(outcome.stderrTail);
  if (thrown) reasons.push(`the script threw during iterations: ${thrown}`);
  const repetition: Repetition = {
    trial: trial.index,
    block: trial.block,
    round: trial.round,
    startedAt,
    targetRps,
    ...measurement,
    scriptThresholds: scriptThresholds(outcome.summary),
    valid: reasons.length === 0,
    invalidReasons: reasons,
  };
  if (repetition.scriptThresholds === undefined) delete repetition.scriptThresholds;
  const iterations = iterationMs(outcome.summary);
  if (iterations) repetition.iterationMs = iterations;
  return { repetition, extraFiles: outcome.extraFiles, window: measuredWindow(outcome.summary, trial.profile) };
}

/** First exception k6 logged from inside an iteration (k6 keeps running after those). */
function scriptException(stderr: string): string | undefined {
  const line = stderr.split('\n').find((l) => l.includes('source=stacktrace'));
  const message = line && /msg="([^"\\]*(?:\\.[^"\\]*)*)"/.exec(line)?.[1];
  return message?.split('\\n')[0];
}

function indent(text: string): string {
  return text
    .split('\n')
    .slice(-15)
    .map((line) => `  ${line}`)
    .join('\n');
}
