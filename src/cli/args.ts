// A small argv parser driven by each command's OptionSpec list, so --help and parsing agree.
import type { Command, ParsedArgs } from './command.ts';
import { UsageError } from '../util/errors.ts';
import { didYouMean } from '../util/did-you-mean.ts';
import { quote } from '../util/quote.ts';
import { COMMANDS } from './registry.ts';
import { wrap } from '../report/terminal.ts';
import { terminalWidth } from './terminal-width.ts';
import { hanging, noteLines, usageLines } from './help-layout.ts';

const HELP_INDENT = 30;

export function parseArgs(command: Command, argv: string[]): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: {}, switches: new Set(), lists: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      parsed.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    const spec = command.options.find((o) => o.name === name);
    if (!spec) {
      const guess = didYouMean(
        name,
        command.options.map((o) => o.name),
      );
      const elsewhere = COMMANDS.filter((c) => c.options.some((o) => o.name === name)).map((c) => c.name);
      const where = !guess && elsewhere.length > 0 ? `; it is an option of ${elsewhere.join(', ')}, not of ${command.name}` : '';
      throw new UsageError(
        `unknown option --${name.length > 60 ? `${name.slice(0, 60)}…` : name}${guess ? `; did you mean --${guess}?` : where} (see mesh-perf ${command.name} --help)`,
      );
    }
    if (!spec.value) {
      if (eq > 0) throw new UsageError(`--${name} takes no value, got ${quote(arg.slice(eq + 1))}`);
      parsed.switches.add(name);
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) {
      throw new UsageError(`--${name} needs a value (${spec.value})`);
    }
    // An empty value (`--rate=`, `--config ''`) used to be dropped silently, so the setting fell
    // back to the file's or a default path was guessed from it.
    if (value.trim() === '') throw new UsageError(`--${name} needs a value (${spec.value}), got an empty one`);
    if (!spec.repeatable && parsed.options[name] !== undefined) {
      // Which one wins would be a guess; a script that passes a flag twice has a bug to see.
      throw new UsageError(`--${name} is given twice (${quote(parsed.options[name]!, 40)} and ${quote(value, 40)}); give it once`);
    }
    if (spec.repeatable) (parsed.lists[name] ??= []).push(value);
    parsed.options[name] = value;
  }
  const required = (command.positionals ?? []).filter((p) => p.required);
  if (parsed.positionals.length < required.length) {
    const missing = required.slice(parsed.positionals.length).map((p) => `<${p.name}>`);
    throw new UsageError(`missing ${missing.join(' ')} (usage: mesh-perf ${command.usage})`);
  }
  const allowed = command.positionals?.length ?? 0;
  if (parsed.positionals.length > allowed) {
    throw new UsageError(`unexpected argument ${quote(parsed.positionals[allowed]!)} (usage: mesh-perf ${command.usage})`);
  }
  return parsed;
}

export function commandHelp(command: Command, width = terminalWidth()): string {
  const lines = [...hanging(`mesh-perf ${command.name} — ${command.summary}`, width), '', ...usageLines(command.usage, width)];
  // Descriptions wrap in their own column, so the option names stay readable at 80 columns.
  const entry = (name: string, description: string) => {
    const wrapped = wrap(description, Math.max(width - HELP_INDENT, 20)).map((l) => l.trimStart());
    const pad = ' '.repeat(HELP_INDENT);
    const first = name.length < HELP_INDENT - 1 ? name.padEnd(HELP_INDENT) + wrapped[0]! : `${name}\n${pad}${wrapped[0]}`;
    lines.push(first, ...wrapped.slice(1).map((l) => pad + l));
  };
  if (command.positionals?.length) {
    lines.push('', 'Arguments:');
    for (const p of command.positionals) entry(`  <${p.name}>`, p.description);
  }
  lines.push('', 'Options:');
  for (const o of command.options) entry(`  --${o.name}${o.value ? ` ${o.value}` : ''}`, o.description);
  entry('  --help', 'Show this help');
  // One note per line of details, each wrapped under itself.
  if (command.details) lines.push('', ...command.details.split('\n').flatMap((note) => noteLines(note, width)));
  return `${lines.join('\n')}\n`;
}
