// An error as the terminal shows it: every line wrapped at the terminal's width, continuation
// lines indented under their text (two spaces, or under a config problem's "  - load.rate: …"),
// and a quoted value ("5ms", "http://…") or a "(line N)" kept whole when it fits, so the field
// and what was seen read together. A line indented by four spaces is a command to copy: never wrapped.
import { wrap } from '../report/terminal.ts';

/** A space no wrap breaks at; put back to a plain space after wrapping. */
const HOLD = '\u0000';

export function errorText(message: string, width: number): string {
  return message
    .split('\n')
    .flatMap((line) => wrapLine(holdQuotes(line, width - 6), width))
    .map((line) => line.replaceAll(HOLD, ' '))
    .join('\n');
}

function wrapLine(line: string, width: number): string[] {
  if (line.startsWith('    ')) return [line];
  const lines = wrap(line, width);
  if (lines.length === 1 || /^\s/.test(line)) return lines;
  // An unindented line's continuation is indented, so it does not read as the next line.
  const [first, ...rest] = lines;
  return [first!, ...wrap(`  ${rest.join(' ')}`, width)];
}

function holdQuotes(line: string, max: number): string {
  return line
    .replace(/"[^"\n]*"/g, (quoted) => (quoted.length <= max ? quoted.replaceAll(' ', HOLD) : quoted))
    .replace(/\(line \d+\)/g, (at) => at.replace(' ', HOLD));
}
