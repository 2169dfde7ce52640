// Publish mode (input publish-results): adds finished runs, e.g. the results artifact of a
// benchmark job, to the history store. The reusable publish workflow runs it in a job that holds
// contents: write but never runs benchmark or PR code. Refused for anything but trusted events.
//
// The history settings are the user's config file's (`history.store`, `branch`, `keep`,
// `keepTimelines`), with the history-store / history-branch inputs overriding them only when set:
// the same layering as the benchmark mode, so publishing from a separate job drops nothing.
import * as core from '@actions/core';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/load.ts';
import { historySchema } from '../config/sections/history.ts';
import { gatesSchema } from '../config/sections/gates.ts';
import {
  changePointMode,
  changePointSummaryLines,
  type ConfirmChangePoints,
  evaluateChangePointGate,
  evaluateConfirmationGate,
  type ChangePointGateMode,
} from '../history/change-point-gate.ts';
import { CONFIRMATION_FILE, readConfirmationFiles, readResults } from '../history/read-results.ts';
import { EXIT, messageOf, UsageError } from '../util/errors.ts';
import { ActionLogger } from './action-logger.ts';
import { trustedEvent } from './default-branch.ts';
import { publishRefusal, readGitHubEvent, type GitHubEvent } from './event.ts';
import { openHistory, type HistorySettings } from './history.ts';
import { INPUT, OUTPUT, PUBLISH_RESULTS_INPUT } from './inputs.ts';
import { expandHome } from './path-input.ts';
import { readEventPayload, type ModeOutcome } from './run-benchmark.ts';

const STORE_INPUT = 'history-store';
const BRANCH_INPUT = 'history-branch';
const ADOPT_INPUT = 'adopt';
const CHANGE_POINT_INPUT = 'change-point';

