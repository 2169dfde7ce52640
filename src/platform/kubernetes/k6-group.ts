// One repetition as N k6 instances, one per client pod of the mode (load.generators): the pod
// adapter of the group protocol (load/k6-group.ts). Each pod gets the files and runs `k6 run
// --paused` with its own execution segment; `k6 status` and `k6 resume` in the pod speak to its
// REST API on 127.0.0.1:<6565 + index> (in a real cluster each pod has its own network
// namespace; under kwok every "pod" is a process on one host, so the ports differ). Progress
// comes from k6's output lines. The summaries come back with `cat`; the raw samples are filtered
// to the metrics the merge reads (grep), compressed and base64-encoded in the pod, since the exec
// stream carries text.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { type GroupAdapter, K6_PAUSED_BEFORE_RUN, runK6Group as runGroup } from '../../load/k6-group.ts';
import type { K6Invocation, K6Outcome, K6Progress } from '../../load/types.ts';
import type { RawSamples } from '../../load/raw-samples.ts';
import type { ExecResult, PodRef } from './exec.ts';

const API_PORT_BASE = 6565;
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

export async function runK6Group(
  deps: GroupDeps,
  invocations: readonly K6Invocation[],
  onProgress: (p: K6Progress) => void,
  signal: AbortSignal,
  parseProgress: (line: string) => { elapsedS: number; iterations: number } | undefined,
): Promise<K6Outcome[]> {
  const base = deps.apiPortBase ?? API_PORT_BASE;
  const adapter: GroupAdapter<GroupSlot, ExecResult> = {
    pollMs: POLL_MS,
    async prepare(invocation, i, count, signal) {
      const index = invocation.instance?.index ?? i;
      const pod = deps.podFor(invocation.env.MESH_PERF_MODE, index);
      const slot: GroupSlot = {
        invocation,
        pod,
        workDir: `${deps.workRoot}/${randomBytes(6).toString('hex')}`,
        port: base + index,
        where: `k6 ${index + 1} of ${count} in pod ${pod.namespace}/${pod.pod}`,
      };
      for (const [name, content] of Object.entries(invocation.files)) await deps.upload(pod, `${slot.workDir}/${name}`, content, signal);
      return slot;
    },
    where: (slot) => slot.where,
    start(slot, report) {
      const ended = deps
        .start(slot, instanceArgs(slot.invocation, slot.port), (line) => {
          const progress = parseProgress(line);
          if (progress) report(progress);
        })
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      return { launched: Promise.resolve(), ended };
    },
    async pausedBeforeRun(slot) {
      const answer = await deps.exec(slot.pod, ['k6', 'status', '--address', `127.0.0.1:${slot.port}`], 15_000);
      const status = answer.exitCode === 0 ? parseK6Status(answer.stdout) : undefined;
      return status?.paused === true && status.status === K6_PAUSED_BEFORE_RUN;
    },
    async resume(slot) {
      const result = await deps.exec(slot.pod, ['k6', 'resume', '--address', `127.0.0.1:${slot.port}`], 15_000);
      if (result.exitCode !== 0) throw new Error(result.stderr.trim().split('\n').pop() || `exit ${result.exitCode}`);
    },
    stop: (slot) => deps.interrupt(slot.pod, slot.workDir),
    async collect(slot, end) {
      const result: ExecResult = end instanceof Error ? { exitCode: 255, stdout: '', stderr: `${slot.where}: ${end.message}` } : end;
      const outcome = await deps.collect(slot, result);
      if (deps.raw && slot.invocation.rawFile && outcome.summary) {
        const raw = await fetchRaw(deps, slot, deps.raw);
        if (raw instanceof Error) outcome.stderrTail = `${outcome.stderrTail}\n${raw.message}`.trim();
        else outcome.raw = raw;
      }
      return outcome;
    },
    cleanup: (slot) =>
      deps
        .exec(slot.pod, ['rm', '-rf', slot.workDir], 30_000)
        .then(() => undefined)
        .catch(() => undefined),
  };
  return runGroup(adapter, invocations, onProgress, signal);
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
