// load.engine: k6-operator. Each repetition runs as one k6-operator TestRun with
// `parallelism: N` in the mode's namespace (so its runners are meshed like the client pod):
// k6-operator's initializer checks the script, its runner Jobs start k6 paused with their
// execution segments, its starter resumes them all at once. We watch the TestRun's stage and
// the runner pods, read each runner's exit code, summary and raw samples through the exec API
// (the runners' wrapper keeps them up for that, see wrapper.ts), release them, and delete the
// TestRun and its ConfigMap whatever happened: success, failure, timeout or cancel.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { formatDuration } from '../../../config/duration.ts';
import type { GeneratorCapacity } from '../../../load/ceiling.ts';
import { collectRawSamples, RAW_CSV_METRICS, type RawSamples } from '../../../load/raw-samples.ts';
import type { K6Invocation, K6Outcome, K6Progress, LoadRunner } from '../../../load/types.ts';
import { EnvironmentError, UsageError } from '../../../util/errors.ts';
import type { Logger } from '../../../util/log.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { getJson, listJson, sendJson } from '../api-json.ts';
import { execInPod, type PodRef } from '../exec.ts';
import { podState } from '../wait.ts';
import { buildTestRun, OPERATOR_CR_LABEL, OPERATOR_RUNNER_LABEL, RAW_NAME, RUNNER_CONTAINER, type RunnerPlacement } from './testrun.ts';
import { TESTRUN_API } from './version.ts';
import { EXIT_FILE, RELEASE_FILE, STDERR_FILE, workDirOf } from './wrapper.ts';

const STDERR_TAIL = 4000;
/** After the expected run time: graceful stop, summary, slow API servers. */
const FINISH_GRACE_MS = 120_000;
const GONE_TIMEOUT_MS = 60_000;
/** Stages after which the runners have been resumed. */
const RUNNING_STAGES = new Set(['started', 'stopped', 'finished']);

export interface K6OperatorRunnerOptions {
  access: ClusterAccess;
  /** Namespace, image and labels of the runners for a mode (MESH_PERF_MODE in the invocation env). */
  placementFor(mode: string | undefined): RunnerPlacement;
  /** Until the runners are resumed (stage "started"). */
  readyTimeoutMs: number;
  log: Logger;
  /** The k6 version of the client image (the runners run the same image). */
  version(): Promise<string>;
  /** Its pacer (LoadRunner.pacer), when the platform can tell. */
  pacer?(): Promise<{ version: string | undefined; where: string }>;
  pollMs?: number;
  /** Where runners can go, for load.generators: auto (the platform reads it from the nodes). */
  capacity?: () => GeneratorCapacity;
}

interface PodView {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string; creationTimestamp?: string };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: {
      name: string;
      ready: boolean;
      state?: { waiting?: { reason?: string; message?: string }; terminated?: { reason?: string; exitCode?: number } };
    }[];
  };
}

/** What became of one runner: its k6 exited (the wrapper recorded the code) or its pod ended first. */
type RunnerEnd = { pod: string; exitCode: number } | { pod?: string; dead: string; exitCode: number };

export class K6OperatorRunner implements LoadRunner {
  private cachedVersion?: string;
  /** Present when the platform knows its nodes: load.generators auto then splits the load. */
  readonly capacity?: () => GeneratorCapacity;

  constructor(private readonly options: K6OperatorRunnerOptions) {
    if (options.capacity) this.capacity = options.capacity;
  }

  async version(): Promise<string> {
    this.cachedVersion ??= await this.options.version();
    return this.cachedVersion;
  }

  /** The runners run the client image: its k6's pacer, as the client pods report it. */
  pacer(): Promise<{ version: string | undefined; where: string }> {
    return this.options.pacer?.() ?? Promise.resolve({ version: undefined, where: "the k6-operator runners' k6" });
  }

  async run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome> {
    return (await this.runGroup([invocation], onProgress, signal))[0]!;
  }

