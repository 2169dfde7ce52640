// Where `run` finds the past results a regression is judged against: --baseline (a results.json,
// a run folder, a folder of run folders, or a store) or else the configured history store,
// looked up the way a PR gate wants it (base commit, else the base branch's latest runs).
import type { Config } from '../config/validate.ts';
import { findBase, referenceWindowLine } from '../history/lookup.ts';
import { isGitLocation, openStore } from '../history/open-store.ts';
import { readResults } from '../history/read-results.ts';
import { loadChartJsSource } from '../report/html/chartjs-source.ts';
import type { RunResult } from '../results/types.ts';
import type { ResultStore } from '../history/types.ts';
import { EnvironmentError, messageOf, UsageError } from '../util/errors.ts';
import { GitCommandError } from '../history/git/git.ts';
import { gitSaid } from '../history/git/git-branch-store.ts';
import { TOKEN_ENV } from '../history/store-options.ts';
import type { Logger } from '../util/log.ts';

export function referenceLoader(
  config: Config,
  baseline: string | undefined,
  cwd: string,
  log: Logger,
): ((result: RunResult) => Promise<RunResult[]>) | undefined {
  const window = config.gates.regression.window;
  if (baseline) {
    // A URL or repository is a store, read as --history-store is; a file or folder holds results.
    if (isGitLocation(baseline, cwd)) {
      return async () => {
        const store = openStore(baseline, { cwd, chartJs: loadChartJsSource, log, ...storeToken() });
        const runs = await reachable(store, () => store.list({ suite: config.suite }));
        log.info(`comparing with ${runs.length} run${runs.length === 1 ? '' : 's'} from ${store.describe()}`);
        return runs;
      };
    }
    return async () => {
      let runs: RunResult[];
      try {
        runs = (await readResults([baseline], cwd, '--baseline')).map((r) => r.result);
      } catch (error) {
        if (!(error instanceof UsageError) || !/holds no results\.json/.test(error.message)) throw error;
        const store = openStore(baseline, { cwd, chartJs: loadChartJsSource, log });
        runs = await reachable(store, () => store.list({ suite: config.suite }));
      }
      log.info(`comparing with ${runs.length} run${runs.length === 1 ? '' : 's'} from ${baseline}`);
      return runs;
    };
  }
  const spec = config.history.store;
  if (!spec) return undefined;
  return async (result) => {
    const store = openStore(spec, {
      cwd,
      branch: config.history.branch,
      chartJs: loadChartJsSource,
      log,
      ...storeToken(),
    });
    return reachable(store, async () => {
      const base = await findBase(store, config.suite, result.run.git, window, result.run.id);
      if (base) {
        log.info(
          `comparing with ${base.runs.length} past runs (${base.basis}${base.branch ? ` of ${base.branch}` : ''}) from ${store.describe()}`,
        );
        if (base.window) log.info(referenceWindowLine(base.window));
      } else log.warn(`no comparable past runs in ${store.describe()}: ${await whyNoBase(store, config.suite, result, cwd, spec)}`);
      return base?.runs ?? [];
    });
  };
}

/** The token a private HTTPS store is read with: the environment's, as `publish` uses. */
function storeToken(): { token?: string } {
  const token = TOKEN_ENV.map((name) => process.env[name]).find((v) => v !== undefined && v !== '');
  return token ? { token } : {};
}

/**
 * Reads from a store, naming a failure as the environment problem it is (exit 3): the pipeline
 * then skips the comparison and keeps the measurements, instead of calling the run invalid.
 */
async function reachable<T>(store: ResultStore, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const cause = (error as Error).cause;
    const said = cause instanceof GitCommandError ? gitSaid(cause) : messageOf(error);
    throw new EnvironmentError(`history store ${store.describe()} unreachable: ${said}`);
  }
}

/** The actual reason history gave nothing to compare with, instead of a list of maybes. */
async function whyNoBase(
  store: { list: ResultStore['list'] },
  suite: string,
  result: RunResult,
  cwd: string,
  spec: string,
): Promise<string> {
  const git = result.run.git;
  const past = (await store.list({ suite })).filter((r) => r.run.id !== result.run.id);
  if (!git.branch && !git.baseRef) {
    const held = past.length > 0 ? `it holds ${past.length} run${past.length === 1 ? '' : 's'} of suite "${suite}", but ` : '';
    return `${held}past runs are matched by git branch and this run has none (${cwd} is not inside a git checkout, or HEAD is detached); run from the repository's checkout, or gate against them directly with --baseline ${spec}`;
  }
  if (past.length === 0) return `it holds no runs of suite "${suite}" yet (this is the first)`;
  const branch = git.baseRef ?? git.branch!;
  const valid = past.filter((r) => r.verdict !== 'invalid');
  const onBranch = valid.filter((r) => r.run.git.branch === branch);
  if (onBranch.length === 0) {
    const branches = [...new Set(valid.map((r) => r.run.git.branch ?? '(none)'))].join(', ');
    return `none of its ${past.length} runs of suite "${suite}" is a valid run of branch "${branch}"${branches ? ` (valid runs are of: ${branches})` : ' (all are invalid)'}`;
  }
  return `no valid run of branch "${branch}" matched`;
}
