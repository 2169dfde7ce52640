// Runs k6 inside the cluster: in the long-lived client pod of the trial's mode, through the exec
// API. The script files are written into a fresh directory in the pod, `k6 run` streams its
// non-TTY progress lines back (parsed for the live progress line), and the summary JSON is read
// back with `cat`. Cancelling stops k6 in the pod with SIGTERM (a background job of a
// non-interactive shell ignores SIGINT); k6 treats it like Ctrl-C. A group of instances
// (load.generators) runs one k6 per client pod of the mode, started together (k6-group.ts).
// The load does not depend on the API server: k6 runs in a session of its own, writes its output
// to a file and its exit code beside it, so when the exec stream breaks (the API server restarted)
// k6 goes on, and the runner asks the pod again, through the outage (api-outage.ts), until k6 has
// ended; every other call in the pod is retried the same way.
import { randomBytes } from 'node:crypto';
import type { K6Invocation, K6Outcome, K6Progress, LoadRunner } from '../../load/types.ts';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import type { ClusterAccess } from './access.ts';
import { execInPod, uploadFile, type ExecResult, type PodRef } from './exec.ts';
import { runK6Group, type RawReader } from './k6-group.ts';
import type { GeneratorCapacity } from '../../load/ceiling.ts';
import { PACER_ENTRY } from '../../load/pacer-params.ts';
import { PACER_MODULE, PACER_PROBE, parseK6Version, parsePacerProbe } from '../../tools/k6.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApiOutage, isUnreachable } from './api-outage.ts';

interface Slot {
  invocation: K6Invocation;
  pod: PodRef;
  workDir: string;
}

function refuseUserScript(invocation: K6Invocation): void {
  if (invocation.workDir) {
    throw new UsageError(
      `load.script: a k6 script of your own cannot run on the kind/kubeconfig platforms yet (its imports resolve on this machine, not in the client pod); use the built-in load profile options, or the local/endpoints platforms`,
    );
  }
}

const STDERR_TAIL = 4000;
const WORK_ROOT = '/tmp/mesh-perf-k6';
const PID_FILE = '.k6.pid';
/** k6's exit code, written by the shell that waits for it (in its own session) when k6 ends. */
const EXIT_FILE = '.k6.exit';
/** Everything k6 printed; the stream follows it, and the runner reads its tail when the stream broke. */
const OUTPUT_FILE = '.k6.out';
/** Printed by the command after k6 ended, before the tail of k6's output. */
export const OUTPUT_MARK = '--- mesh-perf: the tail of k6 output ---';
/** How often a runner whose stream broke asks the pod whether k6 has ended. */
const POLL_MS = 2000;

/** "running (01.0s), 0/2 VUs, 6 complete and 0 interrupted iterations" → elapsed and iterations. */
export function parseProgressLine(line: string): { elapsedS: number; iterations: number } | undefined {
  const match = /running \((?:(\d+)m)?([\d.]+)s\), \d+\/\d+ VUs, (\d+) complete and (\d+) interrupted/.exec(line);
  if (!match) return undefined;
  return { elapsedS: Number(match[1] ?? 0) * 60 + Number(match[2]), iterations: Number(match[3]) + Number(match[4]) };
}

/**
 * The exact command run in the pod: cd into the work dir; start, in a session of its own (setsid
 * where the image has it), a shell that runs k6 with its output to a file, records k6's pid, waits
 * for it and writes its exit code; copy the output file to the stream until that code is there;
 * then print the mark, the tail of k6's output, and exit with k6's code. The exec stream ending
 * early ends only the follower.
 */
