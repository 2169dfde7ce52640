// How help text is laid out at a width: a note wraps with its continuation lines indented under
// it (so a new note and a wrapped one never look alike), a usage line breaks between its option
// groups (never inside "[--branch gh-pages]"), and a long example command breaks between its
// options with a shell continuation (" \"), so it can still be pasted. Pure.
import { visibleWidth } from '../util/text-table.ts';

/** Words filled into lines of `width`; lines after the first start with `indent` spaces. */
export function hanging(text: string, width: number, indent = 2): string[] {
  return fill(text.split(/ +/).filter(Boolean), width, indent, ' ');
}

/** "Usage: mesh-perf publish --results DIR [--branch gh-pages] …" broken between groups, continued under the command. */
export function usageLines(usage: string, width: number): string[] {
  const head = 'Usage: mesh-perf ';
  const words = usageGroups(usage);
  // "report --store … | report --results …": each form of the command on lines of its own.
  const forms: string[][] = [[]];
  for (const [i, word] of words.entries()) {
    if (word === '|' && words[i + 1] === words[0]) forms.push([]);
    else forms.at(-1)!.push(word);
  }
  const layout = (indent: number) =>
    forms.flatMap((form, i) => {
      const lead = i === 0 ? head : `${' '.repeat(head.length - 'mesh-perf '.length)}mesh-perf `;
      return fill([`${lead}${form[0] ?? ''}`, ...form.slice(1)], width, indent, ' ');
    });
  // Continued under the first option; under "mesh-perf" when a group does not fit there.
  const under = layout(head.length);
  return under.every((line) => visibleWidth(line) <= width) ? under : layout('Usage: '.length);
}

/** A command of an example, broken between its options as a shell would read it: "… \" then the rest indented. */
export function commandLines(command: string, width: number, indent = 2): string[] {
  const pad = ' '.repeat(indent);
  if (visibleWidth(pad + command) <= width) return [pad + command];
  // Each option starts a piece; a piece keeps its value ("--store URL").
  const pieces = command.split(/ (?=--)/);
  const out: string[] = [];
  let current = pad + pieces[0]!;
  for (const piece of pieces.slice(1)) {
    if (visibleWidth(`${current} ${piece} \\`) <= width) current = `${current} ${piece}`;
    else {
      out.push(`${current} \\`);
      current = `${pad}    ${piece}`;
    }
  }
  out.push(current);
  return out;
}

/**
 * One note of a command's details: "Example: mesh-perf …" becomes "Example:" and the command on
 * lines of its own; anything else wraps with a hanging indent. An empty line stays empty.
 */
export function noteLines(note: string, width: number): string[] {
  if (note.trim() === '') return [''];
  const example = /^(Examples?:)\s+(mesh-perf .*)$/.exec(note);
  if (example) return [example[1]!, ...commandLines(example[2]!, width)];
  return hanging(note, width);
}

/** Usage words with each bracketed group ("[--branch gh-pages]", "[--a X | --b Y]") kept whole. */
function usageGroups(usage: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of usage) {
    if (ch === '[') depth++;
    if (ch === ']') depth = Math.max(0, depth - 1);
    if (ch === ' ' && depth === 0) {
      if (current) out.push(current);
      current = '';
    } else current += ch;
  }
  if (current) out.push(current);
  return out;
}

function fill(words: string[], width: number, indent: number, separator: string): string[] {
  const pad = ' '.repeat(indent);
  const out: string[] = [];
  let current = '';
  for (const word of words) {
    const candidate = current ? `${current}${separator}${word}` : word;
    if (current && visibleWidth(candidate) > width) {
      out.push(current);
      current = `${pad}${word}`;
    } else current = candidate;
  }
  if (current) out.push(current);
  return out;
}
