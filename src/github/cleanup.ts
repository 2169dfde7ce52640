// What the main step created and the post step must remove if the main step never got to it
// (cancelled job, timeout, crash). Main records each item in the action's state as it is
// created and drops it once removed; post removes whatever is left and only warns on failure.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';

export type CleanupItem =
  | { kind: 'path'; path: string; description: string }
  /** A command that removes something, e.g. `kind delete cluster --name <run>`. argv, never a shell string. */
  | { kind: 'command'; argv: string[]; description: string };

export const CLEANUP_STATE = 'mesh-perf-cleanup';

export class CleanupRecorder {
  private items: CleanupItem[] = [];

  constructor(private readonly save: (name: string, value: string) => void) {}

  add(item: CleanupItem): void {
    this.items.push(item);
    this.persist();
  }

  done(item: CleanupItem): void {
    this.items = this.items.filter((i) => i !== item);
    this.persist();
  }

  pending(): CleanupItem[] {
    return [...this.items];
  }

  private persist(): void {
    this.save(CLEANUP_STATE, JSON.stringify(this.items));
  }
}

export function parseCleanupState(text: string): CleanupItem[] {
  if (!text) return [];
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (i): i is CleanupItem =>
      typeof i === 'object' &&
      i !== null &&
      ((i.kind === 'path' && typeof i.path === 'string') ||
        (i.kind === 'command' && Array.isArray(i.argv) && i.argv.length > 0 && i.argv.every((a: unknown) => typeof a === 'string'))),
  );
}

export interface CleanupReport {
  removed: string[];
  failed: { description: string; error: string }[];
}

/** Removes items in reverse creation order; never throws. */
export async function runCleanup(items: CleanupItem[], timeoutMs = 300_000): Promise<CleanupReport> {
  const report: CleanupReport = { removed: [], failed: [] };
  for (const item of [...items].reverse()) {
    try {
      if (item.kind === 'path') await rm(item.path, { recursive: true, force: true });
      else await runCommand(item.argv, timeoutMs);
      report.removed.push(item.description);
    } catch (error) {
      report.failed.push({ description: item.description, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return report;
}

function runCommand(argv: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(argv[0]!, argv.slice(1), { timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (error)
        reject(new Error(`${argv[0]} exited with ${error.code ?? error.signal}: ${String(stderr).trim().split('\n').slice(-3).join(' ')}`));
      else resolve();
    });
  });
}