export function k6Command(workDir: string, invocation: K6Invocation): string[] {
  const envArgs = Object.entries(invocation.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  const runner = `K6_NO_USAGE_REPORT=true K6_AUTO_EXTENSION_RESOLUTION=false k6 run "$@" >>${OUTPUT_FILE} 2>&1 </dev/null & echo $! > ${PID_FILE}; wait $!; echo $? > ${EXIT_FILE}.tmp; mv ${EXIT_FILE}.tmp ${EXIT_FILE}`;
  // The follower copies what the file gained every half second (no `tail -f`: it would outlive a
  // follower the broken stream ended, in the pod, for as long as the pod).
  const script = [
    'cd "$0" || exit 127',
    `: > ${OUTPUT_FILE}`,
    `$(command -v setsid) sh -c '${runner}' k6 "$@" &`,
    'n=0',
    'while :; do',
    `  s=$(wc -c < ${OUTPUT_FILE})`,
    `  if [ "$s" -gt "$n" ]; then tail -c +$((n + 1)) ${OUTPUT_FILE} | head -c $((s - n)); n=$s; fi`,
    `  [ -e ${EXIT_FILE} ] && break`,
    '  sleep 0.5',
    'done',
    `echo; echo '${OUTPUT_MARK}'; tail -c ${STDERR_TAIL} ${OUTPUT_FILE}`,
    `exit "$(cat ${EXIT_FILE})"`,
  ].join('\n');
  return ['sh', '-c', script, workDir, '--no-color', ...invocation.args, ...envArgs, invocation.entry];
}

export class InClusterK6Runner implements LoadRunner {
  private cachedBuild?: { version: string; jsModules: string[] };

  /**
   * podFor maps the trial's mode (MESH_PERF_MODE in the invocation env) and the instance's index
   * in a group (0 for a single k6) to its client pod.
   */
  constructor(
    private readonly access: ClusterAccess,
    private readonly podFor: (mode: string | undefined, index?: number) => PodRef,
    private readonly options: { raw?: RawReader; apiPortBase?: number; capacity?: GeneratorCapacity; outage?: ApiOutage } = {},
  ) {
    const capacity = options.capacity;
    if (capacity) this.capacity = () => capacity;
  }

  /** Where instances can run (the cluster's schedulable nodes), for load.generators: auto; set when the platform read them. */
  readonly capacity?: () => GeneratorCapacity;

  async version(): Promise<string> {
    return (await this.build()).version;
  }

  /** `k6 version` in a client pod, once: the version and the extensions built in. */
  private async build(): Promise<{ version: string; jsModules: string[] }> {
    if (this.cachedBuild) return this.cachedBuild;
    const result = await this.exec(this.podFor(undefined), ['k6', 'version'], 30_000, 'asking k6 its version');
    const printed = `\`k6 version\` in the client pod printed ${JSON.stringify(result.stdout.trim() || result.stderr.trim())} (exit ${result.exitCode}); expected "k6 v1.x.y"`;
    if (result.exitCode !== 0) throw new EnvironmentError(printed);
    try {
      this.cachedBuild = parseK6Version(result.stdout, 'the client pod');
    } catch {
      throw new EnvironmentError(printed);
    }
    return this.cachedBuild;
  }

  /**
   * The client image's k6 and its pacer (load/pacer-choice.ts): `k6 version` lists the module,
   * `k6 inspect` of a probe script in the pod gives its version. The default client image is
   * stock grafana/k6 (no pacer); an image with the pacer's k6 (k6ext/Dockerfile) has one.
   */
  async pacer(): Promise<{ version: string | undefined; where: string }> {
    const pod = this.podFor(undefined);
    const where = `the k6 of the client image (pod ${pod.namespace}/${pod.pod})`;
    if (!(await this.build()).jsModules.includes(PACER_MODULE)) return { version: undefined, where };
    const probe = `${WORK_ROOT}/pacer-probe-${randomBytes(4).toString('hex')}.js`;
    try {
      await this.through(`writing ${probe} into pod ${pod.namespace}/${pod.pod}`, () => uploadFile(this.access, pod, probe, PACER_PROBE));
      const result = await this.exec(
        pod,
        ['sh', '-c', 'K6_AUTO_EXTENSION_RESOLUTION=false k6 inspect "$0"', probe],
        30_000,
        'asking k6 for its pacer',
      );
      return { version: parsePacerProbe(result.stdout, where), where };
    } finally {
      await this.exec(pod, ['rm', '-f', probe], 30_000, 'removing the pacer probe').catch(() => undefined);
    }
  }

  async run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome> {
    refuseUserScript(invocation);
    const pod = this.podFor(invocation.env.MESH_PERF_MODE);
    const slot = { invocation, pod, workDir: `${WORK_ROOT}/${randomBytes(6).toString('hex')}` };
    try {
      for (const [name, content] of Object.entries(invocation.files))
        await this.through(`writing ${name} into pod ${pod.namespace}/${pod.pod}`, () =>
          uploadFile(this.access, pod, `${slot.workDir}/${name}`, content, signal),
        );
      const interrupt = () => void this.interrupt(pod, slot.workDir);
      signal.addEventListener('abort', interrupt, { once: true });
      let result;
      try {
        // The pacer's requests are not the progress line's iterations (one per repetition): elapsed time only.
        const paced = invocation.entry === PACER_ENTRY;
        result = await this.start(slot, invocation.args, (line) => {
          const progress = parseProgressLine(line);
          if (progress)
            onProgress({
              elapsedS: progress.elapsedS,
              totalS: invocation.expectedSeconds,
              ...(paced ? {} : { requests: progress.iterations }),
            });
        });
      } finally {
        signal.removeEventListener('abort', interrupt);
      }
      return await this.collect(slot, result);
    } finally {
      await this.exec(pod, ['rm', '-rf', slot.workDir], 30_000, "removing k6's directory").catch(() => undefined);
    }
  }

  /** A call in the pod, retried through an API server outage (kubernetes.apiOutage) when the platform handed one in. */
  private through<T>(what: string, call: () => Promise<T>): Promise<T> {
    return this.options.outage ? this.options.outage.through(what, call) : call();
  }

  private exec(pod: PodRef, command: string[], timeoutMs: number, what: string): Promise<ExecResult> {
    return this.through(`${what} in pod ${pod.namespace}/${pod.pod}`, () => execInPod(this.access, pod, command, { timeoutMs }));
  }

  /** N instances in the mode's N client pods, started together (k6-group.ts). */
  runGroup(invocations: K6Invocation[], onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome[]> {
    for (const invocation of invocations) refuseUserScript(invocation);
    return runK6Group(
      {
        exec: (pod, command, timeoutMs) => this.exec(pod, command, timeoutMs, `running ${command[0]}`),
        upload: (pod, path, content, signal) =>
          this.through(`writing ${path} into pod ${pod.namespace}/${pod.pod}`, () => uploadFile(this.access, pod, path, content, signal)),
        workRoot: WORK_ROOT,
        podFor: (mode, index) => this.podFor(mode, index),
        start: (slot, args, onLine) => this.start(slot, args, onLine),
        interrupt: (pod, workDir) => this.interrupt(pod, workDir),
        collect: (slot, result) => this.collect(slot, result),
        ...(this.options.raw ? { raw: this.options.raw } : {}),
        ...(this.options.apiPortBase ? { apiPortBase: this.options.apiPortBase } : {}),
      },
      invocations,
      onProgress,
      signal,
      parseProgressLine,
    );
  }

  /**
   * Runs k6 in the pod until it exits, handing each complete line of its output to onLine; the
   * result's stdout is the tail of k6's output. When the stream breaks because the API server
   * cannot be reached, k6 goes on in the pod: the runner waits for its exit code there instead.
   */
  private async start(slot: Slot, args: string[], onLine: (line: string) => void): Promise<ExecResult> {
    let pending = '';
    let marked = false;
    const onStdout = (text: string) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === OUTPUT_MARK) marked = true;
        else if (!marked) onLine(line);
      }
    };
    // Generous deadline: initialization, the run itself, graceful stop, summary, slow API servers.
    const deadline = Date.now() + (slot.invocation.expectedSeconds + 240) * 1000;
    const where = `pod ${slot.pod.namespace}/${slot.pod.pod}`;
    try {
      const result = await execInPod(this.access, slot.pod, k6Command(slot.workDir, { ...slot.invocation, args }), {
        timeoutMs: deadline - Date.now(),
        onStdout,
        stdoutLimit: STDERR_TAIL + OUTPUT_MARK.length + 2,
      });
      const at = result.stdout.lastIndexOf(OUTPUT_MARK);
      return at < 0 ? result : { ...result, stdout: result.stdout.slice(at + OUTPUT_MARK.length).replace(/^\n/, '') };
    } catch (error) {
      if (!this.options.outage || !isUnreachable(error)) throw error;
      this.options.outage.failed(`following k6 in ${where}`, error);
    }
    // The stream broke with the API server: k6 runs on in the pod; ask it, through the outage, until k6 ended.
    for (;;) {
      const state = await this.exec(
        slot.pod,
        ['sh', '-c', `cat "$0/${EXIT_FILE}" 2>/dev/null || echo running`, slot.workDir],
        15_000,
        'asking whether k6 ended',
      );
      const code = state.stdout.trim();
      if (state.exitCode === 0 && /^\d+$/.test(code)) {
        const tail = await this.exec(
          slot.pod,
          ['tail', '-c', String(STDERR_TAIL), `${slot.workDir}/${OUTPUT_FILE}`],
          30_000,
          "reading k6's output",
        );
        return { exitCode: Number(code), stdout: tail.stdout, stderr: '' };
      }
      if (Date.now() > deadline)
        throw new EnvironmentError(
          `k6 in ${where} did not finish within ${slot.invocation.expectedSeconds + 240} s (its exec stream broke with the API server)`,
        );
      await sleep(POLL_MS);
    }
  }

  /** The summary, the files the script's own handleSummary wrote, and k6's output tail. */
  private async collect(slot: Slot, result: ExecResult): Promise<K6Outcome> {
    const summary = await this.readFile(slot.pod, `${slot.workDir}/${slot.invocation.summaryFile}`);
    const extraFiles = await this.extraFiles(slot.pod, slot.workDir, slot.invocation);
    const stderrTail = `${result.stderr}\n${result.stdout}`.trim().slice(-STDERR_TAIL);
    return { exitCode: result.exitCode, summary, extraFiles, stderrTail, k6Version: this.cachedBuild?.version };
  }

  private async interrupt(pod: PodRef, workDir: string): Promise<void> {
    await execInPod(this.access, pod, ['sh', '-c', `kill -TERM "$(cat "$0/${PID_FILE}")"`, workDir], { timeoutMs: 15_000 }).catch(
      () => undefined,
    );
  }

  private async readFile(pod: PodRef, path: string): Promise<string | undefined> {
    const result = await this.exec(pod, ['cat', path], 60_000, `reading ${path}`);
    return result.exitCode === 0 ? result.stdout : undefined;
  }

  /** Files the script's own handleSummary wrote next to it. */
  private async extraFiles(pod: PodRef, workDir: string, invocation: K6Invocation): Promise<Record<string, string>> {
    const listing = await this.exec(pod, ['ls', '-1', workDir], 30_000, `listing ${workDir}`);
    const known = new Set([...Object.keys(invocation.files), invocation.summaryFile, PID_FILE, EXIT_FILE, OUTPUT_FILE]);
    if (invocation.rawFile) known.add(invocation.rawFile);
    const out: Record<string, string> = {};
    for (const name of listing.stdout.split('\n').map((n) => n.trim())) {
      if (!name || known.has(name)) continue;
      out[name] = (await this.readFile(pod, `${workDir}/${name}`)) ?? '';
    }
    return out;
  }
}
