// Publish mode (input publish-results): adds finished runs, e.g. the results artifact of a
// benchmark job, to the history store. The reusable workflow runs it in a separate job that holds
// contents: write but never runs benchmark or PR code. Refused for anything but trusted events.
import * as core from '@actions/core';
import { readResults } from '../history/read-results.ts';
import { EXIT } from '../util/errors.ts';
import { ActionLogger } from './action-logger.ts';
import { publishRefusal, readGitHubEvent } from './event.ts';
import { openHistory } from './history.ts';
import { INPUT, PUBLISH_RESULTS_INPUT } from './inputs.ts';
import { readEventPayload, type ModeOutcome } from './run-benchmark.ts';

export async function runPublishMode(env: NodeJS.ProcessEnv): Promise<ModeOutcome> {
  const token = core.getInput(INPUT.token);
  if (token) core.setSecret(token);
  delete process.env['INPUT_TOKEN'];
  const event = readGitHubEvent(env, await readEventPayload(env.GITHUB_EVENT_PATH));
  const refusal = publishRefusal(event);
  if (refusal) {
    core.warning(`mesh-perf did not publish: ${refusal}`);
    return { exitCode: EXIT.pass };
  }
  const log = new ActionLogger();
  const cwd = env.GITHUB_WORKSPACE ?? process.cwd();
  const loaded = await log.group('Read results', async () => {
    const runs = await readResults([core.getInput(PUBLISH_RESULTS_INPUT, { required: true })], cwd);
    for (const { file, result } of runs) core.info(`${file}: suite ${result.run.suite}, verdict ${result.verdict}`);
    return runs;
  });
  const store = openHistory({ ...(core.getInput('history-store') ? { store: core.getInput('history-store') } : {}), branch: core.getInput('history-branch') || 'gh-pages' }, event, token, log, cwd);
  if (!store) return { exitCode: EXIT.usage, failure: 'mesh-perf: no history store: set history-store, or run in a GitHub repository' };
  const valid = loaded.filter(({ result }) => !result.run.aborted);
  for (const { file } of loaded.filter(({ result }) => result.run.aborted)) core.warning(`not published: ${file} is from a run that ended early`);
  try {
    const outcome = await log.group(`Publish ${valid.length} run(s) to ${store.describe()}`, () => store.publish(valid.map((r) => r.result)));
    const line = outcome ? `${outcome.added.length} run(s) published to ${store.describe()}${outcome.commit ? ` (commit ${outcome.commit.slice(0, 12)})` : ''}` : `published to ${store.describe()}`;
    core.info(line);
    if (env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(`### mesh-perf history\n\n${line}\n`).write();
    return { exitCode: EXIT.pass };
  } finally {
    log.end();
  }
}
