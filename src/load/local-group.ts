// The k6 instances of one repetition as local processes: each in its own temporary directory with
// its own REST API port on 127.0.0.1, started, resumed and stopped by the group protocol
// (load/k6-group.ts). Their status and progress come from the REST API (k6 runs --quiet here).
import { rm } from 'node:fs/promises';
import { freePort } from '../util/net.ts';
import { type GroupAdapter, K6_PAUSED_BEFORE_RUN, runK6Group } from './k6-group.ts';
import { fetchIterations, type K6Process, k6Args, prepareDir, readOutcome, startK6, stopK6 } from './k6-process.ts';
import type { K6Invocation, K6Outcome, K6Progress } from './types.ts';

interface LocalMember {
  invocation: K6Invocation;
  dir: string;
  port: number;
  where: string;
  k6?: K6Process;
}

type LocalEnd = { exitCode: number; stderrTail: string };

export function runLocalGroup(
  k6Path: string,
  invocations: K6Invocation[],
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
): Promise<K6Outcome[]> {
  const ports = new Set<number>();
  const adapter: GroupAdapter<LocalMember, LocalEnd> = {
    pollMs: 100,
    async prepare(invocation, index, count) {
      let port = await freePort();
      while (ports.has(port)) port = await freePort();
      ports.add(port);
      return { invocation, dir: await prepareDir(invocation), port, where: `k6 process ${index + 1} of ${count}` };
    },
    where: (m) => m.where,
    start(m) {
      const k6 = startK6(k6Path, k6Args(m.invocation, m.dir, m.port, ['--paused']), m.dir);
      m.k6 = k6;
      return { launched: k6.started, ended: k6.exited };
    },
    pausedBeforeRun: (m) => pausedBeforeRun(m.port),
    resume: (m) => resume(m.port),
    async stop(m) {
      if (m.k6) stopK6(m.k6.child);
    },
    iterations: (m) => fetchIterations(m.port),
    collect: (m, end) =>
      readOutcome(m.dir, m.invocation, end instanceof Error ? { exitCode: 255, stderrTail: `${m.where}: ${end.message}` } : end),
    cleanup: (m) => rm(m.dir, { recursive: true, force: true }),
  };
  return runK6Group(adapter, invocations, onProgress, signal);
}

async function pausedBeforeRun(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/status`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return false;
    const body = (await response.json()) as { data?: { attributes?: { status?: number; paused?: boolean } } };
    const status = body.data?.attributes;
    return status?.status === K6_PAUSED_BEFORE_RUN && status.paused === true;
  } catch {
    return false; // not listening yet
  }
}

async function resume(port: number): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/status`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { type: 'status', id: 'default', attributes: { paused: false } } }),
    signal: AbortSignal.timeout(5000),
  }).catch((error: unknown) => {
    throw new Error(`its REST API did not answer: ${(error as Error).message}`);
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 300)}`);
}
