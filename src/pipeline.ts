// The pipeline, read top to bottom: plan → prepare the platform → run every trial (interleaved)
// → analyse → write results and reports. The CLI and the action both call runPipeline and only
// map its verdict to an exit code. Partial results are written even when a run fails midway.
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Config } from './config/validate.ts';
import { buildPlan, newSeed, type Plan, type Trial } from './plan/plan.ts';
import { platformFactory } from './platform/registry.ts';
import type { Platform, PlatformFactory, ResourceLifecycle } from './platform/types.ts';
import { checkGroupsSupported, runRepetition } from './load/engine.ts';
import type { GitInfo, ModeResult, RunResult } from './results/types.ts';
import { RESULTS_SCHEMA_VERSION } from './results/types.ts';
import { gitInfo, machineInfo } from './results/metadata.ts';
import { writeRunFiles, type WrittenFiles } from './results/write.ts';
import { formatCauses, formatErrorRate } from './results/errors.ts';
import { renderSummaryMarkdown } from './report/markdown.ts';
import { publicConfig } from './config/public.ts';
import { type MeshPerfError, messageOf } from './util/errors.ts';
import type { Logger } from './util/log.ts';
import { progressFormatter } from './report/progress.ts';
import { analyzeRun } from './analysis/analyze.ts';
import { decideVerdict } from './analysis/verdict.ts';
import { writeHtmlReport } from './report/html/write.ts';
import { renderSourceFormats } from './report/formats/index.ts';

export interface PipelineDeps {
  log: Logger;
  signal: AbortSignal;
  /** Working directory for relative paths (scripts, out dir) and git lookups. */
  cwd?: string;
  /** Overrides the platform chosen by config.platform (tests, calibration). */
  platform?: PlatformFactory;
  /**
   * Past runs to judge regressions against (from --baseline or the history store). Called once
   * the measurements are done, so a slow store never delays the load.
   */
  reference?: (result: RunResult) => Promise<RunResult[]>;
  /** Git facts the caller knows better than the working tree (a PR's number, base branch and commit). */
  git?: Partial<GitInfo>;
  /** Told what the platform creates and removes outside this process (the action's post step). */
  lifecycle?: ResourceLifecycle;
}

export interface PipelineOutcome {
  result: RunResult;
  outDir: string;
  files: WrittenFiles;
  /** The error that ended the run early, after partial results were written. */
  error?: MeshPerfError | Error;
}

