// The config to A/B against on a pull request: the same file as the PR's base commit has it
// (`git show <base>:<path>`), so a PR that changes a mode's settings runs the old and the new side
// by side in one run (config/arms-from-base.ts). Input `ab-base-config`: `pr-base` (the default)
// does this on pull_request events, `none` never, anything else is a file to use as the base.
// When the base cannot be had (the commit not fetchable, the file absent there, or not a valid
// config) the run goes on with history only and says why, naming the file and the commit.
// Inputs ab-head-image / ab-base-image make the arms from two echo images instead (imageArms).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArmsFromBase } from '../config/arms-from-base.ts';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/validate.ts';
import { type BaseFiles, baseServerManifests } from './pr-base-files.ts';
import { type Git, runGit } from './run-git.ts';
import { messageOf, UsageError } from '../util/errors.ts';
import { registerSecret } from '../util/redact.ts';
import type { GitHubEvent } from './event.ts';
import { type ActionInputs, INPUT } from './inputs.ts';
import { quote } from '../util/quote.ts';

const AB_BASE_INPUT = INPUT.abBaseConfig;
export const AB_BASE_FROM_PR = 'pr-base';
export const AB_BASE_NONE = 'none';

/** Where the base config comes from, for loadConfig; or why there is none (a run goes on with history). */
export type BaseConfig =
  /** `remove` deletes the temporary copy read from git, once loaded (a config may hold credentials). */
  | {
      kind: 'file';
      file: string;
      label: string;
      remove?: () => Promise<void>;
      /** Server manifests as the base commit has them, where they differ from the checkout's (pr-base-files.ts). */
      baseFiles?: BaseFiles;
    }
  | { kind: 'unavailable'; summary: ArmsFromBase }
  | { kind: 'none' };

export interface BaseConfigRequest {
  /** The input's value ('' counts as the default, pr-base). */
  input: string;
  event: GitHubEvent;
  /** The head's config file, relative to `cwd`; undefined when the run has none (inputs or a preset only). */
  configFile: string | undefined;
  cwd: string;
  /**
   * The job's token, for fetching the base commit from a private repository: the shipped workflows
   * check out with persist-credentials: false, so the checkout keeps none. Passed to git as an
   * http.extraheader for this one command, as actions/checkout does; never in argv of anything logged.
   */
  token?: string;
  /** GITHUB_SERVER_URL: the header is scoped to this server. */
  serverUrl?: string;
  git?: Git;
}

export async function baseConfigFor(request: BaseConfigRequest): Promise<BaseConfig> {
  const input = request.input.trim() || AB_BASE_FROM_PR;
  if (input === AB_BASE_NONE) return { kind: 'none' };
  if (input !== AB_BASE_FROM_PR) return { kind: 'file', file: input, label: `input ${AB_BASE_INPUT} (${input})` };
  const pr = request.event.pullRequest;
  if (!pr) return { kind: 'none' };
  const git = request.git ?? runGit;
  const sha = pr.baseSha;
  const short = sha.slice(0, 7);
  if (!request.configFile) {
    return unavailable(
      `the PR base ${short}`,
      'the run has no config file (inputs or a preset only), so there is nothing to read at the base',
    );
  }
  const path = request.configFile;
  const source = `the PR base's ${path} (${short})`;
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) return unavailable(source, `the event's base commit ${JSON.stringify(sha)} is not a commit id`);
  try {
    await ensureCommit(git, sha, request.cwd, authArgs(request.token, request.serverUrl));
  } catch (error) {
    return unavailable(
      source,
      `commit ${short} (the PR base, ${pr.baseRef}) is not in the checkout and could not be fetched: ${messageOf(error)}`,
    );
  }
  let text: string;
  try {
    // `<commit>:./<path>`: the path relative to the working directory, as the head's config is named.
    text = await git(['show', `${sha}:./${path.replace(/^\.\//, '')}`], request.cwd);
  } catch {
    return unavailable(source, `${path} does not exist at commit ${short} (the PR base, ${pr.baseRef})`);
  }
  const dir = await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'mesh-perf-pr-base-'));
  const file = join(dir, 'base-config.yaml');
  const remove = () => rm(dir, { recursive: true, force: true });
  await writeFile(file, text, { mode: 0o600 });
  let baseConfig: Config;
  try {
    // The base is judged as a config on its own first: one that does not validate makes no arms.
    baseConfig = await loadConfig({ file, fileLabel: source });
  } catch (error) {
    await remove();
    if (error instanceof UsageError)
      return unavailable(source, `${path} at commit ${short} is not a valid config: ${firstTwoLines(messageOf(error))}`);
    throw error;
  }
  const baseFiles = await baseServerManifests(git, sha, request.cwd, baseConfig);
  return { kind: 'file', file, label: source, remove, ...(baseFiles ? { baseFiles } : {}) };
}

/** The base commit in the local repository: present already (fetch-depth 0), else fetched by id. */
async function ensureCommit(git: Git, sha: string, cwd: string, auth: string[]): Promise<void> {
  try {
    await git(['cat-file', '-e', `${sha}^{commit}`], cwd);
    return;
  } catch {
    // Not fetched yet: actions/checkout fetches only the merge commit by default (fetch-depth 1).
  }
  await git([...auth, 'fetch', '--no-tags', '--depth=1', 'origin', sha], cwd);
  await git(['cat-file', '-e', `${sha}^{commit}`], cwd);
}

/** `-c http.<server>/.extraheader=AUTHORIZATION: basic …` for the token, registered as a secret in both forms. */
function authArgs(token: string | undefined, serverUrl: string | undefined): string[] {
  if (!token || !serverUrl || !/^https:\/\//.test(serverUrl)) return [];
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  registerSecret(token);
  registerSecret(basic);
  return ['-c', `http.${serverUrl.replace(/\/+$/, '')}/.extraheader=AUTHORIZATION: basic ${basic}`];
}

function unavailable(source: string, why: string): BaseConfig {
  return { kind: 'unavailable', summary: { source, armed: [], history: [], unavailable: why } };
}

/** The head of a multi-line message ("x has 2 problems:" and the first), as one line. */
function firstTwoLines(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(0, 2).join(' ');
}

/** Inputs ab-head-image (and ab-base-image) as loadConfig's abImages; undefined when not set. */
export function imageArms(
  inputs: Pick<ActionInputs, 'abBaseImage' | 'abHeadImage'>,
): { head: string; base?: string; names: { base: string; head: string } } | undefined {
  if (inputs.abHeadImage === undefined) {
    if (inputs.abBaseImage !== undefined)
      throw new UsageError(
        `input ${INPUT.abBaseImage} ${quote(inputs.abBaseImage)}: set without ${INPUT.abHeadImage}; expected both (the base arm's echo image and the head arm's), or ${INPUT.abHeadImage} alone`,
      );
    return undefined;
  }
  return {
    head: inputs.abHeadImage,
    ...(inputs.abBaseImage !== undefined ? { base: inputs.abBaseImage } : {}),
    names: { base: `input ${INPUT.abBaseImage}`, head: `input ${INPUT.abHeadImage}` },
  };
}
