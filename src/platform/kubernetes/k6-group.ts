// One repetition as N k6 instances, one per client pod of the mode (load.generators). Each pod
// gets the files and starts `k6 run --paused` with its own execution segment; once every
// instance reports status PausedBeforeRun (k6 has initialized its VUs and executors), all are
// resumed at once with `k6 resume`, so no instance starts its measured scenario before the
// others are ready. Their REST APIs listen on 127.0.0.1:<6565 + index>: in a real cluster each
// pod has its own network namespace, but under kwok every "pod" is a process on one host. The
// summaries come back with `cat`; the raw samples are filtered to the metrics the merge reads
// (grep), compressed and base64-encoded in the pod, since the exec stream carries text.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import type { K6Invocation, K6Outcome, K6Progress } from '../../load/types.ts';
import type { RawSamples } from '../../load/raw-samples.ts';
import type { ExecResult, PodRef } from './exec.ts';
import { EnvironmentError } from '../../util/errors.ts';

/** k6's ExecutionStatusPausedBeforeRun (lib/execution.go, k6 1.4.2): VUs and executors initialized, waiting for resume. */
export const K6_PAUSED_BEFORE_RUN = 4;
const API_PORT_BASE = 6565;
/** How long the instances may take to initialize their VUs before the group gives up. */
const READY_TIMEOUT_MS = 120_000;
const POLL_MS = 250;

/** Reads an instance's raw-samples CSV: which metrics to keep, and the parser. */
export interface RawReader {
  metrics: readonly string[];
  parse(csv: string): Promise<RawSamples>;
}

export interface GroupSlot {
  invocation: K6Invocation;
  pod: PodRef;
  workDir: string;
  port: number;
  /** "k6 1 of 3 in pod ns/mesh-perf-client-1", for messages. */
  where: string;
}

export interface GroupDeps {
  /** Runs a short command in a pod (execInPod). */
  exec(pod: PodRef, command: string[], timeoutMs: number): Promise<ExecResult>;
  upload(pod: PodRef, path: string, content: string, signal: AbortSignal): Promise<void>;
  workRoot: string;
  podFor(mode: string | undefined, index: number): PodRef;
  /** Starts one instance's k6 in its pod (the runner's own command and stream handling). */
  start(slot: GroupSlot, args: string[], onLine: (line: string) => void): Promise<ExecResult>;
  interrupt(pod: PodRef, workDir: string): Promise<void>;
  collect(slot: GroupSlot, result: ExecResult): Promise<K6Outcome>;
  raw?: RawReader;
  apiPortBase?: number;
}

/** `k6 status` prints YAML: "status: 4", "paused: \"true\"". */
export function parseK6Status(text: string): { status: number; paused: boolean } | undefined {
  const status = /^status:\s*"?(\d+)"?\s*$/m.exec(text);
  const paused = /^paused:\s*"?(true|false)"?\s*$/m.exec(text);
  if (!status || !paused) return undefined;
  return { status: Number(status[1]), paused: paused[1] === 'true' };
}

/** The arguments an instance runs with: paused, its own API address and execution segment. */
export function instanceArgs(invocation: K6Invocation, port: number): string[] {
  const args = ['--paused', '--address', `127.0.0.1:${port}`];
  const slice = invocation.instance;
  // The engine may already have put the segment among the arguments.
  if (slice && !invocation.args.includes('--execution-segment'))
    args.push('--execution-segment', slice.segment, '--execution-segment-sequence', slice.sequence);
  return [...args, ...invocation.args];
}

/** The command that prints the raw CSV's header and the rows of `metrics`, gzipped and base64-encoded. */
export function rawFetchCommand(workDir: string, rawFile: string, metrics: readonly string[]): string[] {
  const pattern = `^(${metrics.map((m) => m.replace(/[^A-Za-z0-9_]/g, '')).join('|')}),`;
  return ['sh', '-c', 'cd "$0" && { head -n 1 "$1"; grep -E "$2" "$1"; } | gzip -c | base64', workDir, rawFile, pattern];
}

export function decodeRawFetch(stdout: string): string {
  return gunzipSync(Buffer.from(stdout.replace(/\s+/g, ''), 'base64')).toString('utf8');
}

interface Running {
  slot: GroupSlot;
  done: Promise<unknown>;
  finished?: ExecResult | Error;
  /** Set when the group stopped this instance because of another, or of the run. */
  stoppedBecause?: string;
  iterations: number;
  elapsedS: number;
}

/** k6's normal ends: 0, or 99 when the script's own thresholds failed. */
const NORMAL_EXITS = new Set([0, 99]);

