// Progress output: phase headings and a live line during load. The CLI writes to stderr (so
// --json on stdout stays clean); the action wraps phases in core.group.
export interface Logger {
  phase(title: string): void;
  info(message: string): void;
  warn(message: string): void;
  /** A transient status line, redrawn in place on a TTY, printed sparsely otherwise. */
  progress(line: string): void;
  /** Ends the transient line so the next output starts on a fresh line. */
  progressDone(): void;
}

export const silentLogger: Logger = {
  phase() {},
  info() {},
  warn() {},
  progress() {},
  progressDone() {},
};
