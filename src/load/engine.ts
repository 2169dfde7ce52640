// One repetition: render the script, run k6 through the platform's runner, parse the summary,
// and judge validity. Errors name the cause with k6's stderr tail.
import { constants } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { Trial } from '../plan/plan.ts';
import type { Repetition } from '../results/types.ts';
import { EnvironmentError, UsageError } from '../util/errors.ts';
import type { K6Invocation, K6Outcome, K6Progress, LoadRunner, ModeTarget } from './types.ts';
import { chooseGenerators } from './ceiling.ts';
import { type InstanceResult, mergeInstances } from './merge.ts';
import { csvOutputArg } from './raw-samples.ts';
import { executionSegments, segmentArgs } from './segments.ts';
import { timelineBucketMs } from './timeline.ts';
import type { ArrivalEngine, RenderOptions } from './pacer-params.ts';
import { K6_ENGINE_ARGS, K6_ERROR_CODES, renderScript, SUMMARY_FILE } from './script.ts';
import { renderUserScriptWrapper, unreachableImport, USER_WRAPPER } from './user-script.ts';
import { iterationMs, type Measurement, parseSummary, scriptThresholds, SummaryFormatError } from './k6-summary.ts';
import { invalidReasons } from './validity.ts';
import { measuredStartMs, measuredWindow } from './window.ts';
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

export function buildInvocation(trial: Trial, target: ModeTarget, cwd: string, options: RenderOptions = {}): K6Invocation {
  const profile = trial.profile;
  const env: Record<string, string> = {
    ...target.env,
    MESH_PERF_MODE: target.mode,
    MESH_PERF_REPETITION: String(trial.repetition),
  };
  if (target.url) env.MESH_PERF_URL = target.url;
  if (target.grpc) env.MESH_PERF_GRPC = target.grpc;
  if (profile.script) {
    const scriptPath = isAbsolute(profile.script) ? profile.script : resolve(cwd, profile.script);
    return {
      files: { [USER_WRAPPER]: renderUserScriptWrapper(scriptPath) },
      entry: USER_WRAPPER,
      args: [],
      env,
      summaryFile: SUMMARY_FILE,
      expectedSeconds: (profile.warmupMs + profile.durationMs) / 1000,
      workDir: scriptPath,
    };
  }
  const script = renderScript(profile, target, options);
  env.MESH_PERF_PARAMS = JSON.stringify(script.params);
  const expectedSeconds = (measuredStartMs(profile.warmupMs) + profile.durationMs) / 1000;
  return { files: script.files, entry: script.entry, args: [...K6_ENGINE_ARGS], env, summaryFile: SUMMARY_FILE, expectedSeconds };
}

/** One repetition as `load.generators` k6 instances: the count decideGenerators gave the trial's profile. */
export async function runRepetition(
  trial: Trial,
  target: ModeTarget,
  runner: LoadRunner,
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
  load: { generators: number; cwd?: string; engine?: ArrivalEngine },
): Promise<RepetitionRun> {
  const generators = load.generators;
  const invocation = buildInvocation(trial, target, load.cwd ?? process.cwd(), {
    engine: load.engine ?? 'arrival-rate',
    instances: generators,
  });
  if (generators > 1) return runGroupRepetition(trial, invocation, generators, runner, onProgress, signal);
  const startedAt = new Date().toISOString();
  let outcome;
  try {
    outcome = await runner.run(invocation, onProgress, signal);
  } catch (error) {
    throw notStarted(error);
  }
  if (signal.aborted) throw new CancelledError();
  const where = `mode "${trial.mode.name}", repetition ${trial.repetition}`;
  if (!outcome.summary) throw noSummary(trial, outcome, where);
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
  const thrown = scriptException(outcome.stderrTail);
  const repetition = judgedRepetition(trial, startedAt, measurement, {
    exceptions: thrown ? [`the script threw during iterations: ${thrown}`] : [],
  });
  const thresholds = scriptThresholds(outcome.summary);
  if (thresholds !== undefined) repetition.scriptThresholds = thresholds;
  const iterations = iterationMs(outcome.summary);
  if (iterations) repetition.iterationMs = iterations;
  return { repetition, extraFiles: outcome.extraFiles, window: measuredWindow(outcome.summary, trial.profile) };
}