export async function runK6Group(
  deps: GroupDeps,
  invocations: readonly K6Invocation[],
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
  parseProgress: (line: string) => { elapsedS: number; iterations: number } | undefined,
): Promise<K6Outcome[]> {
  const count = invocations.length;
  const base = deps.apiPortBase ?? API_PORT_BASE;
  const slots: GroupSlot[] = invocations.map((invocation, i) => {
    const index = invocation.instance?.index ?? i;
    const pod = deps.podFor(invocation.env.MESH_PERF_MODE, index);
    return {
      invocation,
      pod,
      workDir: `${deps.workRoot}/${randomBytes(6).toString('hex')}`,
      port: base + index,
      where: `k6 ${index + 1} of ${count} in pod ${pod.namespace}/${pod.pod}`,
    };
  });
  const totalS = Math.max(...invocations.map((i) => i.expectedSeconds));
  const running: Running[] = [];
  const stopAll = (because: string) =>
    Promise.all(
      running
        .filter((r) => !r.finished)
        .map((r) => {
          r.stoppedBecause ??= because;
          return deps.interrupt(r.slot.pod, r.slot.workDir);
        }),
    );
  const onAbort = () => void stopAll('the run was cancelled');
  try {
    await Promise.all(
      slots.map(async (slot) => {
        for (const [name, content] of Object.entries(slot.invocation.files))
          await deps.upload(slot.pod, `${slot.workDir}/${name}`, content, signal);
      }),
    );
    signal.addEventListener('abort', onAbort, { once: true });
    let died: string | undefined;
    for (const slot of slots) {
      const entry: Running = { slot, done: Promise.resolve(), iterations: 0, elapsedS: 0 };
      const started = deps.start(slot, instanceArgs(slot.invocation, slot.port), (line) => {
        const progress = parseProgress(line);
        if (!progress) return;
        entry.iterations = progress.iterations;
        entry.elapsedS = progress.elapsedS;
        onProgress({
          elapsedS: Math.max(...running.map((r) => r.elapsedS)),
          totalS,
          requests: running.reduce((sum, r) => sum + r.iterations, 0),
        });
      });
      entry.done = started
        .then(
          (result) => result,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        )
        .then((finished) => {
          entry.finished = finished;
          // One instance dying makes the repetition invalid: the others need not run it out.
          if (entry.stoppedBecause || died !== undefined) return;
          if (!(finished instanceof Error) && NORMAL_EXITS.has(finished.exitCode)) return;
          died = `${slot.where} ${finished instanceof Error ? `failed: ${finished.message}` : `died (exit code ${finished.exitCode})`}`;
          void stopAll(died);
        });
      running.push(entry);
    }
    const stuck = await waitAllPaused(deps, running, signal, () => died);
    if (stuck) {
      await stopAll(stuck);
      await Promise.all(running.map((r) => r.done));
      throw new EnvironmentError(`${stuck}; they were stopped`);
    }
    if (died === undefined && !signal.aborted) await Promise.all(running.map((r) => resume(deps, r.slot, stopAll)));
    await Promise.all(running.map((r) => r.done));
    return await Promise.all(
      running.map(async (r) => {
        const finished = r.finished!;
        const result: ExecResult =
          finished instanceof Error ? { exitCode: 255, stdout: '', stderr: `${r.slot.where}: ${finished.message}` } : finished;
        const outcome = await deps.collect(r.slot, result);
        outcome.where = r.slot.where;
        if (r.stoppedBecause) outcome.stoppedBecause = r.stoppedBecause;
        if (deps.raw && r.slot.invocation.rawFile && outcome.summary) {
          const raw = await fetchRaw(deps, r.slot, deps.raw);
          if (raw instanceof Error) outcome.stderrTail = `${outcome.stderrTail}\n${raw.message}`.trim();
          else outcome.raw = raw;
        }
        return outcome;
      }),
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Whatever went wrong above, no k6 of the group outlives it.
    await stopAll('the group ended');
    await Promise.all(running.map((r) => r.done));
    await Promise.all(slots.map((slot) => deps.exec(slot.pod, ['rm', '-rf', slot.workDir], 30_000).catch(() => undefined)));
  }
}

/**
 * Polls every instance until all are paused before the run. Returns early (undefined) when one
 * died or the run was cancelled, which the caller sees; returns which instances are stuck when
 * they did not finish initializing in time.
 */
async function waitAllPaused(
  deps: GroupDeps,
  running: Running[],
  signal: AbortSignal,
  died: () => string | undefined,
): Promise<string | undefined> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const ready = new Set<Running>();
  while (ready.size < running.length) {
    if (signal.aborted || died() !== undefined) return undefined;
    if (Date.now() > deadline)
      return `${running
        .filter((r) => !ready.has(r))
        .map((r) => r.slot.where)
        .join(', ')} did not finish initializing its VUs within ${READY_TIMEOUT_MS / 1000} s`;
    await Promise.all(
      running
        .filter((r) => !ready.has(r) && !r.finished)
        .map(async (r) => {
          const answer = await deps
            .exec(r.slot.pod, ['k6', 'status', '--address', `127.0.0.1:${r.slot.port}`], 15_000)
            .catch(() => undefined);
          const status = answer?.exitCode === 0 ? parseK6Status(answer.stdout) : undefined;
          if (status?.paused && status.status === K6_PAUSED_BEFORE_RUN) ready.add(r);
        }),
    );
    if (ready.size < running.length) await sleep(POLL_MS);
  }
  return undefined;
}

async function resume(deps: GroupDeps, slot: GroupSlot, stopAll: (because: string) => Promise<unknown>): Promise<void> {
  const result = await deps
    .exec(slot.pod, ['k6', 'resume', '--address', `127.0.0.1:${slot.port}`], 15_000)
    .catch((error: Error) => ({ exitCode: 255, stdout: '', stderr: error.message }));
  // One instance left paused would hold the others' repetition short: stop them all.
  if (result.exitCode !== 0)
    await stopAll(`${slot.where} could not be resumed: ${result.stderr.trim().split('\n').pop() ?? `exit ${result.exitCode}`}`);
}

async function fetchRaw(deps: GroupDeps, slot: GroupSlot, reader: RawReader): Promise<RawSamples | Error> {
  const result = await deps
    .exec(slot.pod, rawFetchCommand(slot.workDir, slot.invocation.rawFile!, reader.metrics), 300_000)
    .catch((e: Error) => e);
  if (result instanceof Error) return new Error(`raw samples not copied from ${slot.where}: ${result.message}`);
  if (result.exitCode !== 0)
    return new Error(`raw samples not copied from ${slot.where}: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
  return reader.parse(decodeRawFetch(result.stdout));
}
