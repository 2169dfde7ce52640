// Runs the git CLI for the history store: never prompts (a CI job would hang), never prints
// credentials (URLs and tokens are redacted from every message), and scopes a token to the
// store's host through an extra HTTP header the way actions/checkout does, so it never lands in
// a URL, a config file or a process list.
import { spawn } from 'node:child_process';
import { redactText } from '../../util/redact.ts';

export interface GitRunOptions {
  cwd: string;
  input?: string | Buffer;
  timeoutMs?: number;
  /** Extra environment (tokens go through `credentials`, not here). */
  env?: Record<string, string>;
}

export interface GitCredentials {
  /** Origin the token applies to, e.g. "https://github.com/". */
  origin: string;
  token: string;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (exit ${code ?? 'signal'}): ${stderr.trim().split('\n').slice(-4).join(' | ') || 'no output'}`);
    this.name = 'GitCommandError';
  }
}

export class Git {
  private readonly secrets: string[] = [];
  private readonly configEnv: Record<string, string> = {};

  constructor(credentials?: GitCredentials) {
    if (credentials?.token) {
      const basic = Buffer.from(`x-access-token:${credentials.token}`).toString('base64');
      this.secrets.push(credentials.token, basic);
      Object.assign(this.configEnv, {
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: `http.${credentials.origin}.extraheader`,
        GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
      });
    }
  }

  redact(text: string): string {
    let out = redactText(text);
    for (const secret of this.secrets) if (secret) out = out.split(secret).join('***');
    return out;
  }

  async run(args: string[], options: GitRunOptions): Promise<string> {
    const { stdout } = await this.runRaw(args, options);
    return stdout.toString('utf8');
  }

  runRaw(args: string[], options: GitRunOptions): Promise<{ stdout: Buffer; stderr: string }> {
    const fullArgs = ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', '-c', 'core.quotepath=off', ...args];
    return new Promise((resolve, reject) => {
      const child = spawn('git', fullArgs, {
        cwd: options.cwd,
        env: {
          ...process.env,
          ...this.configEnv,
          ...options.env,
          GIT_TERMINAL_PROMPT: '0',
          GCM_INTERACTIVE: 'never',
          GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
          LC_ALL: 'C',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => err.push(d));
      // Generous: pushing a rebuilt store over a slow link takes minutes; prompts cannot hang us anyway.
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30 * 60_000);
      child.on('error', (error) => {
        clearTimeout(timer);
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(new GitCommandError(args, null, missing ? 'git is not installed or not on PATH' : error.message));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        const stderr = this.redact(Buffer.concat(err).toString('utf8'));
        if (code === 0) resolve({ stdout: Buffer.concat(out), stderr });
        // Some commands (push --porcelain) report their failure on stdout.
        else
          reject(
            new GitCommandError(
              args.map((a) => this.redact(a)),
              code,
              `${stderr}${this.redact(Buffer.concat(out).toString('utf8').slice(0, 4000))}`,
            ),
          );
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
  }
}