  async runGroup(invocations: K6Invocation[], onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome[]> {
    const invocation = invocations[0];
    if (!invocation) return [];
    if (invocation.workDir)
      throw new UsageError(
        'load.script: a k6 script of your own cannot run with load.engine k6-operator yet (its imports resolve on this machine, not in the runner pods); use the built-in load profile options',
      );
    const placement = this.options.placementFor(invocation.env.MESH_PERF_MODE);
    const name = `mesh-perf-${randomBytes(4).toString('hex')}`;
    const run = new TestRunWatch(this.options, placement.namespace, name, invocations.length);
    const { configMap, testRun } = buildTestRun(name, invocations, placement);
    try {
      await run.create('configmaps', `/api/v1/namespaces/${placement.namespace}/configmaps`, configMap);
      await run.create('testruns.k6.io', run.testRunPath(''), testRun);
      const ends = await run.waitForRunners(invocation.expectedSeconds, onProgress, signal);
      if (!ends) return invocations.map((_, i) => cancelled(run.where(i)));
      return await Promise.all(ends.map((end, i) => this.collect(run, invocations[i]!, end, i)));
    } finally {
      await run.remove(signal.aborted);
    }
  }

  private async collect(run: TestRunWatch, invocation: K6Invocation, end: RunnerEnd, index: number): Promise<K6Outcome> {
    const where = run.where(index, end.pod);
    const k6Version = await this.version().catch(() => undefined);
    if ('dead' in end) return { exitCode: end.exitCode, extraFiles: {}, stderrTail: end.dead, where, ...(k6Version ? { k6Version } : {}) };
    const ref = run.pod(end.pod);
    const dir = workDirOf(end.pod);
    try {
      const summary = await readText(this.options.access, ref, `${dir}/${invocation.summaryFile}`);
      const stderr = await execInPod(this.options.access, ref, ['tail', '-c', String(STDERR_TAIL), `${dir}/${STDERR_FILE}`], {
        timeoutMs: 30_000,
      });
      let stderrTail = stderr.stdout.trim();
      // A runner whose k6 died leaves a cut-off CSV: its outcome says so, the others' data stands.
      const raw = invocation.rawFile
        ? await this.readRaw(ref, `${dir}/${RAW_NAME}`).catch((error: Error) => {
            stderrTail += `\nraw samples of ${where} unreadable: ${error.message}`;
            return undefined;
          })
        : undefined;
      return {
        exitCode: end.exitCode,
        ...(summary !== undefined ? { summary } : {}),
        extraFiles: {},
        stderrTail,
        where,
        ...(k6Version ? { k6Version } : {}),
        ...(raw ? { raw } : {}),
      };
    } catch (error) {
      // The pod went away between its exit code and its files: this instance has no data.
      return {
        exitCode: end.exitCode,
        extraFiles: {},
        stderrTail: `could not read the files of ${where}: ${(error as Error).message.split('\n')[0]}`,
        where,
        ...(k6Version ? { k6Version } : {}),
      };
    } finally {
      // The wrapper exits with k6's code: the Job completes and the TestRun finishes.
      await execInPod(this.options.access, ref, ['touch', `${dir}/${RELEASE_FILE}`], { timeoutMs: 30_000 }).catch(() => undefined);
    }
  }

  /** Only the header and the metrics the merge reads cross the network, gzipped (base64 keeps the exec stream text). */
  private async readRaw(ref: PodRef, path: string): Promise<RawSamples | undefined> {
    const pattern = `^(metric_name|${RAW_CSV_METRICS.join('|')}),`;
    const chunks: string[] = [];
    const result = await execInPod(
      this.options.access,
      ref,
      ['sh', '-c', '[ -f "$1" ] || exit 3; grep -E "$2" "$1" | gzip -c | base64', 'sh', path, pattern],
      { timeoutMs: 10 * 60_000, stdoutLimit: 1, onStdout: (text) => chunks.push(text) },
    );
    if (result.exitCode !== 0) return undefined;
    const csv = gunzipSync(Buffer.from(chunks.join(''), 'base64'));
    return collectRawSamples(
      (async function* () {
        yield csv;
      })(),
    );
  }
}

function cancelled(where: string): K6Outcome {
  return { exitCode: 130, extraFiles: {}, stderrTail: 'cancelled', where };
}

async function readText(access: ClusterAccess, ref: PodRef, path: string): Promise<string | undefined> {
  const result = await execInPod(access, ref, ['cat', path], { timeoutMs: 60_000 });
  return result.exitCode === 0 ? result.stdout : undefined;
}

/** One TestRun through its life: created, watched until every runner ended, removed. */
class TestRunWatch {
  private stages: string[] = [];
  /** Runner pods seen, by instance: a pod that vanishes afterwards ended its instance. */
  private readonly seen = new Map<number, string>();

