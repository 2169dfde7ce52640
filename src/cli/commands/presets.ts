// `mesh-perf presets`: one line per preset (name, source benchmark, trials, time of load, what it
// reproduces); `--json` for scripts. `mesh-perf plan --preset NAME` shows one in full.
import { PRESETS } from '../../presets/index.ts';
import { presetLine, presetSummary } from '../preset-summary.ts';
import type { Command } from '../command.ts';
import { terminalWidth } from '../terminal-width.ts';

export const command: Command = {
  name: 'presets',
  summary: 'List the presets that reproduce published mesh benchmarks',
  usage: 'presets [--json]',
  options: [{ name: 'json', description: 'Print the presets as JSON' }],
  details: [
    'Use one with `mesh-perf run --preset NAME` (or `preset: NAME` in mesh-perf.yaml); your own fields and flags override the preset.',
    '`mesh-perf plan --preset NAME` shows its trials.',
    'Variants of one benchmark are named <preset>-<what differs>, e.g. ambient-modes-400.',
    'Times are load only; creating a cluster and installing meshes comes on top.',
  ].join('\n'),
  async run(context) {
    const summaries = PRESETS.map((p) => presetSummary(p));
    if (context.args.switches.has('json')) {
      context.stdout(`${JSON.stringify(summaries, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(...summaries.map((s) => s.name.length));
    const columns = terminalWidth();
    context.stdout(`${summaries.map((s) => presetLine(s, width, columns)).join('\n')}\n`);
    return 0;
  },
};
