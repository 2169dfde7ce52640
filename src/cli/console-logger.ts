// Logger for the terminal: phase headings, and a live progress line redrawn in place on a TTY.
// Without a TTY (CI logs) the progress line is printed at most every few seconds instead.
import type { Logger } from '../util/log.ts';

const NON_TTY_INTERVAL_MS = 5000;

export function consoleLogger(stream: NodeJS.WriteStream = process.stderr): Logger {
  const tty = Boolean(stream.isTTY);
  const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
  let live = false;
  let lastPrinted = 0;
  const clear = () => {
    if (live && tty) stream.write('\r\x1b[K');
    live = false;
  };
  return {
    phase(title) {
      clear();
      stream.write(`\n${bold(`▶ ${title}`)}\n`);
    },
    info(message) {
      clear();
      stream.write(`  ${message}\n`);
    },
    warn(message) {
      clear();
      stream.write(`  warning: ${message}\n`);
    },
    progress(line) {
      if (tty) {
        stream.write(`\r\x1b[K  ${line.slice(0, (stream.columns ?? 120) - 3)}`);
        live = true;
      } else if (Date.now() - lastPrinted >= NON_TTY_INTERVAL_MS) {
        stream.write(`  ${line}\n`);
        lastPrinted = Date.now();
      }
    },
    progressDone() {
      clear();
      lastPrinted = 0;
    },
  };
}
