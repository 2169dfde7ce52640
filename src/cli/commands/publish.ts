// `mesh-perf publish`: adds finished runs to the history store (a gh-pages branch or a folder)
// with their reports, updates the suite index and the dashboard, and applies retention.
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import { readConfirmationFiles, readResults } from '../../history/read-results.ts';
import { publishRuns, refusedRuns } from '../../history/publish-runs.ts';
import { storeFromFlags, storeToken, TOKEN_ENV, type HistoryDefaults } from '../../history/store-options.ts';
import { EXIT, UsageError } from '../../util/errors.ts';
import { gatesSchema } from '../../config/sections/gates.ts';
import {
  changePointMode,
  type ConfirmChangePoints,
  evaluateConfirmationGate,
  type ChangePointGateMode,
} from '../../history/change-point-gate.ts';
import type { Command } from '../command.ts';

export const command: Command = {
  name: 'publish',
  summary: 'Add results to the history store (gh-pages branch or folder) and update the dashboard',
  usage:
    'publish --results DIR|FILE --store GIT-URL|DIR [--branch gh-pages] [--suite NAME] [--keep 365d|1000runs] [--adopt] | publish --confirmation DIR|FILE --store …',
  options: [
    { name: 'results', value: 'PATH', description: 'results.json, a run folder, or a folder of run folders', repeatable: true },
    {
      name: 'confirmation',
      value: 'PATH',
      description: 'record a verdict of mesh-perf confirm (its confirmation.json or folder) with its change point',
      repeatable: true,
    },
    { name: 'store', value: 'URL|DIR', description: 'git URL or repository path (branch store), or a plain folder' },
    { name: 'branch', value: 'NAME', description: 'branch of a git store (default gh-pages)' },
    { name: 'suite', value: 'NAME', description: 'file the runs under this suite instead of the one they carry' },
    { name: 'keep', value: 'RETENTION', description: 'retention: "365d" (age) or "1000runs" (per suite)' },
    {
      name: 'keep-timelines',
      value: 'RETENTION',
      description: 'per-second timelines stay this long: "30d" (default), "100runs", "all" or "none"',
    },
    { name: 'adopt', description: 'write into a branch/folder that already holds other files (or history.adopt: true in --config)' },
    { name: 'config', value: 'FILE', description: 'read history.store/branch/keep from this config file' },
    {
      name: 'change-point',
      value: 'MODE',
      description: 'a new change point that is a slowdown: warn (default), fail (exit 1) or off (or gates.changePoint in --config)',
    },
    { name: 'json', description: 'print what was published as JSON' },
  ],
  details: [
    `Credentials for HTTPS stores come from the environment: ${TOKEN_ENV.join(' or ')} (needs contents: write).`,
    'Concurrent publishers are safe: a rejected push is fetched, re-applied and retried.',
    'A damaged file on the branch stops the publish (exit 3) and names the file; nothing is written.',
    'A new change point at the newest runs that slows a series by at least gates.regression.minEffectPct is raised as --change-point or gates.changePoint say: warn (a warning, exit 0; the default), fail (exit 1) or off.',
    'With confirm.changePoints: required in --config, a raised change point waits for its confirmation (exit 0); publish --confirmation then applies the gate to the verdict: confirmed fails, withdrawn and environment pass, the rest leave it raised.',
    '',
    'Example: mesh-perf publish --results mesh-perf-results/2025-01-15-abc --store https://github.com/org/repo.git',
  ].join('\n'),
  async run(context) {
    const paths = context.args.lists.results ?? (context.args.options.results ? [context.args.options.results] : []);
    const confirmations = context.args.lists.confirmation ?? [];
    if (paths.length > 0 && confirmations.length > 0)
      throw new UsageError('pass --results (runs of the series) or --confirmation (a verdict of mesh-perf confirm), not both');
    if (paths.length === 0 && confirmations.length === 0)
      throw new UsageError('--results is required (a results.json or a run folder), or --confirmation (a confirmation.json)');
    const { defaults, gate } = await historyDefaults(context.args.options.config, context.cwd);
    const mode = context.args.options['change-point'];
    if (mode !== undefined) gate.mode = changePointMode(mode, '--change-point');
    if (confirmations.length > 0) return recordConfirmations(context, confirmations, defaults, gate.mode);
    const loaded = await readResults(paths, context.cwd);
    const suite = context.args.options.suite;
    const results = loaded.map(({ result }) => (suite ? { ...result, run: { ...result.run, suite } } : result));
    const refused = refusedRuns(results);
    if (refused.length === results.length) {
      throw new UsageError(`nothing to publish: ${refused.map((r) => `run ${r.id} is ${r.reason}`).join('; ')}`);
    }
    const store = storeFromFlags(
      {
        ...(context.args.options.store ? { store: context.args.options.store } : {}),
        ...(context.args.options.branch ? { branch: context.args.options.branch } : {}),
        ...(context.args.options.keep ? { keep: context.args.options.keep } : {}),
        ...(context.args.options['keep-timelines'] ? { keepTimelines: context.args.options['keep-timelines'] } : {}),
        adopt: context.args.switches.has('adopt'),
      },
      defaults,
      storeToken(process.env),
      context.log,
      context.cwd,
    );
    const report = await publishRuns(store, results, gate, context.log);
    if (context.args.switches.has('json')) {
      context.stdout(
        `${JSON.stringify({ store: store.describe(), ...report.outcome, changePointGate: report.changePointGate }, null, 2)}\n`,
      );
      return report.exitCode;
    }
    context.stdout(`${report.lines.join('\n')}\n`);
    return report.exitCode;
  },
};