export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export async function runPipeline(config: Config, deps: PipelineDeps): Promise<PipelineOutcome> {
  const cwd = deps.cwd ?? process.cwd();
  const { log, signal } = deps;
  const runId = newRunId();
  const outDir = resolve(cwd, config.out ?? `mesh-perf-results/${runId}`);
  const plan = buildPlan(config, config.plan.seed ?? newSeed());
  const result = await emptyResult(config, plan, runId, cwd);
  if (deps.git) result.run.git = { ...result.run.git, ...deps.git };
  const extraFiles: Record<string, string> = {};
  let platform: Platform | undefined;
  let failure: Error | undefined;
  let reference: RunResult[] = [];

  try {
    log.phase(`Preparing platform "${config.platform}"`);
    platform = (deps.platform ?? platformFactory(config.platform))({
      config,
      runId,
      signal,
      log,
      ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    });
    await platform.prepare();
    const runner = platform.loadRunner();
    checkGroupsSupported(config.profiles, runner);
    result.run.tools.k6 = await runner.version();
    result.run.environment = await platform.environment();

    log.phase(
      `Measuring ${plan.trials.length} repetitions (${config.modes.length} mode${config.modes.length === 1 ? '' : 's'} × ${config.profiles.length} load profile${config.profiles.length === 1 ? '' : 's'}, ${plan.order}, seed ${plan.seed})`,
    );
    for (const trial of plan.trials) {
      if (signal.aborted) break;
      await runTrial(trial, plan, platform, result, extraFiles, deps);
    }
    reference = deps.reference ? await deps.reference(result) : [];
    await confirmRegressions(config, plan, platform, result, extraFiles, reference, deps);
  } catch (error) {
    failure = error as Error;
    result.run.aborted = messageOf(error);
  } finally {
    if (platform) {
      log.phase('Tearing down');
      // A run that ended early keeps the platform's diagnostics beside its results (uploaded with them).
      await platform
        .teardown(failure ? { diagnosticsDir: join(outDir, 'diagnostics') } : {})
        .catch((error: unknown) => log.warn(`teardown failed: ${messageOf(error)}`));
    }
  }
  if (signal.aborted && !result.run.aborted) result.run.aborted = 'cancelled';

  log.phase('Analysing');
  result.run.finishedAt = new Date().toISOString();
  // Trials ran interleaved; results read in config order (profile, then mode).
  const order = (m: ModeResult) =>
    config.profiles.findIndex((p) => p.name === m.profile) * 1000 + config.modes.findIndex((c) => c.name === m.name);
  result.modes.sort((a, b) => order(a) - order(b));
  try {
    result.analysis = analyzeRun(result, { config, reference });
  } catch (error) {
    log.warn(`analysis failed: ${messageOf(error)}`);
  }
  // The analysis decided the verdict with its gates (decideVerdict); without it, validity and the
  // script's own thresholds still decide, through the same function given no gates.
  const decided = result.analysis ?? toStored(decideVerdict(result));
  result.verdict = decided.verdict;
  result.verdictReasons = decided.verdictReasons;
  // A preset's source-benchmark formats (the ambient CSV, vegeta blocks, Kyma's tables) go beside results.json;
  // the markdown ones also belong in summary.md, where their readers look.
  let summaryMarkdown = renderSummaryMarkdown(result);
  for (const format of renderSourceFormats(result)) {
    extraFiles[format.file] = format.content;
    if (format.markdown) summaryMarkdown += `\n${format.content.trimEnd()}\n`;
  }
  const files = await writeRunFiles(outDir, result, { summaryMarkdown }, extraFiles);
  try {
    files.report = await writeHtmlReport(result, outDir);
  } catch (error) {
    log.warn(`report.html was not written: ${messageOf(error)}`);
  }
  return { result, outDir, files, error: failure };
}

async function runTrial(
  trial: Trial,
  plan: Plan,
  platform: Platform,
  result: RunResult,
  extraFiles: Record<string, string>,
  deps: PipelineDeps,
): Promise<void> {
  await platform.beforeTrial?.(trial.mode, trial.profile);
  const base = platform.target(trial.mode);
  // The run id travels to k6 as well, so every process of a run can be found (and checked gone).
  const target = { ...base, env: { ...base.env, MESH_PERF_RUN: result.run.id } };
  const sampler = platform.resourceSampler();
  const label = `[${trial.index + 1}/${plan.trials.length}] ${trial.mode.name} · ${trial.profile.name} · rep ${trial.repetition}/${trial.profile.repetitions}`;
  const format = progressFormatter(label, trial.profile.warmupMs / 1000);
  sampler?.start(trial.mode.name);
  let run;
  try {
    run = await runRepetition(trial, target, platform.loadRunner(), (p) => deps.log.progress(format(p)), deps.signal, deps.cwd);
  } catch (error) {
    await sampler?.stop(0).catch(() => undefined); // stop sampling a repetition that produced nothing
    throw error;
  } finally {
    deps.log.progressDone();
  }
  if (sampler) {
    const usage = await sampler.stop(run.repetition.achievedRps, run.window);
    if (usage.length > 0) run.repetition.resources = usage;
  }
  modeEntry(result, trial, target.description).repetitions.push(run.repetition);
  const rep = run.repetition;
  deps.log.info(
    `${label}: ${rep.latencyMs ? `p50 ${rep.latencyMs.p50.toFixed(3)} ms, p99 ${rep.latencyMs.p99.toFixed(3)} ms` : 'no successful request'}, ${rep.achievedRps.toFixed(1)} rps${rep.instances ? ` from ${rep.instances.length} k6 processes` : ''}${rep.failures > 0 ? `, ${formatErrorRate(rep.errorRate)} failed (${formatCauses(rep.errorCauses)})` : ''}${rep.valid ? '' : ` — INVALID: ${rep.invalidReasons.join('; ')}`}`,
  );
  for (const [name, content] of Object.entries(run.extraFiles)) extraFiles[`${trial.mode.name}-rep${trial.repetition}-${name}`] = content;
  if (trial.profile.pauseMs > 0) await new Promise((r) => setTimeout(r, trial.profile.pauseMs));
}

