// Cross-field check of load.generators on platform kind: N k6 client pods per mode need a node
// each and the echo server one more (required anti-affinity, src/platform/kubernetes/clients.ts),
// and the kind cluster mesh-perf creates has exactly kubernetes.kind.workers schedulable nodes, so
// the config alone decides whether the pods can ever fit (exit 2; a cluster of your own that is
// too small is found when the run reads its nodes, exit 3). Pure.
import type { ParsedConfig } from './schema.ts';
import type { ConfigProblem } from './problem.ts';

export function kindGeneratorProblems(config: ParsedConfig): ConfigProblem[] {
  if (config.platform !== 'kind') return [];
  const workers = config.kubernetes.kind.workers;
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  let most = 1;
  let at = 'load';
  profiles.forEach((profile, i) => {
    if (typeof profile.generators === 'number' && profile.generators > most) {
      most = profile.generators;
      at = Array.isArray(config.load) ? `load[${i}]` : 'load';
    }
  });
  if (most + 1 <= workers) return [];
  const need = `${most} client pods on separate nodes and one more node for the echo server need ${most + 1} kind workers`;
  if (most + 1 > MAX_WORKERS)
    return [
      {
        path: `${at}.generators`,
        message: `${most} is more than a kind cluster can hold: ${need}, and kubernetes.kind.workers is at most ${MAX_WORKERS}; expected at most ${MAX_WORKERS - 1}, or use platform kubeconfig with a larger cluster`,
      },
    ];
  return [
    {
      path: 'kubernetes.kind.workers',
      message: `${workers} cannot hold ${at}.generators ${most}: ${need}; set kubernetes.kind.workers: ${most + 1}`,
    },
  ];
}

/** kubernetes.kind.workers' maximum (sections/kubernetes.ts). */
const MAX_WORKERS = 6;