/** Records verdicts of mesh-perf confirm with their change points and applies the change-point gate to them. */
async function recordConfirmations(
  context: Parameters<Command['run']>[0],
  paths: string[],
  defaults: HistoryDefaults,
  mode: ChangePointGateMode,
): Promise<number> {
  const read = await readConfirmationFiles(paths, context.cwd);
  const store = storeFromFlags(
    {
      ...(context.args.options.store ? { store: context.args.options.store } : {}),
      ...(context.args.options.branch ? { branch: context.args.options.branch } : {}),
    },
    defaults,
    storeToken(process.env),
    context.log,
    context.cwd,
  );
  const records = read.map((r) => r.record);
  context.log.phase(`Recording ${plural(records.length, 'confirmation')} in ${store.describe()}`);
  const outcome = await store.recordConfirmations(records);
  for (const warning of outcome.warnings) context.log.warn(warning);
  const gate = evaluateConfirmationGate(records, mode);
  if (context.args.switches.has('json')) {
    context.stdout(`${JSON.stringify({ store: store.describe(), ...outcome, changePointGate: gate }, null, 2)}\n`);
  } else {
    for (const line of gate.lines.length > 0 ? gate.lines : records.map((r) => r.line)) context.stdout(`${line}\n`);
    context.stdout(
      `${store.describe()}: ${plural(records.length, 'confirmation')} recorded${outcome.commit ? `, commit ${outcome.commit.slice(0, 12)}` : ''}${gate.decision === 'off' ? '' : `; change-point gate (${mode}): ${gate.decision}`}\n`,
    );
  }
  return gate.decision === 'fail' ? EXIT.gateFailed : EXIT.pass;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

async function historyDefaults(
  configPath: string | undefined,
  cwd: string,
): Promise<{ defaults: HistoryDefaults; gate: { mode: ChangePointGateMode; minEffectPct: number; confirm: ConfirmChangePoints } }> {
  // Without a config the schema's defaults hold: the change-point gate warns at 5%.
  const gates = gatesSchema.parse(undefined);
  if (!configPath) return { defaults: {}, gate: { mode: gates.changePoint, minEffectPct: gates.regression.minEffectPct, confirm: 'off' } };
  const config = await loadConfig({ file: resolve(cwd, configPath) });
  const history = config.history;
  return {
    defaults: {
      ...(history.store ? { store: history.store } : {}),
      ...(history.branch ? { branch: history.branch } : {}),
      ...(history.keep ? { keep: history.keep } : {}),
      ...(history.keepTimelines ? { keepTimelines: history.keepTimelines } : {}),
      ...(history.adopt ? { adopt: true } : {}),
    },
    gate: { mode: config.gates.changePoint, minEffectPct: config.gates.regression.minEffectPct, confirm: config.confirm.changePoints },
  };
}