/**
 * The confirmation round: a regression found in the main round must survive a second,
 * interleaved round of the modes concerned and the baseline before it fails the run. The
 * analysis of the pooled rounds (after this) gives the final decision.
 */
async function confirmRegressions(
  config: Config,
  plan: Plan,
  platform: Platform,
  result: RunResult,
  extraFiles: Record<string, string>,
  reference: RunResult[],
  deps: PipelineDeps,
): Promise<void> {
  if (!config.gates.regression.confirm || deps.signal.aborted) return;
  const { modesToConfirm } = analyzeRun(result, { config, reference });
  if (modesToConfirm.length === 0) return;
  const modes = config.modes.filter((m) => modesToConfirm.includes(m.name) || m.name === config.baseline);
  const round2 = buildPlan(config, plan.seed + 1, modes, 2);
  const offset = plan.trials.length;
  for (const t of round2.trials) t.index += offset;
  result.plan.trials.push(...round2.trials.map(trialRecord));
  deps.log.phase(
    `Confirming a possible regression: ${modesToConfirm.join(', ')} and the baseline once more (${round2.trials.length} repetitions)`,
  );
  for (const trial of round2.trials) {
    if (deps.signal.aborted) break;
    await runTrial(trial, { ...round2, trials: [...plan.trials, ...round2.trials] }, platform, result, extraFiles, deps);
  }
}

function toStored(decision: ReturnType<typeof decideVerdict>): Pick<RunResult, 'verdict' | 'verdictReasons'> {
  return { verdict: decision.verdict, verdictReasons: decision.reasons.map((r) => r.message) };
}

function trialRecord(t: Trial): RunResult['plan']['trials'][number] {
  return { index: t.index, mode: t.mode.name, profile: t.profile.name, repetition: t.repetition, block: t.block };
}

function modeEntry(result: RunResult, trial: Trial, description: string): ModeResult {
  let entry = result.modes.find((m) => m.name === trial.mode.name && m.profile === trial.profile.name);
  if (!entry) {
    entry = { name: trial.mode.name, profile: trial.profile.name, repetitions: [], target: description };
    if (trial.mode.mesh) entry.mesh = trial.mode.mesh;
    result.modes.push(entry);
  }
  return entry;
}

async function emptyResult(config: Config, plan: Plan, runId: string, cwd: string): Promise<RunResult> {
  const now = new Date().toISOString();
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    verdict: 'invalid',
    verdictReasons: [],
    run: {
      id: runId,
      suite: config.suite,
      startedAt: now,
      finishedAt: now,
      platform: config.platform,
      git: await gitInfo(cwd),
      tools: { 'mesh-perf': MESH_PERF_VERSION, node: process.version },
      machine: machineInfo(),
      environment: {},
    },
    config: publicConfig(config),
    plan: {
      seed: plan.seed,
      order: plan.order,
      trials: plan.trials.map(trialRecord),
    },
    baseline: config.baseline,
    modes: [],
  };
}

declare const __MESH_PERF_VERSION__: string | undefined;
export const MESH_PERF_VERSION = typeof __MESH_PERF_VERSION__ === 'string' ? __MESH_PERF_VERSION__ : 'dev';
