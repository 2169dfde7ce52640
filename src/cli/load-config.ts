// How the commands that read mesh-perf.yaml find it, and the checks `plan` and `run` make before
// any load starts: files the config names exist, rates fit this machine, --baseline is stored
// results and not a mode name. Every problem names the flag, file or preset it came from.
import { existsSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { loadConfig } from '../config/load.ts';
import type { Config, ConfigProblem } from '../config/validate.ts';
import { rateCeiling, K6_CPU_SECONDS_PER_REQUEST } from '../load/ceiling.ts';
import { UsageError } from '../util/errors.ts';
import type { CommandContext } from './command.ts';
import { overrideValues } from './override-options.ts';

export const DEFAULT_CONFIG = 'mesh-perf.yaml';

export interface LoadOptions {
  /** Run the pre-load checks (plan, run, calibrate). */
  preflight?: boolean;
}

export async function loadCommandConfig(context: CommandContext, options: LoadOptions = {}): Promise<Config> {
  const given = context.args.options.config;
  const label = given ?? DEFAULT_CONFIG;
  const file = resolve(context.cwd, label);
  // With --preset and no mesh-perf.yaml here, the preset alone is the config.
  const useFile = given !== undefined || existsSync(file) || context.args.options.preset === undefined;
  if (useFile && given !== undefined) checkConfigPath(file, given);
  return loadConfig({
    ...(useFile ? { file, fileLabel: label } : {}),
    overrides: overrideValues(context.args),
    signal: context.signal,
    ...(options.preflight ? { check: (config: Config) => preflightProblems(config, context.cwd) } : {}),
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
    throw new UsageError(`--config ${given}: is a directory, expected a YAML file${existsSync(inside) ? ` (did you mean ${given.replace(/\/+$/, '')}/${DEFAULT_CONFIG}?)` : ''}`);
  }
}

/** What can be known before load: pure config checks live in src/config; these need the machine. */
export function preflightProblems(config: Config, cwd: string, cores = cpus().length): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.profiles.forEach((profile, i) => {
    const at = config.profiles.length > 1 ? `load[${i}]` : 'load';
    if (profile.script !== undefined) {
      const path = isAbsolute(profile.script) ? profile.script : resolve(cwd, profile.script);
      const kind = fileKind(path);
      if (kind !== 'file') problems.push({ path: `${at}.script`, message: `${kind === 'missing' ? 'does not exist' : 'is a directory, expected a k6 script file'}: ${JSON.stringify(profile.script)} (resolved to ${path})` });
    }
    // k6 runs on this machine for local and endpoints; in the cluster for kind/kubeconfig.
    if ((config.platform === 'local' || config.platform === 'endpoints') && profile.model === 'open' && profile.rate !== undefined) {
      const shares = config.platform === 'local';
      const ceiling = rateCeiling(cores, shares);
      if (profile.rate > ceiling) {
        problems.push({
          path: `${at}.rate`,
          message:
            `${profile.rate} rps is above what one k6 process can hold on this machine: k6 spends ~${K6_CPU_SECONDS_PER_REQUEST * 1e6} µs of CPU per request and needs 20% idle, ` +
            `so ${cores} core${cores === 1 ? '' : 's'}${shares ? ' shared with the local servers' : ''} hold at most ${ceiling} rps (platform kind/kubeconfig runs k6 in the cluster)`,
        });
      }
    }
  });
  const kubeconfig = config.kubernetes?.kubeconfig;
  if (config.platform === 'kubeconfig' && typeof kubeconfig === 'string' && fileKind(resolve(cwd, kubeconfig)) !== 'file') {
    problems.push({ path: 'kubernetes.kubeconfig', message: `is not a readable file: ${JSON.stringify(kubeconfig)}` });
  }
  return problems;
}

function fileKind(path: string): 'file' | 'directory' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/**
 * `run --baseline PATH` takes stored results. A mode name there (the old meaning of the flag)
 * would only fail after the whole benchmark, so it is refused before the load.
 */
export function checkBaselinePath(value: string | undefined, config: Config, cwd: string): void {
  if (value === undefined) return;
  if (existsSync(resolve(cwd, value)) || /^(https?:|git@|ssh:)/.test(value)) return;
  const isMode = config.modes.some((m) => m.name === value);
  throw new UsageError(
    `--baseline ${value}: no such file or folder; --baseline takes stored results (a results.json, a run folder, a folder of them, or a store)` +
      (isMode ? `. To choose the mode overheads are computed against, use --baseline-mode ${value}` : ''),
  );
}
