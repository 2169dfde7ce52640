// CLI options generated from the shared OVERRIDES table, and the values a parsed command line gives
// them. Each command lists only the overrides it uses: `plan` has no --publish, no command has
// --comment (a GitHub-only setting).
import { OVERRIDES } from '../config/overrides.ts';
import type { OptionSpec, ParsedArgs } from './command.ts';

/** What shapes the trial plan: enough for `plan`. */
const PLAN_FLAGS = [
  'preset',
  'suite',
  'platform',
  'modes',
  'baseline-mode',
  'rate',
  'duration',
  'repetitions',
  'max-duration',
  'generators',
  'engine',
  'seed',
  'gates',
];
/** Where the tool installs or reaches meshes (kind/kubeconfig). */
const CLUSTER_FLAGS = ['kubeconfig', 'context', 'istio-version', 'linkerd-version'];
const HISTORY_FLAGS = ['history-store', 'history-branch', 'publish', 'dashboard-url'];

export const OVERRIDE_FLAGS = {
  plan: PLAN_FLAGS,
  run: [...PLAN_FLAGS, ...HISTORY_FLAGS, ...CLUSTER_FLAGS],
  calibrate: [
    ...PLAN_FLAGS.filter((f) => f !== 'repetitions' && f !== 'max-duration' && f !== 'baseline-mode' && f !== 'gates'),
    ...CLUSTER_FLAGS,
  ],
  cluster: ['preset', 'suite', 'platform', 'modes', ...CLUSTER_FLAGS],
} as const;

export function overrideOptions(flags: readonly string[]): OptionSpec[] {
  return OVERRIDES.filter((o) => flags.includes(o.flag)).map((o) => ({
    name: o.flag,
    value: o.kind === 'number' ? 'N' : o.kind === 'count' ? 'N|auto' : o.flag === 'baseline-mode' ? 'MODE' : 'VALUE',
    description: o.description,
  }));
}

export function overrideValues(args: ParsedArgs): Record<string, string | undefined> {
  return Object.fromEntries(OVERRIDES.map((o) => [o.flag, args.options[o.flag]]));
}
