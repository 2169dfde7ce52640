// `mesh-perf calibrate`: A/A calibration. Measures one mode of the config twice, as two modes
// interleaved in randomized blocks, then reports this machine's noise floor, how often the
// regression gate would see a difference that is not there, the MDE per statistic, and how many
// repetitions reach a chosen MDE.
import { resolve } from 'node:path';
import { analyzeCalibration, calibrationConfig, type Calibration } from '../../analysis/calibration.ts';
import { renderCalibration } from '../../report/analysis-text.ts';
import { wordCalibration } from '../../report/calibration-words.ts';
import { runPipeline } from '../../pipeline.ts';
import { EXIT, MeshPerfError, UsageError } from '../../util/errors.ts';
import type { Command } from '../command.ts';
import { OVERRIDE_FLAGS, overrideOptions } from '../override-options.ts';
import { loadCommandConfig } from '../load-config.ts';

const DEFAULT_REPETITIONS = 10;

export const command: Command = {
  name: 'calibrate',
  summary: 'A/A calibration: measure one mode twice to learn the noise floor, false alarms and MDE',
  usage: 'calibrate [--config FILE] [--mode NAME] [--repetitions N] [--mde PCT] [--out DIR] [--json]',
  options: [
    { name: 'config', value: 'FILE', description: 'Config file (default ./mesh-perf.yaml)' },
    { name: 'mode', value: 'NAME', description: 'Mode to measure twice (default the baseline mode)' },
    { name: 'repetitions', value: 'N', description: `Interleaved blocks (default ${DEFAULT_REPETITIONS}; more blocks, steadier figures)` },
    { name: 'mde', value: 'PCT', description: 'The smallest change you want to detect, e.g. 5% (default 5%)' },
    { name: 'out', value: 'DIR', description: 'Results folder (default ./mesh-perf-results/<run-id>)' },
    { name: 'json', description: 'Print the calibration as JSON' },
    ...overrideOptions(OVERRIDE_FLAGS.calibrate),
  ],
  details: [
    'The two copies of the mode are the same target, so every difference between them is noise.',
    'False alarms are counted by judging random subsets of blocks against each other with the regression gate; on a healthy machine they stay near or below alpha (5%).',
  ].join('\n'),
  async run(context) {
    const loaded = await loadCommandConfig(context, { preflight: true });
    const repetitions = parseRepetitions(context.args.options.repetitions);
    const targetMde = parseMde(context.args.options.mde);
    const config = calibrationConfig(loaded, context.args.options.mode, repetitions);
    if (context.args.options.out) config.out = resolve(context.cwd, context.args.options.out);
    const [a, b] = config.modes.map((m) => m.name) as [string, string];
    context.log.info(`A/A calibration: "${a}" measured twice (${a}, ${b}), ${repetitions} interleaved blocks per load profile`);
    const outcome = await runPipeline(config, { log: context.log, signal: context.signal, cwd: context.cwd });
    if (outcome.error)
      throw outcome.error instanceof MeshPerfError ? outcome.error : new MeshPerfError(outcome.error.message, EXIT.environment);
    const regression = loaded.gates.regression;
    const calibrations: Calibration[] = config.profiles.map((profile) =>
      wordCalibration(
        analyzeCalibration(outcome.result, {
          modes: [a, b],
          profile: profile.name,
          alpha: regression.alpha,
          minEffectPct: regression.minEffectPct,
          minEffectMs: regression.minEffectMs,
          targetMde,
        }),
      ),
    );
    // --json: stdout is the JSON alone (a reader parses it whole); where the results went goes to the log.
    if (context.args.switches.has('json')) {
      context.stdout(`${JSON.stringify(calibrations, null, 2)}\n`);
      context.log.info(`Results: ${outcome.files.results}`);
    } else {
      for (const calibration of calibrations) context.stdout(`\n${renderCalibration(calibration)}`);
      context.stdout(`Results: ${outcome.files.results}\n`);
    }
    if (outcome.result.verdict === 'invalid') {
      const note = 'The run has invalid repetitions (listed in the results); the figures leave them out and may understate the noise.';
      if (context.args.switches.has('json')) context.log.warn(note);
      else context.stdout(`${note.replace('the figures', 'the figures above')}\n`);
      return EXIT.environment;
    }
    return EXIT.pass;
  },
};

function parseRepetitions(text: string | undefined): number {
  if (text === undefined) return DEFAULT_REPETITIONS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 4)
    throw new UsageError(`--repetitions expects a whole number ≥ 4 (two disjoint subsets of 2 blocks), got ${JSON.stringify(text)}`);
  return n;
}

function parseMde(text: string | undefined): number {
  if (text === undefined) return 0.05;
  const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(text.trim());
  const value = match ? Number(match[1]) / 100 : Number.NaN;
  if (!(value > 0 && value < 1))
    throw new UsageError(`--mde expects a percentage between 0 and 100 such as 5%, got ${JSON.stringify(text)}`);
  return value;
}
