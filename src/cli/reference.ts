// Where `run` finds the past results a regression is judged against: --baseline (a results.json,
// a run folder, a folder of run folders, or a store) or else the configured history store,
// looked up the way a PR gate wants it (merge base, else the base branch's latest runs).
import type { Config } from '../config/validate.ts';
import { findBase } from '../history/lookup.ts';
import { openStore } from '../history/open-store.ts';
import { readResults } from '../history/read-results.ts';
import { loadChartJsSource } from '../report/html/chartjs-source.ts';
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';

export function referenceLoader(config: Config, baseline: string | undefined, cwd: string, log: Logger): ((result: RunResult) => Promise<RunResult[]>) | undefined {
  const window = config.gates.regression.window;
  if (baseline) {
    return async () => {
      let runs: RunResult[];
      try {
        runs = (await readResults([baseline], cwd)).map((r) => r.result);
      } catch (error) {
        if (!(error instanceof UsageError) || !/holds no results\.json/.test(error.message)) throw error;
        runs = await openStore(baseline, { cwd, chartJs: loadChartJsSource, log }).list({ suite: config.suite });
      }
      log.info(`comparing with ${runs.length} run${runs.length === 1 ? '' : 's'} from ${baseline}`);
      return runs;
    };
  }
  const spec = config.history.store;
  if (!spec) return undefined;
  return async (result) => {
    const store = openStore(spec, { cwd, branch: config.history.branch, chartJs: loadChartJsSource, log, ...(process.env.GITHUB_TOKEN ? { token: process.env.GITHUB_TOKEN } : {}) });
    const base = await findBase(store, config.suite, result.run.git, window, result.run.id);
    log.info(base ? `comparing with ${base.runs.length} past runs (${base.basis}${base.branch ? ` of ${base.branch}` : ''}) from ${store.describe()}` : `no comparable past runs in ${store.describe()}`);
    return base?.runs ?? [];
  };
}
