// load.engine: where k6 runs on the Kubernetes platforms. k6-operator needs a cluster, and one
// run uses one engine (the platform builds one load runner). load.pacer: "on" only where the
// pacer can send the arrivals (load/pacer-choice.ts). Pure.
import type { LoadProfileConfig, ParsedConfig } from './schema.ts';
import type { ConfigProblem } from './problem.ts';

export type LoadEngine = LoadProfileConfig['engine'];

export function engineProblems(config: ParsedConfig): ConfigProblem[] {
  const list = Array.isArray(config.load);
  const profiles: LoadProfileConfig[] = Array.isArray(config.load) ? config.load : [config.load];
  const at = (i: number) => (list ? `load[${i}]` : 'load');
  const problems: ConfigProblem[] = [];
  const first = profiles[0]?.engine ?? 'k6';
  profiles.forEach((profile, i) => {
    if (profile.engine !== first)
      problems.push({
        path: `${at(i)}.engine`,
        message: `every load profile of a run uses the same engine: load[0] uses "${first}", got "${profile.engine}"`,
      });
    if (profile.engine === 'k6-operator' && config.platform !== 'kind' && config.platform !== 'kubeconfig')
      problems.push({
        path: `${at(i)}.engine`,
        message: `"k6-operator" runs k6 as k6-operator TestRuns in a cluster: use platform kind or kubeconfig, or engine "k6" (got platform "${config.platform}")`,
      });
    const unpaceable =
      profile.script !== undefined
        ? `a script of your own (load.script ${JSON.stringify(profile.script)}) runs as written`
        : profile.protocol !== 'http'
          ? `${profile.protocol} calls run on k6's own client`
          : profile.model !== 'open'
            ? "a closed model runs on k6's constant-vus executor"
            : undefined;
    if (profile.pacer === 'on' && unpaceable)
      problems.push({
        path: `${at(i)}.pacer`,
        message: `"on" requires the pacer, which sends open-model HTTP arrivals only: ${unpaceable}; use "auto" or leave it out`,
      });
    if (profile.engine === 'k6-operator' && profile.script !== undefined)
      problems.push({
        path: `${at(i)}.engine`,
        message: `"k6-operator" runs the built-in load script; a script of your own (load.script ${JSON.stringify(profile.script)}) needs engine "k6" on the local or endpoints platform`,
      });
  });
  return problems;
}

/** The run's engine (validation made every profile agree). */
export function loadEngineOf(profiles: readonly { engine: LoadEngine }[]): LoadEngine {
  return profiles[0]?.engine ?? 'k6';
}