  constructor(
    private readonly options: K6OperatorRunnerOptions,
    private readonly namespace: string,
    private readonly name: string,
    private readonly total: number,
  ) {}

  testRunPath(name: string): string {
    return `/apis/${TESTRUN_API}/namespaces/${this.namespace}/testruns${name ? `/${name}` : ''}`;
  }

  pod(name: string): PodRef {
    return { namespace: this.namespace, pod: name, container: RUNNER_CONTAINER };
  }

  where(index: number, pod = this.seen.get(index)): string {
    const runner = `runner ${index + 1} of ${this.total} of TestRun ${this.namespace}/${this.name}`;
    return pod ? `pod ${this.namespace}/${pod} (${runner})` : runner;
  }

  async create(resource: string, path: string, body: unknown): Promise<void> {
    await sendJson(
      this.options.access,
      path,
      { verb: 'create', resource, namespace: this.namespace },
      { method: 'POST', body: JSON.stringify(body), contentType: 'application/json', timeoutMs: 15_000, ok: [201] },
    );
  }

  /** Every runner's end in instance order, or undefined when cancelled. */
  async waitForRunners(
    expectedSeconds: number,
    onProgress: (p: K6Progress) => void,
    signal: AbortSignal,
  ): Promise<RunnerEnd[] | undefined> {
    const createdAt = Date.now();
    let resumedAt: number | undefined;
    const ends = new Map<number, RunnerEnd>();
    const pollMs = this.options.pollMs ?? 1000;
    for (;;) {
      if (signal.aborted) return undefined;
      const stage = await this.stage();
      if (stage === 'error') throw new EnvironmentError(`${this.describe()} reached stage "error".\n${await this.diagnose()}`);
      const pods = await this.runnerPods();
      if (RUNNING_STAGES.has(stage)) {
        resumedAt ??= Date.now();
        onProgress({ elapsedS: (Date.now() - resumedAt) / 1000, totalS: expectedSeconds });
      }
      for (let index = 0; index < this.total; index++) {
        if (ends.has(index)) continue;
        const end = await this.runnerEnd(index, pods.get(index), resumedAt !== undefined);
        if (end) ends.set(index, end);
      }
      if (ends.size === this.total) return [...ends.entries()].sort(([a], [b]) => a - b).map(([, end]) => end);
      const now = Date.now();
      if (resumedAt === undefined && now - createdAt > this.options.readyTimeoutMs)
        throw new EnvironmentError(
          `${this.describe()} did not start its runners within ${formatDuration(this.options.readyTimeoutMs)} (kubernetes.readyTimeout).${
            stage
              ? ''
              : ' It never got a stage: is the k6-operator controller running? (kubectl get pods -A -l app.kubernetes.io/name=k6-operator)'
          }\n${await this.diagnose()}`,
        );
      if (resumedAt !== undefined && now - resumedAt > expectedSeconds * 1000 + FINISH_GRACE_MS) {
        const waiting = [...Array(this.total).keys()].filter((i) => !ends.has(i)).map((i) => this.where(i));
        throw new EnvironmentError(
          `${this.describe()}: ${waiting.join(', ')} did not finish within ${formatDuration(expectedSeconds * 1000 + FINISH_GRACE_MS)} of being started.\n${await this.diagnose()}`,
        );
      }
      await sleep(pollMs);
    }
  }

