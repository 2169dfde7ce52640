// `mesh-perf confirm`: confirms a change point of a history store's daily series by a same-run A/B
// of the settings of its two runs on this machine (confirmed / withdrawn / environment / cannot
// re-run), names the setting that moved it, and writes confirmation.json (with each run's results
// beside it). Reads the store; --record also stores the verdict with the change point (otherwise
// `mesh-perf publish --confirmation` does, from a job allowed to write).
import { existsSync } from 'node:fs';
import { rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseDurationMs } from '../../config/duration.ts';
import { loadConfig } from '../../config/load.ts';
import { CONFIRM_DEFAULTS } from '../../config/sections/confirm.ts';
import { gatesSchema } from '../../config/sections/gates.ts';
import { manifestsResolver } from '../../confirm/manifests.ts';
import type { ConfirmationRecord } from '../../confirm/record.ts';
import { confirmFromStore } from '../../history/confirm-session.ts';
import { compactStamp } from '../../history/layout.ts';
import { CONFIRM_EVENT } from '../../history/publishable.ts';
import { CONFIRMATION_FILE } from '../../history/read-results.ts';
import { type HistoryDefaults, storeFromFlags, storeToken } from '../../history/store-options.ts';
import { MESH_PERF_VERSION, runPipeline } from '../../pipeline.ts';
import { gitInfo, machineInfo } from '../../results/metadata.ts';
import { EXIT, UsageError } from '../../util/errors.ts';
import { makeDirectory, makeFreshDirectory } from '../../util/make-directory.ts';
import type { Command } from '../command.ts';

export const command: Command = {
  name: 'confirm',
  summary: 'Confirm a change point of the daily series by a same-run A/B of the settings before and after it',
  usage:
    'confirm --store GIT-URL|DIR [--suite NAME] [--change-point newest|PROFILE/MODE/METRIC@RUN] [--config FILE] [--out DIR] [--record]',
  options: [
    { name: 'store', value: 'URL|DIR', description: 'history store (git URL/repository or folder); or history.store in --config' },
    { name: 'branch', value: 'NAME', description: 'branch of a git store (default gh-pages)' },
    { name: 'suite', value: 'NAME', description: "the series' suite (default the config's suite, else default)" },
    { name: 'series-branch', value: 'NAME', description: "the branch whose daily series to look at (default the checkout's branch)" },
    {
      name: 'change-point',
      value: 'SPEC',
      description: 'newest (the newest raised one without a verdict; default) or PROFILE/MODE/METRIC@RUN-ID',
    },
    { name: 'config', value: 'FILE', description: 'read history.*, gates.regression.minEffectPct and confirm.* from this config' },
    { name: 'out', value: 'DIR', description: 'where confirmation.json and the runs go (default mesh-perf-confirm/<time>)' },
    {
      name: 'max-duration',
      value: 'DURATION',
      description: 'load time each confirmation run may spend (confirm.maxDuration, default 12m)',
    },
    { name: 'record', description: 'also store the verdict with the change point (needs write access to the store)' },
    { name: 'json', description: 'print the confirmation record as JSON' },
  ],
  details: [
    'Verdicts: confirmed (the A/B fails the same way: exit 1), withdrawn (within the practical minimum), environment (nothing an arm can carry differed and the level stayed: the runner moved), cannot re-run (what changed cannot be an arm here, named with why), inconclusive, invalid (exit 3; the alert stays).',
    'Several differing settings are bisected (halves run side by side) to name the one that moved it, or those that only together do.',
    "Server manifests whose content changed are read at the earlier run's commit (git show): run it in a checkout with that history.",
    '',
    'Example: mesh-perf confirm --store https://github.com/org/repo.git --config mesh-perf.yaml',
  ].join('\n'),
  async run(context) {
    const { options, switches } = context.args;
    const settings = await confirmSettings(options.config, context.cwd);
    const maxDuration = options['max-duration'] ?? settings.maxDuration;
    if (parseDurationMs(maxDuration) === undefined)
      throw new UsageError(`--max-duration ${JSON.stringify(maxDuration)}: expected a duration such as "12m" or "90s"`);
    const store = storeFromFlags(
      { ...(options.store ? { store: options.store } : {}), ...(options.branch ? { branch: options.branch } : {}) },
      settings.history,
      storeToken(process.env),
      context.log,
      context.cwd,
    );
    const spec = options.store ?? settings.history.store;
    // A folder that is not there would read as a store with no change points.
    if (spec && !/^[a-z][a-z0-9+.-]*:\/\/|^[^/\s]+@[^/\s]+:/i.test(spec) && !existsSync(resolve(context.cwd, spec)))
      throw new UsageError(
        `--store ${spec}: no such folder (${resolve(context.cwd, spec)}); pass the folder or git URL of the daily runs' history`,
      );
    const suite = options.suite ?? settings.suite;
    const branch = options['series-branch'] ?? (await gitInfo(context.cwd)).branch;
    // The default folder is named by the second, made fresh (a -2 suffix) when a confirm of the same second has it.
    const out = options.out
      ? resolve(context.cwd, options.out)
      : await makeFreshDirectory(resolve(context.cwd, 'mesh-perf-confirm'), compactStamp(new Date().toISOString()));
    context.log.phase(
      `Looking for a change point to confirm in suite ${suite}${branch ? ` (branch ${branch})` : ''} of ${store.describe()}`,
    );
    // The default folder made above (and mesh-perf-confirm/ if it made that) goes again when nothing
    // ran in it: rmdir removes only an empty folder.
    const dropUnused = async () => {
      if (options.out) return;
      for (const dir of [out, dirname(out)]) await rmdir(dir).catch(() => undefined);
    };
    const outcome = await confirmFromStore(
      store,
      {
        suite,
        ...(branch !== undefined ? { branch } : {}),
        ...(options['change-point'] ? { changePoint: options['change-point'] } : {}),
        minEffectPct: settings.minEffectPct,
        perDay: settings.perDay,
      },
      {
        maxDuration,
        maxBisectRuns: settings.maxBisectRuns,
        ...(settings.duration ? { duration: settings.duration } : {}),
        ...(settings.warmup ? { warmup: settings.warmup } : {}),
      },
      {
        runRound: async (config, index) => {
          context.log.phase(`Confirmation run ${index + 1}`);
          const run = await runPipeline(
            { ...config, out: join(out, `run-${index + 1}`) },
            { log: context.log, signal: context.signal, cwd: context.cwd, git: { event: CONFIRM_EVENT } },
          );
          if (run.error && context.signal.aborted) throw run.error;
          return run.result;
        },
        resolveManifests: manifestsResolver(context.cwd, join(out, 'manifests')),
        now: () => new Date(),
        runner: machineInfo().runnerClass,
        tool: MESH_PERF_VERSION,
      },
    ).catch(async (error: unknown) => {
      await dropUnused();
      throw error;
    });
    if ('none' in outcome) {
      await dropUnused();
      // --json is for scripts: nothing to confirm is JSON too.
      if (switches.has('json')) context.stdout(`${JSON.stringify({ none: outcome.none }, null, 2)}\n`);
      else context.stdout(`nothing to confirm: ${outcome.none}\n`);
      return EXIT.pass;
    }
    const { record } = outcome;
    await makeDirectory(out);
    await writeFile(join(out, CONFIRMATION_FILE), `${JSON.stringify(record, null, 2)}\n`);
    if (switches.has('record')) {
      const recorded = await store.recordConfirmations([record]);
      for (const warning of recorded.warnings) context.log.warn(warning);
    }
    if (switches.has('json')) context.stdout(`${JSON.stringify(record, null, 2)}\n`);
    else context.stdout(`${record.line}\n${record.details.map((d) => `  ${d}\n`).join('')}confirmation: ${join(out, CONFIRMATION_FILE)}\n`);
    return exitOf(record);
  },
};

