// One repetition as N k6 instances started together, wherever they run: local processes
// (load/local-group.ts) or client pods (platform/kubernetes/k6-group.ts) are adapters to this one
// protocol. Each instance is started with `k6 run --paused` and its own REST API; once every one
// reports PausedBeforeRun (its VUs and executors initialized, k6's lib/execution.go) all are
// resumed at once, so no instance starts its schedule while another is still initializing. One
// that dies (any exit but 0, or 99: the script's own thresholds failed) stops the others, saying
// why: the repetition is invalid anyway, and nothing is left running. Cancelling stops them all.
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError } from '../util/errors.ts';
import type { K6Invocation, K6Outcome, K6Progress } from './types.ts';

/** k6's ExecutionStatusPausedBeforeRun: VUs and executors initialized, waiting for resume. */
export const K6_PAUSED_BEFORE_RUN = 4;
/** Initializing a few hundred VUs takes seconds; two minutes means k6 is stuck. */
const INIT_TIMEOUT_MS = 120_000;
/** k6's normal ends: 0, or 99 when the script's own thresholds failed. */
const NORMAL_EXITS = new Set([0, 99]);

/** How an instance ended: its exit code (with whatever else the adapter keeps), or why it could not run. */
export type GroupEnd<E extends { exitCode: number }> = E | Error;

/** Where an instance got to, as its output or its REST API tells it. */
export interface MemberProgress {
  /** Seconds into its schedule, when the instance says; else the time since the resume counts. */
  elapsedS?: number;
  iterations: number;
}

/** How one kind of place runs an instance; M is what it keeps per instance, E how one ends. */
export interface GroupAdapter<M, E extends { exitCode: number }> {
  /** Sets an instance up (its files, its API port) before any is started. */
  prepare(invocation: K6Invocation, index: number, count: number, signal: AbortSignal): Promise<M>;
  /** "k6 process 1 of 2", "k6 1 of 2 in pod ns/mesh-perf-client": for messages. */
  where(member: M): string;
  /**
   * Starts it paused. `launched` rejects when it could not be started at all (no k6 binary: the
   * group stops and throws); `ended` settles when it ends, never rejecting.
   */
  start(member: M, onProgress: (progress: MemberProgress) => void): { launched: Promise<void>; ended: Promise<GroupEnd<E>> };
  pausedBeforeRun(member: M): Promise<boolean>;
  /** Resumes it; throws an Error saying why it could not be. */
  resume(member: M): Promise<void>;
  /** Asks it to stop (k6 then writes its summary). */
  stop(member: M): Promise<void>;
  /** Its iterations so far, for adapters whose instances print no progress (polled each second). */
  iterations?(member: M): Promise<number | undefined>;
  collect(member: M, end: GroupEnd<E>): Promise<K6Outcome>;
  /** Removes what prepare made; never throws. */
  cleanup(member: M): Promise<void>;
  /** How often to ask whether every instance is paused before its run. */
  pollMs: number;
  /** How long the instances may take to initialize (default two minutes). */
  initTimeoutMs?: number;
}

interface Running<M, E extends { exitCode: number }> {
  member: M;
  end?: GroupEnd<E>;
  ended: Promise<unknown>;
  /** Set when the group stopped this instance because of another, or of the run. */
  stoppedBecause?: string;
  progress: MemberProgress;
}