  private describe(): string {
    return `k6-operator TestRun ${this.namespace}/${this.name} (stages: ${this.stages.join(' → ') || 'none'})`;
  }

  private async stage(): Promise<string> {
    const testRun = await getJson<{ status?: { stage?: string } }>(
      this.options.access,
      this.testRunPath(this.name),
      { verb: 'get', resource: `testruns.k6.io/${this.name}`, namespace: this.namespace },
      { timeoutMs: 15_000 },
    );
    if (!testRun) throw new EnvironmentError(`${this.describe()} was deleted while the repetition ran (by someone else, or spec.cleanup)`);
    const stage = testRun.status?.stage ?? '';
    if (stage && this.stages.at(-1) !== stage) this.stages.push(stage);
    return stage;
  }

  private async pods(): Promise<PodView[]> {
    const selector = encodeURIComponent(`${OPERATOR_CR_LABEL}=${this.name}`);
    const pods = await listJson<PodView>(
      this.options.access,
      `/api/v1/namespaces/${this.namespace}/pods?labelSelector=${selector}`,
      { verb: 'list', resource: 'pods', namespace: this.namespace },
      { timeoutMs: 15_000 },
    );
    return pods ?? [];
  }

  /** Runner pods by instance (Job `<name>-<k>` runs instance k-1); the newest pod of a Job wins. */
  private async runnerPods(): Promise<Map<number, PodView>> {
    const byIndex = new Map<number, PodView>();
    for (const pod of await this.pods()) {
      const labels = pod.metadata.labels ?? {};
      if (labels[OPERATOR_RUNNER_LABEL] !== 'true') continue;
      const job = labels['batch.kubernetes.io/job-name'] ?? labels['job-name'] ?? '';
      const k = Number(job.slice(this.name.length + 1));
      if (!job.startsWith(`${this.name}-`) || !Number.isInteger(k) || k < 1 || k > this.total) continue;
      const previous = byIndex.get(k - 1);
      if (!previous || (previous.metadata.creationTimestamp ?? '') < (pod.metadata.creationTimestamp ?? '')) byIndex.set(k - 1, pod);
    }
    return byIndex;
  }

  private async runnerEnd(index: number, pod: PodView | undefined, resumed: boolean): Promise<RunnerEnd | undefined> {
    if (!pod) {
      const previous = this.seen.get(index);
      return previous ? { pod: previous, dead: `runner pod ${this.namespace}/${previous} disappeared`, exitCode: 1 } : undefined;
    }
    const name = pod.metadata.name;
    this.seen.set(index, name);
    const k6 = pod.status?.containerStatuses?.find((c) => c.name === RUNNER_CONTAINER);
    const terminated = k6?.state?.terminated;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' || terminated) {
      const code = terminated?.exitCode ?? 1;
      const why =
        code === 0
          ? 'k6 exited without the mesh-perf wrapper recording its files (the runner container did not start the wrapper first on PATH)'
          : `the runner container ended: ${podState(pod)}`;
      return { pod: name, dead: `${why}\n${await this.logTail(name)}`.trim(), exitCode: code === 0 ? 1 : code };
    }
    if (!resumed || pod.status?.phase !== 'Running') return undefined;
    const exit = await execInPod(this.options.access, this.pod(name), ['cat', `${workDirOf(name)}/${EXIT_FILE}`], {
      timeoutMs: 30_000,
    }).catch(() => undefined);
    const code = exit?.exitCode === 0 ? Number.parseInt(exit.stdout.trim(), 10) : Number.NaN;
    return Number.isInteger(code) ? { pod: name, exitCode: code } : undefined;
  }