/**
 * How many k6 instances run each profile's repetitions, decided once per run, after the platform
 * has prepared and so can say where instances can run (runner.capacity): load.generators, with
 * "auto" resolved against that capacity. Every trial of a profile then runs that many. A runner
 * that starts one process per repetition refuses a count above 1 here, before any load.
 */
export function decideGenerators(profiles: readonly Trial['profile'][], runner: LoadRunner): ReadonlyMap<string, number> {
  const capacity = runner.capacity?.();
  const counts = new Map<string, number>();
  for (const profile of profiles) {
    const count = chooseGenerators(profile, capacity).count;
    if (count > 1 && !runner.runGroup) throw noGroupRunner(count, profile);
    counts.set(profile.name, count);
  }
  return counts;
}

function noGroupRunner(count: number, profile: Trial['profile']): UsageError {
  return new UsageError(
    `load.generators asks for ${count} k6 instances (profile "${profile.name}"), but this platform runs one k6 process per repetition; set load.generators: 1`,
  );
}

/** The file each instance of a group writes its raw samples to (`--out csv`), beside its script. */
export const RAW_FILE = 'mesh-perf-raw.csv';

/**
 * One invocation per instance: the same script, its own slice of the schedule, raw samples kept.
 * Our scripts' rows carry only ENGINE_SYSTEM_TAGS (K6_ENGINE_ARGS, already in the base's args):
 * k6 writes every tag of every sample into the CSV, and narrowed a request's rows shrink from
 * ~1,540 to ~900 bytes and their CPU cost from +14% to +6% (bench/generators).
 */
export function groupInvocations(base: K6Invocation, count: number): K6Invocation[] {
  return executionSegments(count).map((slice) => ({
    ...base,
    args: [...base.args, ...segmentArgs(slice), '--out', csvOutputArg(RAW_FILE)],
    instance: slice,
    rawFile: RAW_FILE,
  }));
}

/**
 * A repetition run as N k6 instances (load.generators > 1): k6 splits the schedule with
 * execution segments, the runner starts them together, and the merge takes percentiles of the
 * union of their raw samples. Valid only when every instance did its part.
 */
async function runGroupRepetition(
  trial: Trial,
  invocation: K6Invocation,
  count: number,
  runner: LoadRunner,
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
): Promise<RepetitionRun> {
  const profile = trial.profile;
  const where = `mode "${trial.mode.name}", repetition ${trial.repetition}`;
  if (!runner.runGroup) throw noGroupRunner(count, profile);
  const startedAt = new Date().toISOString();
  let outcomes: K6Outcome[];
  try {
    outcomes = await runner.runGroup(groupInvocations(invocation, count), onProgress, signal);
  } catch (error) {
    throw notStarted(error);
  }
  if (signal.aborted) throw new CancelledError();
  // Nothing to merge when no instance got as far as a summary: the same errors as one process.
  const first = outcomes.find((o) => !o.stoppedBecause) ?? outcomes[0]!;
  if (outcomes.every((o) => !o.summary)) throw noSummary(trial, first, `${where}, ${first.where ?? 'k6 instance 1'}`);
  const slices = executionSegments(count);
  const results: InstanceResult[] = outcomes.map((outcome, i) => instanceResult(outcome, i, slices[i]!, profile));
  const merged = mergeInstances(results, { durationS: profile.durationMs / 1000, bucketMs: timelineBucketMs(profile.durationMs) });
  const thrown = outcomes.flatMap((outcome) => {
    const message = scriptException(outcome.stderrTail);
    return message ? [`the script threw during iterations (${outcome.where}): ${message}`] : [];
  });
  const repetition = judgedRepetition(trial, startedAt, merged.measurement, { causes: merged.reasons, exceptions: thrown });
  repetition.instances = merged.instances;
  if (merged.iterationMs) repetition.iterationMs = merged.iterationMs;
  const extraFiles = Object.assign({}, ...outcomes.map((o) => o.extraFiles)) as Record<string, string>;
  return { repetition, extraFiles, ...(merged.window ? { window: merged.window } : {}) };
}