export async function runPublishMode(env: NodeJS.ProcessEnv): Promise<ModeOutcome> {
  const token = core.getInput(INPUT.token);
  if (token) core.setSecret(token);
  delete process.env['INPUT_TOKEN'];
  const cwd = resolve(env.GITHUB_WORKSPACE ?? process.cwd(), expandHome(core.getInput(INPUT.workingDirectory)) || '.');
  const payloadEvent = readGitHubEvent(env, await readEventPayload(env.GITHUB_EVENT_PATH));
  let event: GitHubEvent;
  try {
    event = await trustedEvent(payloadEvent, token);
  } catch (error) {
    // Not knowing the default branch means not knowing whether this run may publish: a failed
    // step, not a notice nobody reads, or the history silently stops growing.
    return { exitCode: EXIT.environment, failure: `mesh-perf did not publish: ${messageOf(error)}` };
  }
  const refusal = publishRefusal(event);
  if (refusal) {
    core.warning(`mesh-perf did not publish: ${refusal}`);
    return { exitCode: EXIT.pass };
  }
  const { history, gate } = await historySettings(cwd);
  const changePointInput = core.getInput(CHANGE_POINT_INPUT);
  if (changePointInput) gate.mode = changePointMode(changePointInput, `input ${CHANGE_POINT_INPUT}`);
  core.info(
    `history: store ${history.store ?? '(this repository)'}, branch ${history.branch}${history.keep ? `, keep ${history.keep}` : ''}${history.keepTimelines ? `, keepTimelines ${history.keepTimelines}` : ''}`,
  );
  const log = new ActionLogger();
  const given = expandHome(core.getInput(PUBLISH_RESULTS_INPUT, { required: true }));
  // A confirmation's artifact (the confirm job's): its verdict is recorded with its change point.
  if (existsSync(join(resolve(env.GITHUB_WORKSPACE ?? process.cwd(), given), CONFIRMATION_FILE)))
    return recordConfirmation(env, given, history, event, token, log, cwd, gate.mode);
  const loaded = await log.group('Read results', async () => {
    const runs = await readResults([given], env.GITHUB_WORKSPACE ?? process.cwd());
    for (const { file, result } of runs) core.info(`${file}: suite ${result.run.suite}, verdict ${result.verdict}`);
    return runs;
  });
  const store = openHistory(history, event, token, log, cwd);
  if (!store)
    return {
      exitCode: EXIT.usage,
      failure: 'mesh-perf: no history store: set history.store in the config (or the history-store input), or run in a GitHub repository',
    };
  const valid = loaded.filter(({ result }) => !result.run.aborted);
  for (const { file } of loaded.filter(({ result }) => result.run.aborted))
    core.warning(`not published: ${file} is from a run that ended early`);
  try {
    const outcome = await log.group(`Publish ${valid.length} run(s) to ${store.describe()}`, () =>
      store.publish(valid.map((r) => r.result)),
    );
    const line = outcome
      ? `${outcome.added.length} run(s) published to ${store.describe()}${outcome.commit ? ` (commit ${outcome.commit.slice(0, 12)})` : ''}`
      : `published to ${store.describe()}`;
    core.info(line);
    const changePoint = evaluateChangePointGate(outcome?.changePoints ?? [], gate.mode, gate.minEffectPct, gate.confirm);
    core.setOutput(OUTPUT.changePointToConfirm, String(changePoint.raised.length > 0 && gate.confirm !== 'off'));
    for (const text of changePoint.lines) core.warning(text, { title: 'mesh-perf: new change point' });
    const summary = [line, ...changePointSummaryLines(changePoint)];
    if (env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(`### mesh-perf history\n\n${summary.join('\n\n')}\n`).write();
    if (changePoint.decision === 'fail')
      return { exitCode: EXIT.gateFailed, failure: `mesh-perf: change-point gate failed: ${changePoint.lines.join('; ')}` };
    return { exitCode: EXIT.pass };
  } finally {
    log.end();
  }
}

/** Records the confirm job's verdict with its change point; the change-point gate applies to it. */
async function recordConfirmation(
  env: NodeJS.ProcessEnv,
  given: string,
  history: HistorySettings,
  event: GitHubEvent,
  token: string,
  log: ActionLogger,
  cwd: string,
  mode: ChangePointGateMode,
): Promise<ModeOutcome> {
  const read = await readConfirmationFiles([given], env.GITHUB_WORKSPACE ?? process.cwd(), `input ${PUBLISH_RESULTS_INPUT}`);
  const store = openHistory(history, event, token, log, cwd);
  if (!store?.recordConfirmations)
    return {
      exitCode: EXIT.usage,
      failure: 'mesh-perf: no history store: set history.store in the config (or the history-store input), or run in a GitHub repository',
    };
  const records = read.map((r) => r.record);
  try {
    const outcome = await log.group(`Record ${records.length} confirmation(s) in ${store.describe()}`, () =>
      store.recordConfirmations!(records),
    );
    for (const warning of outcome.warnings) core.warning(warning);
    const gate = evaluateConfirmationGate(records, mode);
    for (const record of records) core.info(record.line);
    const line = `${records.length} confirmation(s) recorded in ${store.describe()}${outcome.commit ? ` (commit ${outcome.commit.slice(0, 12)})` : ''}`;
    if (env.GITHUB_STEP_SUMMARY)
      await core.summary.addRaw(`### mesh-perf confirmation\n\n${[line, ...records.map((r) => r.line)].join('\n\n')}\n`).write();
    if (gate.decision === 'fail')
      return { exitCode: EXIT.gateFailed, failure: `mesh-perf: change-point gate failed on its confirmation: ${gate.lines.join('; ')}` };
    for (const text of gate.decision === 'warn' ? gate.lines : []) core.warning(text, { title: 'mesh-perf: change point' });
    return { exitCode: EXIT.pass };
  } finally {
    log.end();
  }
}

/** The config file's history section (when there is one), then the inputs that are set. */
async function historySettings(
  cwd: string,
): Promise<{ history: HistorySettings; gate: { mode: ChangePointGateMode; minEffectPct: number; confirm: ConfirmChangePoints } }> {
  const overrides: Record<string, string> = {};
  for (const name of [STORE_INPUT, BRANCH_INPUT, ADOPT_INPUT]) if (core.getInput(name)) overrides[name] = core.getInput(name);
  if (overrides[STORE_INPUT]) overrides[STORE_INPUT] = expandHome(overrides[STORE_INPUT]);
  const named = expandHome(core.getInput(INPUT.config));
  const file = named ? resolve(cwd, named) : existsSync(resolve(cwd, 'mesh-perf.yaml')) ? resolve(cwd, 'mesh-perf.yaml') : undefined;
  if (!file) {
    // No config: the schema's defaults with the inputs on top, validated the same way.
    const adopt = overrides[ADOPT_INPUT];
    if (adopt !== undefined && adopt !== 'true' && adopt !== 'false')
      throw new UsageError(`input adopt: expected true or false, got ${JSON.stringify(adopt)}`);
    const history = historySchema.parse({
      ...(overrides[STORE_INPUT] ? { store: overrides[STORE_INPUT] } : {}),
      ...(overrides[BRANCH_INPUT] ? { branch: overrides[BRANCH_INPUT] } : {}),
      ...(adopt ? { adopt: adopt === 'true' } : {}),
    });
    const gates = gatesSchema.parse(undefined);
    return { history, gate: { mode: gates.changePoint, minEffectPct: gates.regression.minEffectPct, confirm: 'off' } };
  }
  const config = await loadConfig({ file, overrides, overrideOrigin: 'input' });
  core.info(`history settings from ${named || 'mesh-perf.yaml'}`);
  return {
    history: config.history,
    gate: { mode: config.gates.changePoint, minEffectPct: config.gates.regression.minEffectPct, confirm: config.confirm.changePoints },
  };
}