  private async logTail(pod: string, container = RUNNER_CONTAINER): Promise<string> {
    const response = await rawRequest(
      this.options.access,
      `/api/v1/namespaces/${this.namespace}/pods/${pod}/log?container=${container}&tailLines=30`,
      { timeoutMs: 15_000, attempts: 1 },
    ).catch(() => undefined);
    return response?.status === 200 ? response.body.trim().slice(-STDERR_TAIL) : '';
  }

  /** Every pod of the TestRun with its state, and the initializer's log when it failed (script errors, parallelism above the VUs). */
  private async diagnose(): Promise<string> {
    const lines: string[] = [];
    try {
      const pods = await this.pods();
      if (pods.length === 0) lines.push(`  no pods with ${OPERATOR_CR_LABEL}=${this.name} in namespace ${this.namespace}`);
      for (const pod of pods) {
        lines.push(`  pod ${pod.metadata.name}: ${podState(pod)}`);
        if (pod.metadata.name.startsWith(`${this.name}-initializer`) && pod.status?.phase === 'Failed') {
          const log = await this.logTail(pod.metadata.name);
          if (log) lines.push(...log.split('\n').map((line) => `    ${line}`));
        }
      }
    } catch (error) {
      lines.push(`  (could not list the TestRun's pods: ${(error as Error).message.split('\n')[0]})`);
    }
    return lines.join('\n');
  }

  /**
   * Deletes the TestRun (its Jobs and pods go with it through their owner references), the
   * ConfigMap, and any runner Job still listed; then waits for the pods to go, so the next
   * repetition does not share nodes with this one's. Never throws: a failure is a warning
   * naming what to delete by hand (the run's namespaces are removed at teardown anyway).
   */
  async remove(cancelled: boolean): Promise<void> {
    const problems: string[] = [];
    const del = async (path: string, what: string) => {
      const response = await rawRequest(this.options.access, `${path}?propagationPolicy=Background`, {
        method: 'DELETE',
        timeoutMs: 15_000,
      }).catch((error: Error) => ({ status: 0, body: error.message }));
      if (response.status !== 200 && response.status !== 202 && response.status !== 404)
        problems.push(`${what}: HTTP ${response.status}: ${response.body.slice(0, 200)}`);
    };
    await del(this.testRunPath(this.name), `testrun ${this.name}`);
    await del(`/api/v1/namespaces/${this.namespace}/configmaps/${this.name}`, `configmap ${this.name}`);
    const selector = encodeURIComponent(`${OPERATOR_CR_LABEL}=${this.name}`);
    const jobs = await rawRequest(this.options.access, `/apis/batch/v1/namespaces/${this.namespace}/jobs?labelSelector=${selector}`, {
      timeoutMs: 15_000,
    }).catch(() => undefined);
    if (jobs?.status === 200)
      for (const job of (JSON.parse(jobs.body) as { items: { metadata: { name: string } }[] }).items)
        await del(`/apis/batch/v1/namespaces/${this.namespace}/jobs/${job.metadata.name}`, `job ${job.metadata.name}`);
    const deadline = Date.now() + (cancelled ? 10_000 : GONE_TIMEOUT_MS);
    let left: string[] = [];
    while (Date.now() < deadline) {
      left = (await this.pods().catch(() => [])).map((p) => p.metadata.name);
      if (left.length === 0) break;
      await sleep(500);
    }
    if (left.length > 0) problems.push(`pods still terminating: ${left.join(', ')}`);
    if (problems.length > 0)
      this.options.log.warn(
        `could not remove everything of ${this.describe()}: ${problems.join('; ')}. Remove it with: kubectl delete -n ${this.namespace} testrun/${this.name} configmap/${this.name} && kubectl delete job -n ${this.namespace} -l ${OPERATOR_CR_LABEL}=${this.name}`,
      );
  }
}