/**
 * A repetition from its measurement, judged: valid only when the measurement meets the schedule
 * and nothing else is wrong. `causes` (an instance that crashed) come first, since they explain
 * the rest; script exceptions last. The target rate is the open model's, unless a user script
 * sets its own schedule.
 */
function judgedRepetition(
  trial: Trial,
  startedAt: string,
  measurement: Measurement,
  { causes = [], exceptions = [] }: { causes?: string[]; exceptions?: string[] },
): Repetition {
  const profile = trial.profile;
  const targetRps = profile.model === 'open' && profile.rate !== undefined && !profile.script ? profile.rate : null;
  const reasons = [
    ...causes,
    ...invalidReasons({
      targetRps,
      ...measurement,
      timeouts: measurement.errorCauses?.[K6_ERROR_CODES[1050]!] ?? 0,
      timeoutMs: profile.timeoutMs,
    }),
    ...exceptions,
  ];
  return {
    trial: trial.index,
    block: trial.block,
    round: trial.round,
    startedAt,
    targetRps,
    ...measurement,
    valid: reasons.length === 0,
    invalidReasons: reasons,
  };
}

function instanceResult(outcome: K6Outcome, i: number, slice: InstanceResult['slice'], profile: Trial['profile']): InstanceResult {
  const result: InstanceResult = {
    where: outcome.where ?? `k6 instance ${i + 1} of ${slice.count}`,
    slice,
    exitCode: outcome.exitCode,
    problems: [],
  };
  const problems = result.problems;
  if (outcome.stoppedBecause) problems.push(`was stopped because ${outcome.stoppedBecause}`);
  else if (outcome.exitCode !== 0 && outcome.exitCode !== K6_THRESHOLDS_FAILED) {
    const said = lastLine(outcome.stderrTail);
    const signal = outcome.exitCode > 128 ? signalName(outcome.exitCode - 128) : undefined;
    problems.push(`exited with code ${outcome.exitCode}${signal ? ` (killed by ${signal})` : ''}${said && !signal ? `: ${said}` : ''}`);
  }
  if (!outcome.summary) problems.push('wrote no summary');
  else {
    try {
      result.measurement = parseSummary(outcome.summary);
      const window = measuredWindow(outcome.summary, profile);
      if (window) result.window = window;
    } catch (error) {
      problems.push(`wrote a summary that cannot be read: ${(error as Error).message}`);
    }
  }
  if (outcome.raw) result.raw = outcome.raw;
  else if (outcome.summary) problems.push("left no readable raw samples (k6's --out csv file)");
  return result;
}

function signalName(n: number): string | undefined {
  return Object.entries(constants.signals).find(([, value]) => value === n)?.[0];
}

function lastLine(text: string): string {
  const line = text.trim().split('\n').at(-1) ?? '';
  return /msg="([^"\\]*(?:\\.[^"\\]*)*)"/.exec(line)?.[1] ?? line.slice(0, 200);
}

function notStarted(error: unknown): Error {
  if (error instanceof EnvironmentError || error instanceof UsageError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new EnvironmentError(`k6 could not be started${code ? ` (${code})` : ''}: ${(error as Error).message}`);
}

/** Why k6 left no summary, as an error: the script's fault (exit 2) or the environment's (exit 3). */
function noSummary(trial: Trial, outcome: K6Outcome, where: string): Error {
  const tail = outcome.stderrTail ? `\nk6 said:\n${indent(outcome.stderrTail)}` : '';
  const remote = unreachableImport(outcome.stderrTail);
  if (remote && trial.profile.script) {
    return new UsageError(
      `k6 could not fetch the remote module ${remote} imported by ${trial.profile.script} (${where}); vendor it next to the script or make it reachable.${tail}`,
    );
  }
  if (K6_SCRIPT_ERRORS.has(outcome.exitCode)) {
    return new UsageError(
      `the k6 script failed (${where}, k6 exit code ${outcome.exitCode})${trial.profile.script ? ` in ${trial.profile.script}` : ''}.${tail}`,
    );
  }
  return new EnvironmentError(`k6 exited with code ${outcome.exitCode} without a summary (${where}).${tail}`);
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
