// The pipeline's Logger on a GitHub runner: each phase becomes a collapsible log group (the
// pipeline announces phases one after another, so a phase ends the previous group), warnings
// become annotations, and the live progress line is printed sparsely since logs are not a TTY.
import * as core from '@actions/core';
import type { Logger } from '../util/log.ts';

export class ActionLogger implements Logger {
  private inGroup = false;
  private lastProgressAt = 0;
  private lastProgress = '';

  constructor(
    private readonly progressEveryMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  phase(title: string): void {
    this.end();
    core.startGroup(title);
    this.inGroup = true;
  }

  info(message: string): void {
    core.info(message);
  }

  warn(message: string): void {
    core.warning(message);
  }

  progress(line: string): void {
    this.lastProgress = line;
    const now = this.now();
    if (now - this.lastProgressAt >= this.progressEveryMs) {
      this.lastProgressAt = now;
      core.info(line);
    }
  }

  progressDone(): void {
    // Print the final state of the line once, so the log shows how each repetition ended.
    if (this.lastProgress) core.info(this.lastProgress);
    this.lastProgress = '';
    this.lastProgressAt = 0;
  }

  /** Closes the open group; call before printing anything that belongs to no phase. */
  end(): void {
    if (this.inGroup) core.endGroup();
    this.inGroup = false;
  }

  /** Runs fn inside its own group (for the action's own phases: report, comment). */
  async group<T>(title: string, fn: () => Promise<T>): Promise<T> {
    this.end();
    return core.group(title, fn);
  }
}