/** A confirmed step is a failed gate (1); an invalid confirmation run an invalid run (3); the rest pass. */
function exitOf(record: ConfirmationRecord): number {
  return record.verdict === 'confirmed' ? EXIT.gateFailed : record.verdict === 'invalid' ? EXIT.environment : EXIT.pass;
}

interface ConfirmSettings {
  history: HistoryDefaults;
  suite: string;
  minEffectPct: number;
  perDay: number;
  maxDuration: string;
  maxBisectRuns: number;
  duration?: string;
  warmup?: string;
  /** The config as loaded, for the stored runs' masked credentials. */
  current?: Record<string, unknown>;
}

/** The config's history, suite, practical minimum and confirm settings; the defaults without one. */
async function confirmSettings(configPath: string | undefined, cwd: string): Promise<ConfirmSettings> {
  if (!configPath) {
    const gates = gatesSchema.parse(undefined);
    return { history: {}, suite: 'default', minEffectPct: gates.regression.minEffectPct, ...CONFIRM_DEFAULTS };
  }
  const config = await loadConfig({ file: resolve(cwd, configPath) });
  const { history, confirm } = config;
  return {
    history: {
      ...(history.store ? { store: history.store } : {}),
      ...(history.branch ? { branch: history.branch } : {}),
    },
    suite: config.suite,
    minEffectPct: config.gates.regression.minEffectPct,
    perDay: confirm.perDay,
    maxDuration: confirm.maxDuration,
    maxBisectRuns: confirm.maxBisectRuns,
    ...(confirm.duration ? { duration: confirm.duration } : {}),
    ...(confirm.warmup ? { warmup: confirm.warmup } : {}),
    current: config as unknown as Record<string, unknown>,
  };
}
