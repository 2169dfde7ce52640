// Every action input and output name in one place. The config overrides come from the shared
// OVERRIDES table (so the CLI flags and the action inputs cannot drift); the rest are the
// action's own: the config file, the token, kubeconfig content, the working directory.
import { OVERRIDES } from '../config/overrides.ts';
import { expandHome } from './path-input.ts';

/** Override inputs that take a path (a store may also be a git URL, which never starts with ~). */
const PATH_OVERRIDES = new Set(['kubeconfig-file', 'history-store']);

export const INPUT = {
  config: 'config',
  token: 'token',
  kubeconfig: 'kubeconfig',
  workingDirectory: 'working-directory',
  /** pr-base (default), none, or a file: the config to A/B against (github/pr-base-config.ts). */
  abBaseConfig: 'ab-base-config',
  /** Two echo images as two arms of every mode that can hold them (config/arms-from-base.ts armsFromImages). */
  abBaseImage: 'ab-base-image',
  abHeadImage: 'ab-head-image',
} as const;

export const OUTPUT = {
  verdict: 'verdict',
  resultsPath: 'results-path',
  resultsDir: 'results-dir',
  reportPath: 'report-path',
  summary: 'summary',
  commentUrl: 'comment-url',
  /** true when a publish raised a change point that confirm.changePoints asks to confirm (the daily workflow's confirm job runs on it). */
  changePointToConfirm: 'change-point-to-confirm',
  /** The verdict of a confirmation (confirm-change-point): confirmed, withdrawn, environment, cannot-rerun, inconclusive, invalid, not-run; empty when none was due. */
  confirmation: 'confirmation',
} as const;

/** Inputs of the comment sub-action (comment/action.yml), set as INPUT_* by its composite step. */
export const COMMENT_INPUT = {
  results: 'results',
  token: 'token',
  comment: 'comment',
  pullRequest: 'pull-request',
  dashboardUrl: 'dashboard-url',
} as const;

/** Set: publish these results (a results.json or a folder) to history instead of running a benchmark. */
export const PUBLISH_RESULTS_INPUT = 'publish-results';

/** Set: confirm a change point of the history (newest, or PROFILE/MODE/METRIC@RUN) instead of running a benchmark. */
export const CONFIRM_INPUT = 'confirm-change-point';

/** Inputs of the setup sub-action (setup/action.yml). */
export const SETUP_INPUT = {
  tools: 'tools',
  cacheDir: 'cache-dir',
} as const;

export type ReadInput = (name: string) => string;

export interface ActionInputs {
  configFile: string | undefined;
  overrides: Record<string, string | undefined>;
  token: string;
  /** Kubeconfig content (a secret), not a path. */
  kubeconfig: string | undefined;
  workingDirectory: string;
  /** pr-base, none, or a path (~ expanded). */
  abBaseConfig: string;
  /** Echo images to A/B; set, they make the arms instead of ab-base-config. */
  abBaseImage: string | undefined;
  abHeadImage: string | undefined;
}

export function readActionInputs(read: ReadInput): ActionInputs {
  const overrides: Record<string, string | undefined> = {};
  for (const override of OVERRIDES) {
    const value = read(override.input);
    if (value !== '') overrides[override.input] = PATH_OVERRIDES.has(override.input) ? expandHome(value) : value;
  }
  return {
    configFile: expandHome(read(INPUT.config)) || undefined,
    overrides,
    token: read(INPUT.token),
    kubeconfig: read(INPUT.kubeconfig) || undefined,
    workingDirectory: expandHome(read(INPUT.workingDirectory)) || '.',
    abBaseConfig: expandHome(read(INPUT.abBaseConfig)),
    abBaseImage: read(INPUT.abBaseImage) || undefined,
    abHeadImage: read(INPUT.abHeadImage) || undefined,
  };
}

/** All input names action.yml must declare, in the order docs/action.md lists them. */
export function actionInputNames(): string[] {
  return [
    INPUT.config,
    INPUT.abBaseConfig,
    INPUT.abHeadImage,
    INPUT.abBaseImage,
    ...OVERRIDES.map((o) => o.input),
    INPUT.kubeconfig,
    INPUT.token,
    INPUT.workingDirectory,
    PUBLISH_RESULTS_INPUT,
    CONFIRM_INPUT,
  ];
}
