import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import type { Command } from '../command.ts';
import { OVERRIDE_OPTIONS, overrideValues } from '../override-options.ts';
import { runAndReport } from '../run-and-report.ts';
import { command as calibrate } from './calibrate.ts';

const DEFAULT_CONFIG = 'mesh-perf.yaml';

export const command: Command = {
  name: 'run',
  summary: 'Run the benchmark described by a config file and gate on it',
  usage: 'run [--config FILE] [--out DIR] [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: `Config file (default ./${DEFAULT_CONFIG})` },
    { name: 'out', value: 'DIR', description: 'Results folder (default ./mesh-perf-results/<run-id>)' },
    { name: 'baseline', value: 'PATH', description: 'Gate against stored results: a results.json, a run folder, a folder of them, or a store' },
    ...OVERRIDE_OPTIONS,
  ],
  details:
    'Exit codes: 0 pass, 1 a gate failed, 2 usage or config error, 3 environment problem or invalid run. An inconclusive gate (too few repetitions to decide) exits 0, or 1 with gates.regression.inconclusive: fail.',
  async run(context) {
    const file = resolve(context.cwd, context.args.options.config ?? DEFAULT_CONFIG);
    const hasPreset = context.args.options.preset !== undefined;
    const config = await loadConfig({
      file: context.args.options.config !== undefined || existsSync(file) || !hasPreset ? file : undefined,
      overrides: overrideValues(context.args),
    });
    // `calibrate: true` turns the run into an A/A calibration of the baseline mode.
    if (config.calibrate) return calibrate.run(context);
    if (context.args.options.out) config.out = resolve(context.cwd, context.args.options.out);
    return runAndReport(config, context, context.args.options.baseline);
  },
};
