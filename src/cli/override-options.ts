// CLI options generated from the shared OVERRIDES table, and the values a parsed command line gives them.
import { OVERRIDES } from '../config/overrides.ts';
import type { OptionSpec, ParsedArgs } from './command.ts';

export const OVERRIDE_OPTIONS: OptionSpec[] = OVERRIDES.map((o) => ({
  name: o.flag,
  value: o.kind === 'number' ? 'N' : 'VALUE',
  description: o.description,
}));

export function overrideValues(args: ParsedArgs): Record<string, string | undefined> {
  return Object.fromEntries(OVERRIDES.map((o) => [o.flag, args.options[o.flag]]));
}
