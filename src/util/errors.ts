// Errors carry the exit code the entry point should use. Helpers throw; only cli.ts and
// action.ts turn an error into an exit code or setFailed.
export const EXIT = { pass: 0, gateFailed: 1, usage: 2, environment: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class MeshPerfError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'MeshPerfError';
  }
}

/** The user asked for something wrong: bad flag, bad config, bad file. Exit 2. */
export class UsageError extends MeshPerfError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}

/** The environment failed us: tool missing, port taken, cluster unreachable, run cancelled. Exit 3. */
export class EnvironmentError extends MeshPerfError {
  constructor(message: string) {
    super(message, EXIT.environment);
    this.name = 'EnvironmentError';
  }
}

export function exitCodeOf(error: unknown): ExitCode {
  return error instanceof MeshPerfError ? error.exitCode : EXIT.environment;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
