// Runs the k6 instances of one repetition as local processes, started together. Each starts
// `k6 run --paused` with its own REST API port; once every one reports its VUs initialized and
// the run paused before its start (k6's ExecutionStatusPausedBeforeRun, lib/execution.go), all
// are resumed at once (PATCH /v1/status paused:false), so no instance starts its schedule while
// another is still initializing. An instance that dies stops the others (the repetition is
// invalid anyway, and nothing is left running); cancelling stops all of them.
import { rm } from 'node:fs/promises';
import { EnvironmentError } from '../util/errors.ts';
import { freePort } from '../util/net.ts';
import { fetchIterations, type K6Process, k6Args, prepareDir, readOutcome, startK6, stopK6 } from './k6-process.ts';
import type { K6Invocation, K6Outcome, K6Progress } from './types.ts';

/** k6's ExecutionStatusPausedBeforeRun: VUs and executors initialized, waiting for resume. */
const PAUSED_BEFORE_RUN = 4;
/** Initializing a few hundred VUs takes seconds; a minute more means k6 is stuck. */
const INIT_TIMEOUT_MS = 120_000;
const POLL_MS = 100;

interface Member {
  invocation: K6Invocation;
  dir: string;
  port: number;
  k6?: K6Process;
  exit?: { exitCode: number; stderrTail: string };
  stoppedBecause?: string;
}

export async function runLocalGroup(
  k6Path: string,
  invocations: K6Invocation[],
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
): Promise<K6Outcome[]> {
  const n = invocations.length;
  const where = (i: number) => `k6 process ${i + 1} of ${n}`;
  const members: Member[] = [];
  let poll: NodeJS.Timeout | undefined;
  const stopAll = (because: string, except = -1) => {
    members.forEach((m, j) => {
      if (j === except || !m.k6 || m.exit) return;
      m.stoppedBecause ??= because;
      stopK6(m.k6.child);
    });
  };
  const abort = () => stopAll('the run was cancelled');
  try {
    const ports = new Set<number>();
    for (const invocation of invocations) {
      let port = await freePort();
      while (ports.has(port)) port = await freePort();
      ports.add(port);
      members.push({ invocation, dir: await prepareDir(invocation), port });
    }
    signal.addEventListener('abort', abort, { once: true });
    let died: number | undefined;
    for (const [i, m] of members.entries()) {
      const k6 = startK6(k6Path, k6Args(m.invocation, m.dir, m.port, ['--paused']), m.dir);
      m.k6 = k6;
      void k6.exited.then((exit) => {
        m.exit = exit;
        // A normal end (0, or 99: the script's own thresholds failed) needs nothing from the others.
        if (exit.exitCode === 0 || exit.exitCode === 99 || m.stoppedBecause || died !== undefined) return;
        died = i;
        stopAll(`${where(i)} died`, i);
      });
      await k6.started;
    }
    await waitUntilPaused(members, where, signal, () => died);
    // A death or a cancel before every process had started leaves later ones paused: stop them too.
    if (signal.aborted) stopAll('the run was cancelled');
    else if (died !== undefined) stopAll(`${where(died)} died`, died);
    else {
      const resumedAt = Date.now();
      await Promise.all(members.map((m, i) => resume(m.port, where(i)))).catch((error: unknown) => {
        stopAll('another k6 process could not be resumed');
        throw error;
      });
      const totalS = Math.max(...invocations.map((inv) => inv.expectedSeconds));
      poll = setInterval(() => {
        const elapsedS = (Date.now() - resumedAt) / 1000;
        void Promise.all(members.map((m) => (m.exit ? undefined : fetchIterations(m.port)))).then((counts) => {
          const known = counts.filter((c): c is number => c !== undefined);
          onProgress({ elapsedS, totalS, ...(known.length > 0 ? { requests: known.reduce((a, b) => a + b, 0) } : {}) });
        });
      }, 1000);
    }
    const exits = await Promise.all(members.map((m) => m.k6!.exited));
    const outcomes: K6Outcome[] = [];
    for (const [i, m] of members.entries()) {
      const outcome = await readOutcome(m.dir, m.invocation, exits[i]!);
      outcome.where = where(i);
      if (m.stoppedBecause) outcome.stoppedBecause = m.stoppedBecause;
      outcomes.push(outcome);
    }
    return outcomes;
  } finally {
    clearInterval(poll);
    signal.removeEventListener('abort', abort);
    // Whatever went wrong above, no k6 process outlives the group.
    stopAll('the group ended');
    await Promise.all(members.map((m) => m.k6?.exited.catch(() => undefined)));
    await Promise.all(members.map((m) => rm(m.dir, { recursive: true, force: true })));
  }
}

/**
 * Polls every instance's status until all are paused before their start. Returns early when one
 * died or the run was cancelled (the caller sees it); throws when one is stuck initializing.
 */
async function waitUntilPaused(members: Member[], where: (i: number) => string, signal: AbortSignal, died: () => number | undefined) {
  const deadline = Date.now() + INIT_TIMEOUT_MS;
  const ready = new Set<number>();
  while (ready.size < members.length) {
    if (died() !== undefined || signal.aborted) return;
    await Promise.all(
      members.map(async (m, i) => {
        if (!ready.has(i) && (await pausedBeforeRun(m.port))) ready.add(i);
      }),
    );
    if (ready.size === members.length) return;
    if (Date.now() > deadline) {
      const slow = members.map((_, i) => i).filter((i) => !ready.has(i));
      members.forEach((m) => m.k6 && stopK6(m.k6.child));
      throw new EnvironmentError(
        `${slow.map(where).join(', ')} did not finish initializing its VUs within ${INIT_TIMEOUT_MS / 1000} s; the group was not started`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function pausedBeforeRun(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/status`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return false;
    const body = (await response.json()) as { data?: { attributes?: { status?: number; paused?: boolean } } };
    const status = body.data?.attributes;
    return status?.status === PAUSED_BEFORE_RUN && status.paused === true;
  } catch {
    return false; // not listening yet
  }
}

async function resume(port: number, where: string): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/status`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } }),
    signal: AbortSignal.timeout(5000),
  }).catch((error: unknown) => {
    throw new EnvironmentError(`${where} could not be resumed through its REST API: ${(error as Error).message}`);
  });
  if (!response.ok)
    throw new EnvironmentError(`${where} refused to resume (HTTP ${response.status}): ${(await response.text()).slice(0, 300)}`);
}
