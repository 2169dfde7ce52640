// Runs k6 inside the cluster: in the long-lived client pod of the trial's mode, through the exec
// API. The script files are written into a fresh directory in the pod, `k6 run` streams its
// non-TTY progress lines back (parsed for the live progress line), and the summary JSON is read
// back with `cat`. Cancelling stops k6 in the pod with SIGTERM (a background job of a
// non-interactive shell ignores SIGINT); k6 treats it like Ctrl-C.
import { randomBytes } from 'node:crypto';
import type { K6Invocation, K6Outcome, K6Progress, LoadRunner } from '../../load/types.ts';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import type { ClusterAccess } from './access.ts';
import { execInPod, uploadFile, type PodRef } from './exec.ts';

const STDERR_TAIL = 4000;
const WORK_ROOT = '/tmp/mesh-perf-k6';
const PID_FILE = '.k6.pid';

/** "running (01.0s), 0/2 VUs, 6 complete and 0 interrupted iterations" → elapsed and iterations. */
export function parseProgressLine(line: string): { elapsedS: number; iterations: number } | undefined {
  const match = /running \((?:(\d+)m)?([\d.]+)s\), \d+\/\d+ VUs, (\d+) complete and (\d+) interrupted/.exec(line);
  if (!match) return undefined;
  return { elapsedS: Number(match[1] ?? 0) * 60 + Number(match[2]), iterations: Number(match[3]) + Number(match[4]) };
}

/** The exact command run in the pod: cd into the work dir, start k6 in the background, record its pid, wait. */
export function k6Command(workDir: string, invocation: K6Invocation): string[] {
  const envArgs = Object.entries(invocation.env).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  return [
    'sh',
    '-c',
    `cd "$0" || exit 127; K6_NO_USAGE_REPORT=true k6 run "$@" & echo $! > ${PID_FILE}; wait $!`,
    workDir,
    '--no-color',
    ...invocation.args,
    ...envArgs,
    invocation.entry,
  ];
}

export class InClusterK6Runner implements LoadRunner {
  private cachedVersion?: string;

  /** podFor maps the trial's mode (MESH_PERF_MODE in the invocation env) to its client pod. */
  constructor(
    private readonly access: ClusterAccess,
    private readonly podFor: (mode: string | undefined) => PodRef,
  ) {}

  async version(): Promise<string> {
    if (this.cachedVersion) return this.cachedVersion;
    const result = await execInPod(this.access, this.podFor(undefined), ['k6', 'version'], { timeoutMs: 30_000 });
    const match = /v?(\d+\.\d+\.\d+)/.exec(result.stdout);
    if (result.exitCode !== 0 || !match)
      throw new EnvironmentError(
        `\`k6 version\` in the client pod printed ${JSON.stringify(result.stdout.trim() || result.stderr.trim())} (exit ${result.exitCode}); expected "k6 v1.x.y"`,
      );
    this.cachedVersion = match[1]!;
    return this.cachedVersion;
  }

  async run(invocation: K6Invocation, onProgress: (p: K6Progress) => void, signal: AbortSignal): Promise<K6Outcome> {
    if (invocation.workDir) {
      throw new UsageError(
        `load.script: a k6 script of your own cannot run on the kind/kubeconfig platforms yet (its imports resolve on this machine, not in the client pod); use the built-in load profile options, or the local/endpoints platforms`,
      );
    }
    const pod = this.podFor(invocation.env.MESH_PERF_MODE);
    const workDir = `${WORK_ROOT}/${randomBytes(6).toString('hex')}`;
    try {
      for (const [name, content] of Object.entries(invocation.files))
        await uploadFile(this.access, pod, `${workDir}/${name}`, content, signal);
      let pending = '';
      const onStdout = (text: string) => {
        pending += text;
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const progress = parseProgressLine(line);
          if (progress) onProgress({ elapsedS: progress.elapsedS, totalS: invocation.expectedSeconds, requests: progress.iterations });
        }
      };
      const interrupt = () => void this.interrupt(pod, workDir);
      signal.addEventListener('abort', interrupt, { once: true });
      let result;
      try {
        // Generous deadline: the run itself, graceful stop, summary, slow API servers.
        result = await execInPod(this.access, pod, k6Command(workDir, invocation), {
          timeoutMs: (invocation.expectedSeconds + 120) * 1000,
          onStdout,
          stdoutLimit: STDERR_TAIL,
        });
      } finally {
        signal.removeEventListener('abort', interrupt);
      }
      const summary = await this.readFile(pod, `${workDir}/${invocation.summaryFile}`);
      const extraFiles = await this.extraFiles(pod, workDir, invocation);
      const stderrTail = `${result.stderr}\n${result.stdout}`.trim().slice(-STDERR_TAIL);
      return { exitCode: result.exitCode, summary, extraFiles, stderrTail, k6Version: this.cachedVersion };
    } finally {
      await execInPod(this.access, pod, ['rm', '-rf', workDir], { timeoutMs: 30_000 }).catch(() => undefined);
    }
  }

  private async interrupt(pod: PodRef, workDir: string): Promise<void> {
    await execInPod(this.access, pod, ['sh', '-c', `kill -TERM "$(cat "$0/${PID_FILE}")"`, workDir], { timeoutMs: 15_000 }).catch(
      () => undefined,
    );
  }

  private async readFile(pod: PodRef, path: string): Promise<string | undefined> {
    const result = await execInPod(this.access, pod, ['cat', path], { timeoutMs: 60_000 });
    return result.exitCode === 0 ? result.stdout : undefined;
  }

  /** Files the script's own handleSummary wrote next to it. */
  private async extraFiles(pod: PodRef, workDir: string, invocation: K6Invocation): Promise<Record<string, string>> {
    const listing = await execInPod(this.access, pod, ['ls', '-1', workDir], { timeoutMs: 30_000 });
    const known = new Set([...Object.keys(invocation.files), invocation.summaryFile, PID_FILE]);
    const out: Record<string, string> = {};
    for (const name of listing.stdout.split('\n').map((n) => n.trim())) {
      if (!name || known.has(name)) continue;
      out[name] = (await this.readFile(pod, `${workDir}/${name}`)) ?? '';
    }
    return out;
  }
}
