// Logger for the terminal: phase headings, and a live progress line redrawn in place on a TTY.
// Without a TTY (CI logs) the progress line is printed at most every few seconds instead.
import type { Logger } from '../util/log.ts';
import { wrap } from '../report/terminal.ts';
import { terminalWidth } from './terminal-width.ts';

const NON_TTY_INTERVAL_MS = 5000;

export function consoleLogger(stream: NodeJS.WriteStream = process.stderr): Logger {
  const tty = Boolean(stream.isTTY);
  const bold = (s: string) => (tty ? `\x1b[1m${s}\x1b[0m` : s);
  // Lines wrap at the terminal's width (COLUMNS first), continuation lines indented. A message of
  // several lines (a teardown's list of what it could not remove) is wrapped line by line, each
  // under the logger's indent: wrapped whole, its words across a newline counted as one line.
  const width = terminalWidth(process.env, stream);
  const lines = (text: string) =>
    `${text
      .split('\n')
      .flatMap((line, i) => wrap(i === 0 ? line : `  ${line}`, width))
      .join('\n')}\n`;
  let live = false;
  let lastPrinted = 0;
  const clear = () => {
    if (live && tty) stream.write('\r\x1b[K');
    live = false;
  };
  return {
    phase(title) {
      clear();
      const [first = '', ...rest] = wrap(title, width - 2);
      stream.write(`\n${bold([`▶ ${first}`, ...rest.map((l) => `  ${l}`)].join('\n'))}\n`);
    },
    info(message) {
      clear();
      stream.write(lines(`  ${message}`));
    },
    warn(message) {
      clear();
      stream.write(lines(`  warning: ${message}`));
    },
    progress(line) {
      if (tty) {
        stream.write(`\r\x1b[K  ${line.slice(0, (stream.columns ?? 120) - 3)}`);
        live = true;
      } else if (Date.now() - lastPrinted >= NON_TTY_INTERVAL_MS) {
        stream.write(lines(`  ${line}`));
        lastPrinted = Date.now();
      }
    },
    progressDone() {
      clear();
      lastPrinted = 0;
    },
  };
}
