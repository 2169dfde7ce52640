// History for the action: which store to read (the config's, else this repository's own history
// branch), the "vs base" lookup, and publishing, which is refused for anything but trusted events.
import type { Config } from '../config/validate.ts';
import { findBase } from '../history/lookup.ts';
import { storeFromFlags } from '../history/store-options.ts';
import type { ResultStore } from '../history/types.ts';
import type { GitInfo } from '../results/types.ts';
import type { Logger } from '../util/log.ts';
import type { BaseReference } from '../report/reference.ts';
import type { GitHubEvent } from './event.ts';

export interface HistorySettings {
  store?: string;
  branch: string;
  keep?: string;
  keepTimelines?: string;
  /** Publish into a branch that already holds other files (history.adopt / input adopt). */
  adopt?: boolean;
}

/** The config's store, else the repository the workflow runs in (its history branch). */
export function storeSpec(history: HistorySettings, event: GitHubEvent): string | undefined {
  if (history.store) return history.store;
  return event.repository ? `${event.serverUrl}/${event.repository.owner}/${event.repository.repo}.git` : undefined;
}

export function openHistory(
  history: HistorySettings,
  event: GitHubEvent,
  token: string,
  log: Logger,
  cwd: string,
): ResultStore | undefined {
  const spec = storeSpec(history, event);
  if (!spec) return undefined;
  // The token reaches git as an HTTP header scoped to the store's origin, never the URL or argv.
  return storeFromFlags(
    {},
    {
      store: spec,
      branch: history.branch,
      ...(history.keep ? { keep: history.keep } : {}),
      ...(history.keepTimelines ? { keepTimelines: history.keepTimelines } : {}),
      ...(history.adopt ? { adopt: true } : {}),
    },
    token || undefined,
    log,
    cwd,
  );
}

/**
 * What this run is compared with: a PR's base commit, else its base branch; other events their
 * own branch. The base commit is `pull_request.base.sha`, the base branch's tip when the PR event
 * fired (not the merge base), stored as run.git.baseSha.
 */
export async function baseReference(
  store: ResultStore,
  config: Config,
  event: GitHubEvent,
  runId: string,
): Promise<BaseReference | undefined> {
  const pr = event.pullRequest;
  const git: GitInfo = pr
    ? { baseRef: pr.baseRef, ...(pr.baseSha ? { baseSha: pr.baseSha } : {}) }
    : event.ref?.startsWith('refs/heads/')
      ? { branch: event.ref.slice('refs/heads/'.length) }
      : {};
  const found = await findBase(store, config.suite, git, config.gates.regression.window, runId);
  if (!found?.branch) return undefined;
  return {
    ref: found.branch,
    ...(found.commit ? { commit: found.commit } : {}),
    runs: found.runs,
    ...(found.window ? { windowAfter: found.window.after } : {}),
  };
}
