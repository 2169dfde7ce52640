// Confirm mode (input confirm-change-point): the daily workflow's confirm job. It reads the history
// (contents: read is enough), confirms the newest raised change point without a verdict (or the one
// named) by a same-run A/B of its two runs' settings on this runner, and writes confirmation.json
// with each run's results into a folder for the artifact; the publish workflow records the verdict
// (publish-results with that artifact). The verdict is an output and a job-summary line; the step
// fails only when it could not confirm at all (usage or environment), never on a verdict: the
// change-point gate applies to the verdict where it is recorded.

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import * as core from '@actions/core';
import { loadConfig } from '../config/load.ts';
import { manifestsResolver } from '../confirm/manifests.ts';
import { confirmFromStore } from '../history/confirm-session.ts';
import { compactStamp } from '../history/layout.ts';
import { CONFIRM_EVENT } from '../history/publishable.ts';
import { CONFIRMATION_FILE } from '../history/read-results.ts';
import { MESH_PERF_VERSION, runPipeline } from '../pipeline.ts';
import { text } from '../report/markdown-kit.ts';
import { gitInfo, machineInfo } from '../results/metadata.ts';
import { EXIT, UsageError } from '../util/errors.ts';
import { makeFreshDirectory } from '../util/make-directory.ts';
import { ActionLogger } from './action-logger.ts';
import { CleanupRecorder } from './cleanup.ts';
import { readGitHubEvent } from './event.ts';
import { openHistory } from './history.ts';
import { CONFIRM_INPUT, INPUT, OUTPUT } from './inputs.ts';
import { expandHome } from './path-input.ts';
import { kindClusterLifecycle, type ModeOutcome, readEventPayload } from './run-benchmark.ts';

export async function runConfirmMode(env: NodeJS.ProcessEnv): Promise<ModeOutcome> {
  const token = core.getInput(INPUT.token);
  if (token) core.setSecret(token);
  delete process.env['INPUT_TOKEN'];
  const cwd = resolve(env.GITHUB_WORKSPACE ?? process.cwd(), expandHome(core.getInput(INPUT.workingDirectory)) || '.');
  const event = readGitHubEvent(env, await readEventPayload(env.GITHUB_EVENT_PATH));
  const named = expandHome(core.getInput(INPUT.config));
  const file = named ? resolve(cwd, named) : existsSync(resolve(cwd, 'mesh-perf.yaml')) ? resolve(cwd, 'mesh-perf.yaml') : undefined;
  if (!file)
    throw new UsageError(
      `input ${CONFIRM_INPUT}: a confirmation reads the config the daily runs used; set input config (or keep mesh-perf.yaml)`,
    );
  const overrides: Record<string, string> = {};
  for (const name of ['history-store', 'history-branch', 'suite']) if (core.getInput(name)) overrides[name] = core.getInput(name);
  const config = await loadConfig({ file, overrides, overrideOrigin: 'input' });
  const log = new ActionLogger();
  const store = openHistory(config.history, event, token, log, cwd);
  if (!store)
    throw new UsageError('no history store: set history.store in the config (or the history-store input), or run in a GitHub repository');
  const out = await makeFreshDirectory(resolve(env.RUNNER_TEMP ?? cwd), `mesh-perf-confirmation-${compactStamp(new Date().toISOString())}`);
  const cleanup = new CleanupRecorder((name, value) => core.saveState(name, value));
  const lifecycle = kindClusterLifecycle(config, env, cleanup);
  const branch = (await gitInfo(cwd)).branch;
  core.info(`confirming a change point of suite ${config.suite}${branch ? ` (branch ${branch})` : ''} in ${store.describe()}`);
  try {
    const outcome = await confirmFromStore(
      store,
      {
        suite: config.suite,
        ...(branch !== undefined ? { branch } : {}),
        changePoint: core.getInput(CONFIRM_INPUT),
        minEffectPct: config.gates.regression.minEffectPct,
        perDay: config.confirm.perDay,
        current: config as unknown as Record<string, unknown>,
      },
      {
        maxDuration: config.confirm.maxDuration,
        maxBisectRuns: config.confirm.maxBisectRuns,
        ...(config.confirm.duration ? { duration: config.confirm.duration } : {}),
        ...(config.confirm.warmup ? { warmup: config.confirm.warmup } : {}),
      },
      {
        runRound: async (roundConfig, index) => {
          const run = await log.group(`Confirmation run ${index + 1}`, () =>
            runPipeline(
              { ...roundConfig, out: join(out, `run-${index + 1}`) },
              { log, signal: new AbortController().signal, cwd, lifecycle, git: { event: CONFIRM_EVENT } },
            ),
          );
          return run.result;
        },
        resolveManifests: manifestsResolver(cwd, join(out, 'manifests')),
        now: () => new Date(),
        runner: machineInfo().runnerClass,
        tool: MESH_PERF_VERSION,
      },
    );
    if ('none' in outcome) {
      core.info(`nothing to confirm: ${outcome.none}`);
      core.setOutput(OUTPUT.confirmation, '');
      return { exitCode: EXIT.pass };
    }
    const { record } = outcome;
    await writeFile(join(out, CONFIRMATION_FILE), `${JSON.stringify(record, null, 2)}\n`);
    core.setOutput(OUTPUT.confirmation, record.verdict);
    core.setOutput(OUTPUT.resultsDir, out);
    const title = 'mesh-perf: change-point confirmation';
    if (record.verdict === 'confirmed') core.warning(record.line, { title });
    else core.notice(record.line, { title });
    if (env.GITHUB_STEP_SUMMARY)
      await core.summary
        .addRaw(`### mesh-perf confirmation\n\n${text(record.line)}\n\n${record.details.map((d) => `- ${text(d)}`).join('\n')}\n`)
        .write();
    return { exitCode: EXIT.pass };
  } finally {
    log.end();
  }
}
