// Runs a mesh CLI with a deadline and cancellation, capturing output. Failures quote the tail
// of what the CLI printed, since that is where istioctl and linkerd explain themselves.
import { spawn } from 'node:child_process';
import { EnvironmentError } from '../../../util/errors.ts';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Called with each stderr/stdout line, for progress. */
  onLine?: (line: string) => void;
}

export function runCli(binary: string, args: string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
    let stdout = '';
    let stderr = '';
    let partial = '';
    const lines = (text: string) => {
      if (!options.onLine) return;
      partial += text;
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (line.trim()) options.onLine(line);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      lines(chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-64 * 1024);
      lines(chunk.toString());
    });
    let timedOut = false;
    const kill = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      reject(new EnvironmentError(`could not run ${binary}: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      if (timedOut) {
        reject(
          new EnvironmentError(
            `\`${describe(binary, args)}\` did not finish within ${Math.round(options.timeoutMs / 1000)}s:\n${tail(stderr || stdout)}`,
          ),
        );
        return;
      }
      resolve({ exitCode: code ?? 1, stdout, stderr });
    });
  });
}

/** Runs and throws with the output tail when the exit code is not 0. */
export async function runCliChecked(binary: string, args: string[], options: CliOptions, what: string): Promise<CliResult> {
  const result = await runCli(binary, args, options);
  if (result.exitCode !== 0) {
    throw new EnvironmentError(
      `${what} failed: \`${describe(binary, args)}\` exited with ${result.exitCode}:\n${tail(result.stderr || result.stdout)}`,
    );
  }
  return result;
}

export function describe(binary: string, args: string[]): string {
  const name = binary.split('/').pop();
  return [name, ...args].join(' ');
}

export function tail(text: string, lines = 20): string {
  return text
    .trim()
    .split('\n')
    .slice(-lines)
    .map((line) => `  ${line}`)
    .join('\n');
}
