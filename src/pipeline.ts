// The pipeline, read top to bottom: plan → prepare the platform → run every trial (interleaved)
// → analyse → write results and reports. The CLI and the action both call runPipeline and only
// map its verdict to an exit code. Partial results are written even when a run fails midway.
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from './config/validate.ts';
import { buildPlan, extendPlan, newSeed, type Plan, type Trial } from './plan/plan.ts';
import { describeTailDistortion, tailDistortionCheck } from './plan/tail-distortion.ts';
import { stepAfterLook } from './plan/stopping.ts';
import { firstLookConfig, type LookPlan, lookPlan, modesForNextLook, placeLooks, repetitionSeconds } from './plan/looks.ts';
import type { SequentialDesign } from './analysis/ab/design.ts';
import type { StoppingRecord } from './results/analysis.ts';
import { verdictReasonsText, wordAnalysis } from './report/analysis-words.ts';
import { lookHeading } from './report/ab.ts';
import { platformFactory } from './platform/registry.ts';
import type {
  DisruptionWatch,
  ModeRecord,
  PathProbe,
  Platform,
  PlatformFactory,
  ResourceLifecycle,
  ResourceSampler,
} from './platform/types.ts';
import type { LoadRunner } from './load/types.ts';
import { decideGenerators, runRepetition } from './load/engine.ts';
import { chooseArrivalEngines } from './load/pacer-choice.ts';
import type { ArrivalEngine } from './load/pacer-params.ts';
import type { GitInfo, ModeResult, Provenance, RunResult } from './results/types.ts';
import { RESULTS_SCHEMA_VERSION } from './results/types.ts';
import { findMode } from './results/modes.ts';
import { gitInfo, machineInfo } from './results/metadata.ts';
import { actionProvenance, dockerVersion, fileHashes, fileSha256, kindProvenance, runnerProvenance } from './results/provenance.ts';
import { referencedFiles, settingsFingerprints } from './config/fingerprint.ts';
import { writeRunFiles, type WrittenFiles } from './results/write.ts';
import { formatCauses, formatErrorRate } from './results/errors.ts';
import { renderSummaryMarkdown } from './report/summary-markdown.ts';
import { buildRunView } from './report/view.ts';
import { publicConfig } from './config/public.ts';
import { redactText, redactValue } from './util/redact.ts';
import { EXIT, exitCodeOf, type MeshPerfError, messageOf } from './util/errors.ts';
import type { Logger } from './util/log.ts';
import { progressFormatter } from './report/progress.ts';
import { type AnalyzeOptions, analyzeRun } from './analysis/analyze.ts';
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
   * the measurements are done, so a slow store never delays the load. An environment error
   * (exit 3: the store is unreachable) skips the comparison and keeps the measurements.
   */
  reference?: (result: RunResult) => Promise<RunResult[]>;
  /** Git facts the caller knows better than the working tree (a PR's number, base branch and commit). */
  git?: Partial<GitInfo>;
  /** Told what the platform creates and removes outside this process (the action's post step). */
  lifecycle?: ResourceLifecycle;
  /** Milliseconds now, for the time budget's pace (tests hand in a clock; default Date.now). */
  clock?: () => number;
}

export interface PipelineOutcome {
  result: RunResult;
  outDir: string;
  files: WrittenFiles;
  /** The error that ended the run early, after partial results were written. */
  error?: MeshPerfError | Error;
  /** Why past runs could not be read: the run was judged without the regression comparison. */
  comparisonSkipped?: MeshPerfError;
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
  const looks = lookPlan(config);
  const plan = buildPlan(firstLookConfig(config, looks), config.plan.seed ?? newSeed());
  const result = await emptyResult(config, plan, runId, cwd);
  if (deps.git) result.run.git = { ...result.run.git, ...deps.git };
  const extraFiles: Record<string, string> = {};
  let platform: Platform | undefined;
  let failure: Error | undefined;
  let reference: RunResult[] = [];
  let comparisonSkipped: MeshPerfError | undefined;
  let decision: LookDecision | undefined;

  // Said before any load, as plan says it: a rate whose tail this runner's own load distorts.
  const distortion = tailDistortionCheck(config, availableParallelism());
  if (distortion) log.warn(describeTailDistortion(distortion));

