// The action's main mode: inputs → Config → the same pipeline the CLI runs → GitHub reporting.
// Returns the exit code and failure message; main.ts is the one place that acts on them.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import * as core from '@actions/core';
import { exitCodeFor, type InconclusivePolicy } from '../analysis/verdict.ts';
import { exitMessage } from '../report/verdict-words.ts';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/validate.ts';
import {
  type ChangePointGateMode,
  type ConfirmChangePoints,
  changePointSummaryLines,
  evaluateChangePointGate,
} from '../history/change-point-gate.ts';
import { StoreNotAdoptedError } from '../history/errors.ts';
import type { ResultStore } from '../history/types.ts';
import { preflightProblems } from '../load/preflight.ts';
import type { PipelineDeps, PipelineOutcome } from '../pipeline.ts';
import { kindDeleteArgs } from '../platform/kubernetes/kind/commands.ts';
import type { ResourceLifecycle } from '../platform/types.ts';
import { armsFromBaseLines } from '../report/arms-from-base-text.ts';
import type { RunResult, Verdict } from '../results/types.ts';
import { cachedToolPath } from '../tools/cache.ts';
import { TOOL_PINS } from '../tools/pins.ts';
import { EnvironmentError, EXIT, type ExitCode, exitCodeOf, messageOf, UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { registerSecret } from '../util/redact.ts';
import { ActionLogger } from './action-logger.ts';
import type { BaseReference } from '../report/reference.ts';
import { type CleanupItem, CleanupRecorder } from './cleanup.ts';
import { trustedEvent } from './default-branch.ts';
import { type GitHubEvent, publishRefusal, readGitHubEvent } from './event.ts';
import { baseReference, type HistorySettings } from './history.ts';
import { type ActionInputs, OUTPUT, readActionInputs } from './inputs.ts';
import { kubeconfigSecrets } from './kubeconfig-secrets.ts';
import { OctokitGitHub } from './octokit-poster.ts';
import { type BaseConfig, baseConfigFor, imageArms } from './pr-base-config.ts';
import { reportToGitHub } from './report.ts';
import { enterScratchDir } from './scratch-dir.ts';
import { writeSecretFile } from './secret-file.ts';

export interface ModeOutcome {
  exitCode: ExitCode;
  /** Message for setFailed when exitCode is not 0. */
  failure?: string;
}

export interface BenchmarkDeps {
  runPipeline: (config: Config, deps: PipelineDeps) => Promise<PipelineOutcome>;
  /** The history store for the "vs base" column and publishing; undefined when there is none. */
  openStore: (history: HistorySettings, event: GitHubEvent, token: string, log: Logger, cwd: string) => ResultStore | undefined;
}

export async function runBenchmark(env: NodeJS.ProcessEnv, deps: BenchmarkDeps): Promise<ModeOutcome> {
  const inputs = readActionInputs((name) => core.getInput(name));
  maskCredentials(inputs);
  // Child processes (k6, kind, istioctl, a user's k6 script via __ENV) inherit our environment:
  // keep the credentials out of it once read.
  delete process.env['INPUT_TOKEN'];
  delete process.env['INPUT_KUBECONFIG'];
  const event = readGitHubEvent(env, await readEventPayload(env.GITHUB_EVENT_PATH));
  warnAboutTrigger(event);
  process.chdir(resolve(env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory));

  const log = new ActionLogger();
  const cleanup = new CleanupRecorder((name, value) => core.saveState(name, value));
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // What this step made and removes at its end, newest first; each is recorded for the post step
  // until it is gone.
  const owned: { item: CleanupItem; remove: () => Promise<void> }[] = [];
  const own = (path: string, description: string, remove: () => Promise<void>) => {
    const item: CleanupItem = { kind: 'path', path, description };
    cleanup.add(item);
    owned.unshift({ item, remove });
  };
  try {
    if (env.RUNNER_TEMP) {
      const scratch = await enterScratchDir(env.RUNNER_TEMP);
      own(scratch.dir, "the run's temporary files", scratch.leave);
    }
    if (inputs.kubeconfig) {
      if (inputs.overrides['kubeconfig-file'])
        throw new UsageError(
          'inputs kubeconfig and kubeconfig-file were both set: pass the content (kubeconfig) or a path (kubeconfig-file), not both',
        );
      const kubeconfig = await writeSecretFile('kubeconfig', inputs.kubeconfig, env);
      own(kubeconfig.dir, 'temporary kubeconfig', kubeconfig.remove);
      inputs.overrides['kubeconfig-file'] = kubeconfig.path;
    }
    const config = await log.group('Configuration', async () => {
      // Two echo images given (a PR that builds the app) make the arms; else, on a pull request,
      // the config at the PR's base commit: modes whose settings differ run as two arms, base and
      // head, in the same run (input ab-base-config).
      const images = imageArms(inputs);
      const base: BaseConfig = images
        ? { kind: 'none' }
        : await baseConfigFor({
            input: inputs.abBaseConfig,
            event,
            configFile: configFile(inputs),
            cwd: process.cwd(),
            token: inputs.token,
            serverUrl: event.serverUrl,
          });
      // The same checks `mesh-perf plan` makes: a bad value fails here, before any cluster or load.
      const loaded = await loadConfig({
        file: configFile(inputs),
        overrides: inputs.overrides,
        overrideOrigin: 'input',
        localDemoModes: true,
        check: (c) => preflightProblems(c, process.cwd()),
        ...(base.kind === 'file'
          ? { abBase: { file: base.file, label: base.label, ...(base.baseFiles ? { files: base.baseFiles.files } : {}) } }
          : {}),
        ...(images ? { abImages: images } : {}),
      }).finally(() => (base.kind === 'file' ? base.remove?.() : undefined));
      // The base arm deploys its copies of the base's server manifests: kept until the run is over.
      if (base.kind === 'file' && base.baseFiles) own(base.baseFiles.dir, "the PR base's server manifests", base.baseFiles.remove);
      if (base.kind === 'unavailable') loaded.armsFromBase = base.summary;
      if (loaded.armsFromBase) for (const line of armsFromBaseLines(loaded.armsFromBase)) core.info(line);
      core.info(
        `suite ${loaded.suite}, platform ${loaded.platform}, modes ${loaded.modes.map((m) => m.name).join(', ')}, baseline ${loaded.baseline}`,
      );
      core.info(`load: ${loaded.profiles.map((p) => `${p.name} × ${p.repetitions} repetitions of ${p.duration}`).join('; ')}`);
      return loaded;
    });

    const store = await log.group('History store', async () => {
      try {
        const opened = deps.openStore(config.history, event, inputs.token, log, process.cwd());
        core.info(opened ? `history: ${opened.describe()}` : 'no history store: no comparison with the base branch');
        return opened;
      } catch (error) {
        core.warning(`history store unavailable: ${messageOf(error)}`);
        return undefined;
      }
    });
    // The regression gate and the "vs base" column use the same reference, looked up once, after
    // the measurements (the pipeline calls this), so a slow store never delays the load.
    let base: BaseReference | undefined;
    const reference = store
      ? async (result: RunResult) => {
          base = await findBase(store, config, event, result.run.id);
          return base?.runs ?? [];
        }
      : undefined;

    // If the job is cancelled mid-run, the pipeline's own teardown never runs: post deletes the
    // cluster, but only one this run created (a reused cluster named like ours is left alone).
    const lifecycle = kindClusterLifecycle(config, env, cleanup);
    const outcome = await deps.runPipeline(config, {
      log,
      signal: controller.signal,
      cwd: process.cwd(),
      lifecycle,
      ...(reference ? { reference } : {}),
    });
    log.end();

    const notices: string[] = [];
    let refusedStore: StoreNotAdoptedError | undefined;
    let changePointFailure: string | undefined;
    if (store && config.history.publish) {
      const published = await log.group('Publish to history', () => publish(store, outcome, event, inputs.token));
      if (published.line) notices.push(published.line);
      refusedStore = published.refused;
      changePointFailure = published.changePoint;
    }
    const pr = event.pullRequest;
    await reportToGitHub({
      result: outcome.result,
      event,
      base,
      links: {
        runUrl: event.runUrl,
        artifactUrl: event.runUrl ? `${event.runUrl}#artifacts` : undefined,
        dashboardUrl: config.github.dashboardUrl,
        reportFile: outcome.files.report ? 'report.html' : undefined,
      },
      comment: {
        policy: config.github.comment,
        token: inputs.token,
        pullRequest: pr?.number,
        fromFork: pr?.fromFork ?? false,
        poster: () => new OctokitGitHub(inputs.token, event.repository!, event.apiUrl),
      },
      files: { results: outcome.files.results, report: outcome.files.report },
      notices,
      full: true,
    });

    return runOutcome({
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(refusedStore ? { refusedStore } : {}),
      judged: verdictOutcome(outcome.result.verdict, outcome.result.verdictReasons, config.gates.regression.inconclusive),
      ...(changePointFailure ? { changePointFailure } : {}),
      ...(outcome.comparisonSkipped ? { comparisonSkipped: outcome.comparisonSkipped } : {}),
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    log.end();
    for (const { item, remove } of owned) {
      await remove();
      cleanup.done(item);
    }
  }
}

/** The verdict's exit code and setFailed message, by the same map the CLI uses. */
/**
 * How a run mode ends, in order: a run that ended early; a store that was not adopted (a daily job
 * that can never publish must not stay green); the verdict; a change-point gate that fails a run
 * the verdict passed; a store that could not be read (exit 3 unless a gate failed).
 */
export function runOutcome(facts: {
  error?: Error;
  refusedStore?: Error;
  judged: ModeOutcome;
  changePointFailure?: string;
  comparisonSkipped?: Error;
}): ModeOutcome {
  const { error, refusedStore, judged, changePointFailure, comparisonSkipped } = facts;
  if (error) return { exitCode: exitCodeOf(error), failure: `mesh-perf: the run ended early: ${messageOf(error)}` };
  if (refusedStore) return { exitCode: EXIT.usage, failure: `mesh-perf did not publish: ${refusedStore.message}` };
  if (changePointFailure && judged.exitCode === EXIT.pass)
    return { exitCode: EXIT.gateFailed, failure: `mesh-perf: change-point gate failed: ${changePointFailure}` };
  if (comparisonSkipped && judged.exitCode !== EXIT.gateFailed)
    return { exitCode: EXIT.environment, failure: `mesh-perf: ${comparisonSkipped.message}; the comparison with past runs was skipped` };
  return judged;
}

export function verdictOutcome(verdict: Verdict, reasons: string[], inconclusive: InconclusivePolicy = 'warn'): ModeOutcome {
  const failure = exitMessage(verdict, reasons, inconclusive);
  return { exitCode: exitCodeFor(verdict, inconclusive), ...(failure ? { failure } : {}) };
}

/** setSecret on every credential before anything can print: the token and each kubeconfig leaf. */
function maskCredentials(inputs: ActionInputs): void {
  // registerSecret also redacts them from every file written (util/redact.ts); short leaves
  // (a user name) are only masked in the log.
  registerSecret(inputs.token);
  if (inputs.token) core.setSecret(inputs.token);
  if (inputs.kubeconfig) {
    for (const secret of kubeconfigSecrets(inputs.kubeconfig)) {
      core.setSecret(secret);
      registerSecret(secret);
    }
  }
}

/** Records a kind cluster for the post step when the platform creates it, and drops it once deleted. */
export function kindClusterLifecycle(config: Config, env: NodeJS.ProcessEnv, cleanup: CleanupRecorder): ResourceLifecycle {
  const pending = new Map<string, CleanupItem>();
  return {
    created(resource) {
      const pin = TOOL_PINS.kind;
      if (resource.kind !== 'kind-cluster' || config.kubernetes.kind.keep || !pin) return;
      const kind = env.MESH_PERF_KIND || cachedToolPath('kind', pin.version);
      const item: CleanupItem = {
        kind: 'command',
        argv: [kind, ...kindDeleteArgs(resource.name)],
        description: `kind cluster "${resource.name}"`,
      };
      pending.set(resource.name, item);
      cleanup.add(item);
    },
    removed(resource) {
      const item = pending.get(resource.name);
      if (item) cleanup.done(item);
      pending.delete(resource.name);
    },
  };
}

function configFile(inputs: ActionInputs): string | undefined {
  if (inputs.configFile) return inputs.configFile;
  return existsSync('mesh-perf.yaml') ? 'mesh-perf.yaml' : undefined;
}

async function findBase(store: ResultStore, config: Config, event: GitHubEvent, runId: string): Promise<BaseReference | undefined> {
  try {
    const base = await baseReference(store, config, event, runId);
    core.info(
      base
        ? `base reference: ${base.runs.length} run(s) of ${base.ref}${base.commit ? ` at ${base.commit.slice(0, 7)}` : ''} from ${store.describe()}`
        : `no comparable results in ${store.describe()}`,
    );
    return base;
  } catch (error) {
    // An environment problem (exit 3): the pipeline skips the comparison and keeps the measurements.
    throw new EnvironmentError(`history store ${store.describe()} unreachable: ${messageOf(error)}`);
  }
}

/**
 * Publishes a finished, trusted run; returns a line for the job summary. A failed publish does not
 * fail the run, except a store that holds other files and was not adopted (`refused`): that is a
 * setting to fix, and it would fail every run the same way. `changePoint` carries the change-point
 * gate's failure (gates.changePoint: fail) for the end of the run, after every output is written.
 */
async function publish(
  store: ResultStore,
  outcome: PipelineOutcome,
  payloadEvent: GitHubEvent,
  token: string,
): Promise<{ line: string; refused?: StoreNotAdoptedError; changePoint?: string }> {
  const published = await publishLine(store, outcome, payloadEvent, token).catch((error: unknown) => {
    if (error instanceof StoreNotAdoptedError) return error;
    throw error;
  });
  return published instanceof StoreNotAdoptedError
    ? { line: `Not published to history: ${published.message}.`, refused: published }
    : published;
}

async function publishLine(
  store: ResultStore,
  outcome: PipelineOutcome,
  payloadEvent: GitHubEvent,
  token: string,
): Promise<{ line: string; changePoint?: string }> {
  let event: GitHubEvent;
  try {
    event = await trustedEvent(payloadEvent, token);
  } catch (error) {
    core.warning(`not published: ${messageOf(error)}`);
    return { line: `Not published to history: ${messageOf(error)}.` };
  }
  const refusal = publishRefusal(event);
  if (refusal) {
    core.notice(`not published: ${refusal}`);
    return { line: `Not published to history: ${refusal}.` };
  }
  if (outcome.error || outcome.result.run.aborted) {
    core.warning('not published: the run ended early');
    return { line: 'Not published to history: the run ended early.' };
  }
  try {
    const done = await store.publish([outcome.result]);
    const commit = done?.commit ? ` (commit ${done.commit.slice(0, 12)})` : '';
    core.info(`published to ${store.describe()}${commit}`);
    // A new slowdown step: a warning annotation and a summary line; under `fail` the run fails too,
    // at its end, after the job summary and comment are written.
    const config = outcome.result.config as {
      gates?: { changePoint?: ChangePointGateMode; regression?: { minEffectPct?: number } };
      confirm?: { changePoints?: ConfirmChangePoints };
    };
    const gate = evaluateChangePointGate(
      done?.changePoints ?? [],
      config.gates?.changePoint ?? 'warn',
      config.gates?.regression?.minEffectPct ?? 5,
      config.confirm?.changePoints ?? 'off',
    );
    core.setOutput(OUTPUT.changePointToConfirm, String(gate.raised.length > 0 && (config.confirm?.changePoints ?? 'off') !== 'off'));
    for (const text of gate.lines) core.warning(text, { title: 'mesh-perf: new change point' });
    const line = [`Published to history: ${store.describe()}${commit}.`, ...changePointSummaryLines(gate)].join('\n\n');
    return gate.decision === 'fail' ? { line, changePoint: gate.lines.join('; ') } : { line };
  } catch (error) {
    if (error instanceof StoreNotAdoptedError) throw error;
    core.warning(`publishing to history failed: ${messageOf(error)}`);
    return { line: `Publishing to history failed: ${messageOf(error)}` };
  }
}

function warnAboutTrigger(event: GitHubEvent): void {
  if (event.name === 'pull_request_target') {
    core.warning(
      'mesh-perf runs under pull_request_target, which has a write token and secrets: if this job checked out the pull request, its code and benchmark config run with them. Use pull_request plus the workflow_run commenter (workflows/fork-safe-*.yml) instead.',
    );
  }
}

export async function readEventPayload(path: string | undefined): Promise<unknown> {
  if (!path) return {};
  try {
    return JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    core.warning(`could not read the event payload at ${path}: ${messageOf(error)}`);
    return {};
  }
}
