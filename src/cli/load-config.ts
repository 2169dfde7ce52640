// How the commands that read mesh-perf.yaml find it, and the checks `plan` and `run` make before
// any load starts: files the config names exist, rates fit this machine, --baseline is stored
// results and not a mode name. Every problem names the flag, file or preset it came from.
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load.ts';
import type { Config } from '../config/validate.ts';
import { preflightProblems } from '../load/preflight.ts';
import { UsageError } from '../util/errors.ts';
import { redactText } from '../util/redact.ts';
import type { CommandContext } from './command.ts';
import { overrideValues } from './override-options.ts';
import { publishProblems } from './publish-after-run.ts';
import { unreachableProblems } from '../platform/reachable.ts';

export const DEFAULT_CONFIG = 'mesh-perf.yaml';

export interface LoadOptions {
  /** Run the pre-load checks (plan, run, calibrate). */
  preflight?: boolean;
  /**
   * Check that the endpoints answer, with the other problems (plan). `run` leaves it to the
   * platform, which says the same before its load and writes the run's results as invalid.
   */
  reachability?: boolean;
}

/** `--ab-base-config FILE`, on `plan` and `run`. */
export const AB_BASE_OPTION = {
  name: 'ab-base-config',
  value: 'FILE',
  description:
    "A/B against another config, e.g. the PR base's (git show origin/main:mesh-perf.yaml > base.yaml): each mode whose url, env, local or namespace settings differ runs as two arms, base and head, in the same run",
};

/** `--ab-base-image IMAGE` / `--ab-head-image IMAGE`, on `plan` and `run`: two echo images as two arms. */
export const AB_IMAGE_OPTIONS = [
  {
    name: 'ab-head-image',
    value: 'IMAGE',
    description:
      'A/B two builds of the app (kind, kubeconfig): every mode that can runs as two arms, the head arm with this echo server image (name:version or name@sha256:…)',
  },
  {
    name: 'ab-base-image',
    value: 'IMAGE',
    description: "with --ab-head-image: the base arm's echo server image (default: kubernetes.images.echo)",
  },
];

export async function loadCommandConfig(context: CommandContext, options: LoadOptions = {}): Promise<Config> {
  const given = context.args.options.config;
  const abBase = context.args.options['ab-base-config'];
  const label = given ?? DEFAULT_CONFIG;
  const file = resolve(context.cwd, label);
  // With --preset and no mesh-perf.yaml here, the preset alone is the config.
  const useFile = given !== undefined || existsSync(file) || context.args.options.preset === undefined;
  if (useFile && given !== undefined) checkConfigPath(file, given);
  if (abBase !== undefined && !existsSync(resolve(context.cwd, abBase)))
    throw new UsageError(
      // `<rev>:./<path>` is git's path relative to the working directory: an absolute path is not one.
      `--ab-base-config ${abBase}: no such file; expected the config to A/B against, e.g. the PR base's: git show origin/main:./${relative(context.cwd, file)} > base.yaml`,
    );
  const baseImage = context.args.options['ab-base-image'];
  const headImage = context.args.options['ab-head-image'];
  if (headImage !== undefined && abBase !== undefined)
    throw new UsageError(
      `--ab-head-image ${headImage} and --ab-base-config ${abBase}: expected one way to make the arms, the images or the base config`,
    );
  if (baseImage !== undefined && headImage === undefined)
    throw new UsageError(
      `--ab-base-image ${baseImage}: given without --ab-head-image; expected both (the base arm's image and the head arm's), or --ab-head-image alone`,
    );
  return loadConfig({
    ...(useFile ? { file, fileLabel: label } : {}),
    ...(headImage !== undefined
      ? { abImages: { head: headImage, base: baseImage, names: { base: '--ab-base-image', head: '--ab-head-image' } } }
      : {}),
    overrides: overrideValues(context.args),
    signal: context.signal,
    ...(abBase !== undefined ? { abBase: { file: resolve(context.cwd, abBase), label: `--ab-base-config ${abBase}` } } : {}),
    ...(options.preflight
      ? {
          check: async (config: Config) => [
            ...preflightProblems(config, context.cwd),
            ...publishProblems(config),
            // An endpoint that does not answer, as the run would find it before its load.
            ...(options.reachability ? await unreachableProblems(config) : []),
          ],
        }
      : {}),
  });
}

function checkConfigPath(file: string, given: string): void {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return; // loadConfig says "does not exist" with the hint to run init
  }
  if (stat.isDirectory()) {
    const inside = resolve(file, DEFAULT_CONFIG);
    throw new UsageError(
      `--config ${given}: is a directory, expected a YAML file${existsSync(inside) ? ` (did you mean ${given.replace(/\/+$/, '')}/${DEFAULT_CONFIG}?)` : ''}`,
    );
  }
}

/**
 * `run --baseline PATH` takes stored results. A mode name there (the old meaning of the flag)
 * would only fail after the whole benchmark, so it is refused before the load.
 */
export function checkBaselinePath(value: string | undefined, config: Config, cwd: string): void {
  if (value === undefined) return;
  // A remote store is read after the load (an unreachable one skips the comparison, exit 3);
  // a local path, or a file:// URL, is checked now.
  const local = /^file:\/\//i.test(value) ? fileUrlPath(value) : value;
  if (local === undefined || existsSync(resolve(cwd, local))) return;
  if (local === value && /^([a-z][a-z0-9+.-]*:\/\/|[^/\\\s]+@[^/\\\s:]+:)/i.test(value)) return;
  const isMode = config.modes.some((m) => m.name === value);
  throw new UsageError(
    `--baseline ${redactText(value)}: no such file or folder; --baseline takes stored results (a results.json, a run folder, a folder of them, or a store: a git URL or repository)` +
      (isMode ? `. To choose the mode overheads are computed against, use --baseline-mode ${value}` : ''),
  );
}

function fileUrlPath(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