  try {
    log.phase(`Preparing platform "${config.platform}"`);
    platform = (deps.platform ?? (await platformFactory(config.platform)))({
      config,
      runId,
      signal,
      log,
      ...(deps.lifecycle ? { lifecycle: deps.lifecycle } : {}),
    });
    await platform.prepare();
    const runner = platform.loadRunner();
    const generators = decideGenerators(config.profiles, runner);
    result.run.tools.k6 = await runner.version();
    const { engines, pacerVersion } = await chooseArrivalEngines(config.profiles, runner, log);
    if (pacerVersion) result.run.tools['k6 pacer'] = pacerVersion;
    result.run.environment = await platform.environment();
    result.run.provenance = await provenanceOf(config, platform, runner, cwd);
    const records = (await platform.modeRecords?.()) ?? {};

    log.phase(
      `Measuring ${plan.trials.length} repetitions (${config.modes.length} mode${config.modes.length === 1 ? '' : 's'} × ${config.profiles.length} load profile${config.profiles.length === 1 ? '' : 's'}, ${plan.order}, seed ${plan.seed})${looks.fixed ? '' : `, then more blocks at looks ${looks.looks.join(', ')} until the gates decide`}`,
    );
    const started = (deps.clock ?? Date.now)();
    const sampler = platform.resourceSampler();
    const probe = platform.pathProbe?.();
    const watch = platform.disruptionWatch?.();
    const measuring: Measuring = { platform, runner, sampler, probe, watch, records, result, extraFiles, generators, engines, deps };
    for (const trial of plan.trials) {
      if (signal.aborted) break;
      await runTrial(trial, plan, measuring);
    }
    if (deps.reference) {
      try {
        reference = await deps.reference(result);
      } catch (error) {
        if (signal.aborted || exitCodeOf(error) !== EXIT.environment) throw error;
        // Said once, by the front end, with its exit code; the analysis notes it in the results.
        comparisonSkipped = error as MeshPerfError;
      }
    }
    decision = await measureUntilDecided(config, looks, plan, measuring, reference, started);
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
    // The analysis hands over evidence; report/ words it into the stored analysis, once.
    const evidence = analyzeRun(result, {
      config,
      reference,
      ...(comparisonSkipped ? { referenceUnavailable: messageOf(comparisonSkipped) } : {}),
      look: decision?.look ?? { index: 0, final: true },
      design: decision?.design ?? looks.design,
    });
    result.analysis = wordAnalysis(decision ? { ...evidence, stopping: decision.stopping } : evidence);
  } catch (error) {
    log.warn(`analysis failed: ${messageOf(error)}`);
  }
  // The analysis decided the verdict with its gates (decideVerdict); without it, validity and the
  // script's own thresholds still decide, through the same function given no gates.
  const decided = result.analysis ?? toStored(decideVerdict(result));
  result.verdict = decided.verdict;
  result.verdictReasons = decided.verdictReasons;
  // From here the result is written and printed: it leaves the process redacted (URL credentials,
  // secret-named env and headers, every registered secret; util/redact.ts).
  const published = redactValue(result);
  for (const [name, content] of Object.entries(extraFiles)) extraFiles[name] = redactText(content);
  // A preset's source-benchmark formats (the ambient CSV, vegeta blocks, Kyma's tables) go beside results.json;
  // the markdown ones also belong in summary.md, where their readers look.
  // The one view every file below renders from.
  const view = buildRunView(published);
  let summaryMarkdown = renderSummaryMarkdown(view);
  for (const format of renderSourceFormats(view)) {
    extraFiles[format.file] = format.content;
    if (format.markdown) summaryMarkdown += `\n${format.content.trimEnd()}\n`;
  }
  const files = await writeRunFiles(outDir, published, { summaryMarkdown }, extraFiles);
  try {
    files.report = await writeHtmlReport(view, outDir);
  } catch (error) {
    log.warn(`report.html was not written: ${messageOf(error)}`);
  }
  return { result: published, outDir, files, error: failure, ...(comparisonSkipped ? { comparisonSkipped } : {}) };
}

