import { resolve } from 'node:path';
import { armsFromBaseLines } from '../../report/arms-from-base-text.ts';
import type { Command } from '../command.ts';
import { AB_BASE_OPTION, AB_IMAGE_OPTIONS, checkBaselinePath, DEFAULT_CONFIG, loadCommandConfig } from '../load-config.ts';
import { OVERRIDE_FLAGS, overrideOptions } from '../override-options.ts';
import { runAndReport } from '../run-and-report.ts';
import { command as calibrate } from './calibrate.ts';

export const command: Command = {
  name: 'run',
  summary: 'Run the benchmark described by a config file and gate on it',
  usage: 'run [--config FILE] [--ab-base-config FILE | --ab-head-image IMAGE] [--out DIR] [--baseline PATH] [--wide] [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: `Config file (default ./${DEFAULT_CONFIG}; \`mesh-perf init\` writes one)` },
    { name: 'out', value: 'DIR', description: 'Results folder (default ./mesh-perf-results/<run-id>)' },
    {
      name: 'baseline',
      value: 'PATH',
      description:
        'Gate against stored results: a results.json, a run folder, a folder of them, or a store (the mode to compare against is --baseline-mode)',
    },
    { name: 'wide', description: 'Print every column in one table, however wide' },
    AB_BASE_OPTION,
    ...AB_IMAGE_OPTIONS,
    ...overrideOptions(OVERRIDE_FLAGS.run),
  ],
  details:
    'Exit codes: 0 pass, 1 a gate failed, 2 usage or config error, 3 environment problem or invalid run, 130 interrupted. An inconclusive gate (too few repetitions to decide) exits 0, or 1 with gates.regression.inconclusive: fail.',
  async run(context) {
    const config = await loadCommandConfig(context, { preflight: true });
    checkBaselinePath(context.args.options.baseline, config, context.cwd);
    // `calibrate: true` turns the run into an A/A calibration of the baseline mode.
    if (config.calibrate) return calibrate.run(context);
    if (config.armsFromBase) for (const line of armsFromBaseLines(config.armsFromBase)) context.log.info(line);
    if (context.args.options.out) config.out = resolve(context.cwd, context.args.options.out);
    return runAndReport(config, context, context.args.options.baseline);
  },
};
