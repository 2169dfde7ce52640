// Which engine sends each profile's arrivals, decided once per run after the platform has
// prepared (the load runner then knows its k6): mesh-perf's pacer extension (k6/http-pacer.js)
// for an open-model HTTP profile when that k6 has the pinned pacer, else k6's arrival-rate
// executor (k6/http.js), as load.pacer says:
//   auto (default)  the pacer when the k6 has it; otherwise k6's executor, said once;
//   on              the pacer, or exit 3 naming the k6 and how to get the pinned one;
//   off             k6's executor (to compare with results measured before the pacer, or k6 itself).
// Closed-model, gRPC and a user's own scripts always run on k6's executors.
import type { LoadProfile } from '../config/validate.ts';
import { EnvironmentError } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { type ArrivalEngine, PACER_VERSION, pacedProfile } from './pacer-params.ts';
import type { LoadRunner } from './types.ts';

export interface EngineChoice {
  /** Per profile name. */
  engines: ReadonlyMap<string, ArrivalEngine>;
  /** The pacer's version when some profile uses it, for the results' tools. */
  pacerVersion?: string;
}

const HOW_TO_GET =
  'unset K6_PATH so mesh-perf uses its pinned k6, which has the pacer (downloaded, or built from k6ext/ where Go is installed: scripts/install-test-tools.sh k6-pacer)';

export async function chooseArrivalEngines(
  profiles: readonly Pick<LoadProfile, 'name' | 'protocol' | 'model' | 'rate' | 'script' | 'pacer'>[],
  runner: Pick<LoadRunner, 'pacer'>,
  log: Pick<Logger, 'warn'>,
): Promise<EngineChoice> {
  const wanting = profiles.filter((p) => pacedProfile(p) && p.pacer !== 'off');
  const engines = new Map<string, ArrivalEngine>(profiles.map((p) => [p.name, 'arrival-rate']));
  if (wanting.length === 0) return { engines };
  // A runner that cannot run the pacer at all has no k6 to change: k6's executor, unsaid (on still refuses).
  const found = runner.pacer ? await runner.pacer() : { version: undefined, where: "this platform's k6", silent: true };
  if (found.version === PACER_VERSION) {
    for (const p of wanting) engines.set(p.name, 'pacer');
    return { engines, pacerVersion: found.version };
  }
  const lacks = found.version
    ? `${found.where} has mesh-perf's pacer ${found.version}, and this mesh-perf needs ${PACER_VERSION}`
    : `${found.where} is a k6 without mesh-perf's pacer (k6/x/meshperf)`;
  const required = wanting.filter((p) => p.pacer === 'on');
  if (required.length > 0)
    throw new EnvironmentError(
      `load.pacer is "on" (profile${required.length === 1 ? '' : 's'} ${required.map((p) => `"${p.name}"`).join(', ')}), but ${lacks}: ${HOW_TO_GET}; or set load.pacer: auto to run on k6's arrival-rate executor`,
    );
  if (!('silent' in found))
    log.warn(
      `${lacks}: the open-model HTTP profiles run on k6's arrival-rate executor, whose own p99 is well above vegeta's at 2,000 rps and more (docs/fidelity.md); for the pacer, ${HOW_TO_GET}`,
    );
  return { engines };
}