/** What every trial of a run measures with: the prepared platform, the result it adds to, and each profile's k6 count. */
interface Measuring {
  platform: Platform;
  /** Asked of the platform once, after prepare: every trial runs k6 and samples resources through them. */
  runner: LoadRunner;
  sampler: ResourceSampler | undefined;
  /** Reads the proxies' counters around each repetition (the path evidence), when the platform can. */
  probe: PathProbe | undefined;
  /** Looks at the pods of each repetition's path before and after it (deleted, restarted), when the platform can. */
  watch: DisruptionWatch | undefined;
  /** What the platform records per mode (mTLS policy, enrolment), merged into each mode's results entry. */
  records: Record<string, ModeRecord>;
  result: RunResult;
  extraFiles: Record<string, string>;
  /** k6 instances per profile name (decideGenerators, once the platform had prepared). */
  generators: ReadonlyMap<string, number>;
  /** What sends each profile's arrivals (chooseArrivalEngines, once the platform had prepared). */
  engines: ReadonlyMap<string, ArrivalEngine>;
  deps: PipelineDeps;
}

async function runTrial(trial: Trial, plan: Plan, measuring: Measuring): Promise<void> {
  const { platform, runner, sampler, probe, watch, result, extraFiles, deps } = measuring;
  const generators = measuring.generators.get(trial.profile.name) ?? 1;
  await platform.beforeTrial?.(trial.mode, trial.profile, generators, trial.block);
  const base = platform.target(trial.mode);
  // The run id travels to k6 as well, so every process of a run can be found (and checked gone).
  const target = { ...base, env: { ...base.env, MESH_PERF_RUN: result.run.id } };
  const label = `[${trial.index + 1}/${plan.trials.length}] ${trial.mode.name} · ${trial.profile.name} · rep ${trial.repetition}/${trial.planned}`;
  const format = progressFormatter(label, trial.profile.warmupMs / 1000);
  // The proxies' counters before the load: their increase is the repetition's path evidence.
  await probe?.start(trial.mode.name);
  await watch?.start(trial.mode.name);
  sampler?.start(trial.mode.name);
  let run;
  try {
    run = await runRepetition(trial, target, runner, (p) => deps.log.progress(format(p)), deps.signal, {
      generators,
      engine: measuring.engines.get(trial.profile.name) ?? 'arrival-rate',
      ...(deps.cwd !== undefined ? { cwd: deps.cwd } : {}),
    });
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
  if (target.server) run.repetition.server = target.server;
  const path = await probe?.stop(trial.mode.name);
  // A pod of the path deleted or a proxy restarted mid-repetition: its figures span the fault (and,
  // once it is recorded, the next repetition waits until the mode's pods are back).
  const disruptions = (await watch?.stop(trial.mode.name)) ?? [];
  if (path) run.repetition.path = path;
  if (disruptions.length > 0) {
    run.repetition.disruptions = disruptions;
    run.repetition.valid = false;
    // The disruption leads: the load's own reasons (dropped iterations, a low rate) are what it did.
    run.repetition.invalidReasons.unshift(...watch!.reasons(disruptions, run.repetition));
  }
  if (path) {
    // Figures of traffic that skipped the mode's mesh (or that a mesh captured) are not the mode's.
    const wrongPath = probe!.invalidReasons(trial.mode.name, run.repetition.requests, path, disruptions);
    if (wrongPath.length > 0) {
      run.repetition.valid = false;
      run.repetition.invalidReasons.push(...wrongPath);
    }
  }
  modeEntry(result, trial, target.description, measuring.records[trial.mode.name]).repetitions.push(run.repetition);
  const rep = run.repetition;
  deps.log.info(
    `${label}: ${rep.latencyMs ? `p50 ${rep.latencyMs.p50.toFixed(3)} ms, p99 ${rep.latencyMs.p99.toFixed(3)} ms` : 'no successful request'}, ${rep.achievedRps.toFixed(1)} rps${rep.instances ? ` from ${rep.instances.length} k6 processes` : ''}${rep.failures > 0 ? `, ${formatErrorRate(rep.errorRate)} failed (${formatCauses(rep.errorCauses)})` : ''}${rep.valid ? '' : ` — INVALID: ${rep.invalidReasons.join('; ')}`}`,
  );
  for (const [name, content] of Object.entries(run.extraFiles)) extraFiles[`${trial.mode.name}-rep${trial.repetition}-${name}`] = content;
  if (disruptions.length > 0) await watch!.settle(trial.mode.name, disruptions);
  if (trial.profile.pauseMs > 0) await new Promise((r) => setTimeout(r, trial.profile.pauseMs));
}

interface LookDecision {
  look: NonNullable<AnalyzeOptions['look']>;
  design: SequentialDesign;
  stopping: StoppingRecord;
}

/**
 * Measure until decided (load.repetitions auto): at each of the design's looks the analysis says
 * which modes still need blocks (modesToExtend: the arms of an undecided A/B gate, a mode whose
 * history gate is inconclusive or awaits confirmation, with the baseline its ratios need); those
 * modes run the next look's blocks, interleaved and randomized, until nothing needs more or the
 * budget (plan.budget.maxBlocks, maxDuration) is spent. Before each extension the looks still ahead
 * are placed where the time budget ends at the pace measured so far (k6's start and stop make a
 * repetition take longer than its warm-up and duration): a look the time cannot reach is moved to
 * where it ends instead of being planned and never reached (plan/looks.ts placeLooks). This is also
 * the confirmation round: a regression found at one look must hold at the next. `repetitions: N`
 * is one look, exactly N blocks.
 */
async function measureUntilDecided(
  config: Config,
  planned: LookPlan,
  plan: Plan,
  measuring: Measuring,
  reference: RunResult[],
  started: number,
): Promise<LookDecision> {
  const { result, deps } = measuring;
  let looks = planned;
  const now = deps.clock ?? Date.now;
  const elapsedS = () => (now() - started) / 1000;
  const stop = (index: number, reason: StoppingRecord['reason']): LookDecision => ({
    look: { index, final: true, ...(reason === 'decided' ? {} : { stoppedBy: reason }) },
    // The design as run, not truncated here: a gate decided at this look keeps its decision, one
    // still undecided spends what is left (evaluateAbGate's final look does the truncation).
    design: looks.design,
    stopping: {
      reason,
      blocks: looks.looks[index]!,
      look: index,
      looks: looks.looks,
      ...(looks.looks.join() === planned.looks.join() ? {} : { plannedLooks: planned.looks }),
      elapsedS: Math.round(elapsedS() * 10) / 10,
    },
  });
  if (looks.fixed) return stop(0, 'fixed');
  const trials = [...plan.trials];
  const withProfile = config.profiles.length > 1;
  for (let index = 0; ; index++) {
    if (deps.signal.aborted) return stop(index, 'cancelled');
    const blocks = looks.looks[index]!;
    const last = index === looks.looks.length - 1;
    const analysis = analyzeRun(result, { config, reference, look: { index, final: false }, design: looks.design });
    const ab = analysis.ab?.gates ?? [];
    const heading = (next: string) => lookHeading(index, looks.looks.length, blocks, ab, withProfile, next);
    // Runs without arms and without an undecided gate say nothing: they are the fixed runs they always were.
    const speak = ab.length > 0 || analysis.modesToExtend.length > 0 || index > 0;
    // A run already invalid, or failed by a gate, ends so whatever more blocks would say: stop measuring.
    const step = stepAfterLook(analysis, last);
    if (step === 'invalid') {
      if (speak) deps.log.phase(heading('stopping: the run is invalid (see invalid repetitions)'));
      return stop(index, 'invalid');
    }
    if (step === 'gate-failed') {
      deps.log.phase(heading('stopping: a gate failed the run'));
      return stop(index, 'gate-failed');
    }
    if (step === 'decided') {
      if (speak) deps.log.phase(heading('decided'));
      return stop(index, 'decided');
    }
    if (step === 'budget') {
      const moved = looks.looks.join() !== planned.looks.join();
      deps.log.phase(
        heading(
          moved
            ? `budget spent (plan.budget.maxDuration ${config.plan.budget.maxDuration} at the measured pace)`
            : `budget spent (plan.budget.maxBlocks ${config.plan.budget.maxBlocks})`,
        ),
      );
      return stop(index, moved ? 'budget-time' : 'budget-blocks');
    }
    const modes = modesForNextLook(config, analysis.modesToExtend);
    // The looks ahead, placed where the time budget ends at the pace measured so far.
    const nominalSoFar = trials.reduce((sum, t) => sum + repetitionSeconds(t.profile), 0);
    const pace = nominalSoFar > 0 ? Math.max(1, elapsedS() / nominalSoFar) : 1;
    const blockS =
      extendPlan(config, { ...plan, trials }, modes, 1, index + 2).reduce((sum, t) => sum + repetitionSeconds(t.profile), 0) * pace;
    const leftS = config.plan.budget.maxDurationMs / 1000 - elapsedS();
    const placed = placeLooks(looks, index, blockS > 0 ? leftS / blockS : Number.POSITIVE_INFINITY);
    if (placed !== looks) {
      const moved = placed.looks.slice(index + 1);
      deps.log.info(
        moved.length === 0
          ? `look ${index + 1}: plan.budget.maxDuration ${config.plan.budget.maxDuration} holds no more blocks at the measured pace (${pace.toFixed(2)} × nominal)`
          : `look ${index + 1}: at the measured pace (${pace.toFixed(2)} × nominal) plan.budget.maxDuration ${config.plan.budget.maxDuration} holds ${moved[moved.length - 1]} blocks; looks now ${placed.looks.join(', ')} (planned ${planned.looks.join(', ')})`,
      );
      looks = placed;
    }
    if (index === looks.looks.length - 1) {
      deps.log.phase(heading(`budget spent (plan.budget.maxDuration ${config.plan.budget.maxDuration} holds no more blocks)`));
      return stop(index, 'budget-time');
    }
    const more = looks.looks[index + 1]! - blocks;
    const next = extendPlan(config, { ...plan, trials }, modes, more, index + 2);
    deps.log.phase(heading(`continuing with ${modes.map((m) => m.name).join(', ')} for ${more} more block${more === 1 ? '' : 's'}`));
    trials.push(...next);
    result.plan.trials.push(...next.map(trialRecord));
    const extended: Plan = { ...plan, trials };
    for (const trial of next) {
      if (deps.signal.aborted) break;
      await runTrial(trial, extended, measuring);
    }
  }
}

/**
 * What the run runs, beyond its config (run.provenance): the action, the runner's image, k6's
 * binary, the files the config names, the platform's images and kind's facts, and each mode's
 * settings fingerprint (which covers those files' content).
 */
async function provenanceOf(config: Config, platform: Platform, runner: LoadRunner, cwd: string): Promise<Provenance> {
  const stored = publicConfig(config);
  const files = await fileHashes(referencedFiles(stored), cwd);
  const fromPlatform = (await platform.provenance?.()) ?? {};
  const binary = runner.binary?.();
  const sha256 = binary ? await fileSha256(binary.path) : undefined;
  const action = actionProvenance(process.env);
  const kind = fromPlatform.kind ? kindProvenance(fromPlatform.kind) : undefined;
  const docker = fromPlatform.docker ?? kind?.docker ?? (config.platform === 'kind' ? await dockerVersion() : undefined);
  const machine = { ...runnerProvenance(process.env), ...(docker ? { docker } : {}) };
  return {
    ...(action ? { action } : {}),
    ...(binary ? { k6: { ...(sha256 ? { sha256 } : {}), source: binary.source } } : {}),
    ...(Object.keys(machine).length > 0 ? { runner: machine } : {}),
    ...(kind ? { kind: kind.kind } : {}),
    ...(fromPlatform.images ? { images: fromPlatform.images } : {}),
    ...(Object.keys(files).length > 0 ? { files } : {}),
    settings: settingsFingerprints(stored, files),
  };
}

function toStored(decision: ReturnType<typeof decideVerdict>): Pick<RunResult, 'verdict' | 'verdictReasons'> {
  return { verdict: decision.verdict, verdictReasons: verdictReasonsText(decision.reasons) };
}

function trialRecord(t: Trial): RunResult['plan']['trials'][number] {
  return { index: t.index, mode: t.mode.name, profile: t.profile.name, repetition: t.repetition, block: t.block };
}

function modeEntry(result: RunResult, trial: Trial, description: string, record: ModeRecord = {}): ModeResult {
  let entry = findMode(result, trial.mode.name, trial.profile.name);
  if (!entry) {
    entry = { name: trial.mode.name, profile: trial.profile.name, repetitions: [], target: description };
    if (trial.mode.mesh) entry.mesh = trial.mode.mesh;
    if (trial.mode.arm) entry.arm = { ...trial.mode.arm };
    if (record.mtls) entry.mtls = record.mtls;
    if (record.enrolment) entry.enrolment = record.enrolment;
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