export async function runK6Group<M, E extends { exitCode: number }>(
  adapter: GroupAdapter<M, E>,
  invocations: readonly K6Invocation[],
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
): Promise<K6Outcome[]> {
  const members: M[] = [];
  const running: Running<M, E>[] = [];
  const totalS = Math.max(...invocations.map((i) => i.expectedSeconds));
  let resumedAt: number | undefined;
  let poll: NodeJS.Timeout | undefined;
  let died: string | undefined;
  const report = () => {
    const sinceResume = resumedAt === undefined ? 0 : (Date.now() - resumedAt) / 1000;
    // No count yet says nothing (the pacer's instances in pods count no iteration until the end).
    const requests = running.reduce((sum, r) => sum + r.progress.iterations, 0);
    onProgress({
      elapsedS: Math.max(...running.map((r) => r.progress.elapsedS ?? sinceResume)),
      totalS,
      ...(requests > 0 ? { requests } : {}),
    });
  };
  const stopAll = (because: string) =>
    Promise.all(
      running
        .filter((r) => r.end === undefined)
        .map((r) => {
          r.stoppedBecause ??= because;
          return adapter.stop(r.member).catch(() => undefined);
        }),
    );
  const onAbort = () => void stopAll('the run was cancelled');
  try {
    for (const [i, invocation] of invocations.entries()) members.push(await adapter.prepare(invocation, i, invocations.length, signal));
    signal.addEventListener('abort', onAbort, { once: true });
    for (const member of members) {
      const entry: Running<M, E> = { member, ended: Promise.resolve(), progress: { iterations: 0 } };
      running.push(entry);
      const started = adapter.start(member, (progress) => {
        entry.progress = progress;
        report();
      });
      entry.ended = started.ended.then((end) => {
        entry.end = end;
        if (entry.stoppedBecause || died !== undefined) return;
        if (!(end instanceof Error) && NORMAL_EXITS.has(end.exitCode)) return;
        died = `${adapter.where(member)} ${end instanceof Error ? `failed: ${end.message}` : `died (exit code ${end.exitCode})`}`;
        void stopAll(died);
      });
      try {
        await started.launched;
      } catch (error) {
        await stopAll('another k6 instance could not be started');
        throw error;
      }
    }
    const stuck = await waitAllPaused(adapter, running, signal, () => died);
    if (stuck) {
      await stopAll(stuck);
      await Promise.all(running.map((r) => r.ended));
      throw new EnvironmentError(`${stuck}; the group was stopped before it started`);
    }
    // A death or a cancel before every instance was paused leaves the others paused: stop them too.
    if (signal.aborted) await stopAll('the run was cancelled');
    else if (died !== undefined) await stopAll(died);
    else {
      resumedAt = Date.now();
      await Promise.all(
        running.map((r) =>
          adapter.resume(r.member).catch((error: Error) =>
            // One instance left paused would hold the others' repetition short: stop them all.
            stopAll(`${adapter.where(r.member)} could not be resumed: ${error.message}`),
          ),
        ),
      );
      const iterations = adapter.iterations?.bind(adapter);
      if (iterations)
        poll = setInterval(() => {
          void Promise.all(running.map((r) => (r.end === undefined ? iterations(r.member) : undefined))).then((counts) => {
            counts.forEach((count, i) => {
              if (count !== undefined) running[i]!.progress = { iterations: count };
            });
            report();
          });
        }, 1000);
    }
    await Promise.all(running.map((r) => r.ended));
    return await Promise.all(
      running.map(async (r) => {
        const outcome = await adapter.collect(r.member, r.end!);
        outcome.where = adapter.where(r.member);
        if (r.stoppedBecause) outcome.stoppedBecause = r.stoppedBecause;
        return outcome;
      }),
    );
  } finally {
    clearInterval(poll);
    signal.removeEventListener('abort', onAbort);
    // Whatever went wrong above, no instance outlives the group.
    await stopAll('the group ended');
    await Promise.all(running.map((r) => r.ended));
    await Promise.all(members.map((m) => adapter.cleanup(m)));
  }
}

/**
 * Polls every instance until all are paused before their run. Returns early (undefined) when one
 * died or the run was cancelled, which the caller sees; returns which instances are stuck when
 * they did not finish initializing in time.
 */
async function waitAllPaused<M, E extends { exitCode: number }>(
  adapter: GroupAdapter<M, E>,
  running: Running<M, E>[],
  signal: AbortSignal,
  died: () => string | undefined,
): Promise<string | undefined> {
  const timeoutMs = adapter.initTimeoutMs ?? INIT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const ready = new Set<Running<M, E>>();
  while (ready.size < running.length) {
    if (signal.aborted || died() !== undefined) return undefined;
    if (Date.now() > deadline)
      return `${running
        .filter((r) => !ready.has(r))
        .map((r) => adapter.where(r.member))
        .join(', ')} did not finish initializing its VUs within ${timeoutMs / 1000} s`;
    await Promise.all(
      running
        .filter((r) => !ready.has(r) && r.end === undefined)
        .map(async (r) => {
          if (await adapter.pausedBeforeRun(r.member).catch(() => false)) ready.add(r);
        }),
    );
    if (ready.size < running.length) await sleep(adapter.pollMs);
  }
  return undefined;
}
