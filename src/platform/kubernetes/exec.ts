// Runs a command in a pod through the API server's exec subresource (websocket) and returns its
// output and exit code. Files are delivered as base64 arguments in chunks rather than over stdin:
// exec stdin cannot be half-closed over the websocket protocol, so `cat > file` would never end.
import { Writable } from 'node:stream';
import { Exec, type V1Status } from '@kubernetes/client-node';
import { EnvironmentError } from '../../util/errors.ts';
import type { ClusterAccess } from './access.ts';

export interface PodRef {
  namespace: string;
  pod: string;
  container: string;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface ExecOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Streamed stdout chunks (progress), in addition to the collected text. */
  onStdout?: (text: string) => void;
  /** Keep only this many trailing characters of stdout (large outputs). */
  stdoutLimit?: number;
}

const STDERR_LIMIT = 8000;

/** Exit code from the exec status: NonZeroExitCode carries it; otherwise parse "exit status N". */
export function exitCodeFromStatus(status: V1Status | undefined): number | undefined {
  if (!status) return undefined;
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  if (cause?.message && /^\d+$/.test(cause.message)) return Number(cause.message);
  // kwok's exec reports a failed local command as an internal error quoting Go's "exit status N".
  const match = /exit status (\d+)/.exec(status.message ?? '');
  return match ? Number(match[1]) : undefined;
}

export async function execInPod(access: ClusterAccess, ref: PodRef, command: string[], options: ExecOptions = {}): Promise<ExecResult> {
  let stdout = '';
  let stderr = '';
  const limit = options.stdoutLimit ?? 64 * 1024 * 1024;
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      const text = chunk.toString('utf8');
      stdout = (stdout + text).slice(-limit);
      options.onStdout?.(text);
      callback();
    },
  });
  const err = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_LIMIT);
      callback();
    },
  });
  let status: V1Status | undefined;
  const where = `${ref.namespace}/${ref.pod} (container ${ref.container})`;
  const socket = await new Exec(access.kc)
    .exec(ref.namespace, ref.pod, ref.container, command, out, err, null, false, (s) => (status = s))
    .catch((error: unknown) => {
      throw new EnvironmentError(`exec in pod ${where} failed to start: ${describeExecError(error)}`);
    });
  await new Promise<void>((resolve, reject) => {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      socket.close();
      reject(new EnvironmentError(`exec \`${command[0]}\` in pod ${where} did not finish within ${Math.round(timeoutMs / 1000)}s`));
    }, timeoutMs);
    const onAbort = () => socket.close();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('close', () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    socket.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(new EnvironmentError(`exec in pod ${where} failed: ${describeExecError(error)}`));
    });
  });
  const exitCode = exitCodeFromStatus(status);
  if (exitCode === undefined) {
    if (options.signal?.aborted) return { exitCode: 130, stdout, stderr };
    throw new EnvironmentError(
      `exec \`${command[0]}\` in pod ${where} ended without an exit status${status?.message ? `: ${status.message}` : ''}`,
    );
  }
  return { exitCode, stdout, stderr };
}

export function describeExecError(error: unknown): string {
  // The websocket's error event is not an Error: its message (or its error's) says what happened
  // ("connect ECONNREFUSED …" while the API server restarts), which printed as "[object Object]".
  const event = error as { message?: unknown; error?: { message?: unknown } };
  const message =
    error instanceof Error
      ? error.message
      : typeof event?.message === 'string' && event.message
        ? event.message
        : typeof event?.error?.message === 'string'
          ? event.error.message
          : String(error);
  // The websocket upgrade error embeds the HTTP status; 403 means RBAC for pods/exec is missing.
  if (/403/.test(message)) return `${message} (grant "create" on pods/exec to the kubeconfig's user)`;
  return message.split('\n')[0]!;
}

/** Commands that write `content` to `path` in the pod, in argument-sized base64 chunks. */
export function uploadCommands(path: string, content: string, chunkBytes = 48 * 1024): string[][] {
  const data = Buffer.from(content, 'utf8');
  const commands: string[][] = [];
  for (let offset = 0; offset === 0 || offset < data.length; offset += chunkBytes) {
    const chunk = data.subarray(offset, offset + chunkBytes).toString('base64');
    const redirect = offset === 0 ? '>' : '>>';
    commands.push(['sh', '-c', `mkdir -p "$(dirname "$1")" && printf '%s' "$2" | base64 -d ${redirect} "$1"`, 'sh', path, chunk]);
    if (data.length === 0) break;
  }
  return commands;
}

export async function uploadFile(access: ClusterAccess, ref: PodRef, path: string, content: string, signal?: AbortSignal): Promise<void> {
  for (const command of uploadCommands(path, content)) {
    const result = await execInPod(access, ref, command, { timeoutMs: 60_000, signal });
    if (result.exitCode !== 0)
      throw new EnvironmentError(
        `could not write ${path} in pod ${ref.namespace}/${ref.pod}: ${result.stderr.trim() || `exit ${result.exitCode}`}`,
      );
  }
}
