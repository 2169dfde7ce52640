// Store settings shared by `publish`, `report` and the action: flags win over the config file's
// `history:` section. The CLI's token comes from the environment only (never a flag: it would land
// in shell history and process lists; storeToken), the action's from its `token` input.

import { loadChartJsSource } from '../report/html/chartjs-source.ts';
import { UsageError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { type AnyStore, openStore } from './open-store.ts';
import { DEFAULT_TIMELINE_RETENTION, parseRetention, parseTimelineRetention } from './retention.ts';

export const TOKEN_ENV = ['MESH_PERF_STORE_TOKEN', 'GITHUB_TOKEN'] as const;

export interface StoreFlags {
  store?: string;
  branch?: string;
  keep?: string;
  keepTimelines?: string;
  adopt?: boolean;
}

export interface HistoryDefaults {
  store?: string;
  adopt?: boolean;
  branch?: string;
  keep?: string;
  keepTimelines?: string;
}

/** The CLI's store token: MESH_PERF_STORE_TOKEN, else GITHUB_TOKEN; undefined when neither is set. */
export function storeToken(env: NodeJS.ProcessEnv): string | undefined {
  return TOKEN_ENV.map((name) => env[name]).find((v) => v !== undefined && v !== '');
}

export function storeFromFlags(
  flags: StoreFlags,
  defaults: HistoryDefaults,
  token: string | undefined,
  log: Logger,
  cwd: string,
): AnyStore {
  const spec = flags.store ?? defaults.store;
  if (!spec) throw new UsageError('no history store: pass --store <git URL or directory> (or set history.store in the config file)');
  const keep = flags.keep ?? defaults.keep;
  const keepTimelines = flags.keepTimelines ?? defaults.keepTimelines ?? DEFAULT_TIMELINE_RETENTION;
  const timelineRetention = parseTimelineRetention(keepTimelines, flags.keepTimelines ? '--keep-timelines' : 'history.keepTimelines');
  return openStore(spec, {
    branch: flags.branch ?? defaults.branch ?? 'gh-pages',
    ...(token ? { token } : {}),
    adopt: flags.adopt || (defaults.adopt ?? false),
    ...(keep ? { retention: parseRetention(keep, flags.keep ? '--keep' : 'history.keep') } : {}),
    ...(timelineRetention ? { timelineRetention } : {}),
    chartJs: loadChartJsSource,
    log,
    cwd,
  });
}
