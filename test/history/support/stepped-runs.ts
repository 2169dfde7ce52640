// Daily runs with a known step, for the change-point tests: istio-sidecar 30% slower from run
// STEP_AT on, when Istio goes from 1.29.2 to 1.30.0 (istiod's image with it); the baseline unchanged.
import type { RunResult } from '../../../src/results/types.ts';
import { buildDailyRuns } from '../../support/results-fixture.ts';

export const STEP_AT = 30;

/** Daily runs where istio-sidecar gets 30% slower from run STEP_AT on, when Istio is upgraded. */
export function steppedRuns(count: number): RunResult[] {
  return buildDailyRuns(count, { suite: 'nightly', modes: ['baseline', 'istio-sidecar'] }).map((r, i) => {
    const after = i >= STEP_AT;
    const factor = after ? 1.3 : 1;
    return {
      ...r,
      run: {
        ...r.run,
        environment: { kubernetes: { version: 'v1.31.2' }, meshes: { istio: { version: after ? '1.30.0' : '1.29.2' } } },
        // What ran, as a v7 run records it: istiod's image moves with the upgrade, k6's binary does not.
        provenance: {
          k6: { sha256: 'c'.repeat(64), source: 'tool cache' },
          images: { 'istiod/discovery': `docker.io/istio/pilot@sha256:${(after ? '2' : '1').repeat(64)}` },
          settings: {},
        },
      },
      modes: r.modes.map((m) =>
        m.name !== 'istio-sidecar'
          ? m
          : {
              ...m,
              repetitions: m.repetitions.map((rep) => ({
                ...rep,
                latencyMs: rep.latencyMs && {
                  ...rep.latencyMs,
                  ...Object.fromEntries(
                    ['min', 'mean', 'p50', 'p75', 'p90', 'p95', 'p99', 'p999', 'max'].map((k) => [
                      k,
                      (rep.latencyMs as unknown as Record<string, number>)[k]! * factor,
                    ]),
                  ),
                },
              })),
            },
      ),
    } as RunResult;
  });
}
