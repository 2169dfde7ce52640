// `mesh-perf <command> --help` read at 80 columns: a wrapped line never looks like a new one. Every
// line at column 0 starts a note, a heading or the usage (a capital or a backquote); usage lines
// break between option groups, never inside "[--branch gh-pages]"; a long example command breaks
// with a shell continuation. Pure: the help is rendered in-process.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandHelp } from '../../src/cli/args.ts';
import { mainHelp } from '../../src/cli/main.ts';
import { COMMANDS } from '../../src/cli/registry.ts';

const helps = (width: number) => [
  { name: 'mesh-perf --help', text: mainHelp(width) },
  ...COMMANDS.map((c) => ({ name: `mesh-perf ${c.name} --help`, text: commandHelp(c, width) })),
];

for (const width of [80, 60]) {
  test(`help at ${width} columns: wrapped lines are indented under the line they continue`, () => {
    for (const { name, text } of helps(width)) {
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        assert.ok([...line].length <= width, `${name}: line ${i + 1} is ${[...line].length} wide: ${line}`);
        if (i === 0 || line === '' || line.startsWith(' ')) return;
        assert.match(line, /^[A-Z`]/, `${name}: line ${i + 1} starts at column 0 but continues the line above: "${line}"`);
      });
    }
  });

  test(`help at ${width} columns: usage breaks between option groups, examples with a shell continuation`, () => {
    for (const { name, text } of helps(width)) {
      const lines = text.split('\n');
      const usage = lines.findIndex((l) => l.startsWith('Usage:'));
      for (let i = usage; i < lines.length && lines[i] !== ''; i++) {
        const open = (lines[i]!.match(/\[/g) ?? []).length;
        const close = (lines[i]!.match(/\]/g) ?? []).length;
        assert.equal(open, close, `${name}: usage line ${i + 1} splits a [group]: "${lines[i]}"`);
      }
      lines.forEach((line, i) => {
        if (/^\s+mesh-perf /.test(line) && lines[i - 1]?.startsWith('Example')) {
          // The example's lines, pasted into a shell, are one command.
          for (let j = i; lines[j]!.endsWith(' \\'); j++) assert.match(lines[j + 1]!, /^\s{4,}--/, `${name}: example line ${j + 2}`);
        }
      });
    }
  });
}

test('publish --help at 80 columns: the change-point note reads as one note, the example as one command', () => {
  const text = commandHelp(COMMANDS.find((c) => c.name === 'publish')!, 80);
  assert.match(text, /\nA new change point at the newest runs that slows a series by at least\n {2}gates\.regression\.minEffectPct/);
  assert.match(text, /\nExample:\n {2}mesh-perf publish --results \S+ \\\n {6}--store https:\/\/github\.com\/org\/repo\.git\n/);
});
