// Checks `plan`, `run` and the action make once the config is valid and before any load: files the
// config names exist, and open-model rates fit what k6 holds on this machine. Not pure
// (the file system, the CPU count); the pure checks live in validate.ts and applicability.ts.
import { statSync } from 'node:fs';
import { cpus } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { ceilingProblem, chooseGenerators, type GeneratorCapacity, type GeneratorChoice, machineCapacity } from './ceiling.ts';
import type { Config, ConfigProblem } from '../config/validate.ts';

/** What can be known before load: pure config checks live in src/config; these need the machine. */
export function preflightProblems(config: Config, cwd: string, cores = cpus().length): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.profiles.forEach((profile, i) => {
    const at = config.profiles.length > 1 ? `load[${i}]` : 'load';
    if (profile.script !== undefined) {
      const path = isAbsolute(profile.script) ? profile.script : resolve(cwd, profile.script);
      const kind = fileKind(path);
      if (kind !== 'file')
        problems.push({
          path: `${at}.script`,
          message: `${kind === 'missing' ? 'does not exist' : 'is a directory, expected a k6 script file'}: ${JSON.stringify(profile.script)} (resolved to ${path})`,
        });
    }
    // k6 runs on this machine for local and endpoints; in the cluster for kind/kubeconfig.
    if (config.platform === 'local' || config.platform === 'endpoints') {
      const problem = ceilingProblem(profile, cores, config.platform === 'local');
      if (problem) problems.push({ path: `${at}.rate`, message: `${profile.rate} rps ${problem}` });
    }
  });
  // A mode's (an arm's) own server manifests, checked once per file.
  const checked = new Set<string>();
  for (const mode of config.modes) {
    const file = mode.serverManifests;
    if (file === undefined || checked.has(file)) continue;
    checked.add(file);
    const kind = fileKind(resolve(cwd, file));
    if (kind !== 'file')
      problems.push({
        path: `modes (${mode.name}).serverManifests`,
        message: `${kind === 'missing' ? 'does not exist' : 'is a directory, expected a YAML file'}: ${JSON.stringify(file)} (resolved to ${resolve(cwd, file)})`,
      });
  }
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

/** Where k6 instances run for this config: this machine for local and endpoints; undefined in a cluster (its platform knows). */
export function generatorCapacity(config: Config, cores = cpus().length): GeneratorCapacity | undefined {
  if (config.platform !== 'local' && config.platform !== 'endpoints') return undefined;
  return machineCapacity(cores, config.platform === 'local');
}

/**
 * How many k6 instances each profile runs as, and why, for `plan`; undefined when every profile
 * runs as one process (load.generators 1, the default).
 */
export function generatorChoices(
  config: Config,
  capacity = generatorCapacity(config),
): { profile: string; choice: GeneratorChoice }[] | undefined {
  if (config.profiles.every((p) => p.generators === 1)) return undefined;
  return config.profiles.map((profile) => ({ profile: profile.name, choice: chooseGenerators(profile, capacity) }));
}
