import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import { DEMO_LOAD, DEMO_MODES } from '../../config/demo-modes.ts';
import type { Command } from '../command.ts';
import { runAndReport } from '../run-and-report.ts';

/**
 * The demo needs nothing but this tool: it starts two echo servers on 127.0.0.1, one reached
 * directly and one through a forwarding proxy, and measures what the extra hop costs.
 */
export const DEMO_CONFIG = {
  suite: 'demo',
  platform: 'local',
  modes: DEMO_MODES,
  load: DEMO_LOAD,
};

export const command: Command = {
  name: 'demo',
  summary: 'Measure a proxy hop on this machine: no cluster, no config (about 40 s)',
  usage: 'demo [--out DIR]',
  options: [
    { name: 'out', value: 'DIR', description: 'Results folder (default ./mesh-perf-results/<run-id>)' },
    { name: 'wide', description: 'Print every column in one table, however wide' },
  ],
  async run(context) {
    const config = await loadConfig({ defaults: DEMO_CONFIG });
    if (context.args.options.out) config.out = resolve(context.cwd, context.args.options.out);
    return runAndReport(config, context);
  },
};
