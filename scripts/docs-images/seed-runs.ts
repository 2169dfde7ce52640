// The runs the dashboard picture is drawn from: 120 synthetic daily runs of one suite (seeded, so
// the same every time; test/support/results-fixture.ts builds them, as it does for the dashboard
// tests and benchmark), four modes at 1,000 rps, in which istio-sidecar becomes 18% slower from
// day 81 on: the step `mesh-perf publish` finds and the dashboard marks. Not measurements.
import type { RunResult } from '../../src/results/types.ts';
import { buildRunResult } from '../../test/support/results-fixture.ts';

export const SEED = { days: 120, stepDay: 80, stepFactor: 1.18, slowerMode: 'istio-sidecar' } as const;
const MODES = ['baseline', 'istio-ambient', 'istio-sidecar', 'linkerd'];

export function seededRuns(): RunResult[] {
  return Array.from({ length: SEED.days }, (_, day) => {
    const options = {
      suite: 'daily',
      seed: day + 1,
      startedAt: new Date(Date.UTC(2026, 6, 1, 3, 17) + day * 86_400_000),
      modes: MODES,
      profiles: ['1000rps'],
      repetitions: 5,
      durationS: 30,
    };
    const run = buildRunResult(options);
    if (day < SEED.stepDay) return run;
    // Only the one mode slows down: the same run drawn with every latency scaled, that mode taken from it.
    const slower = buildRunResult({ ...options, latencyFactor: SEED.stepFactor });
    return { ...run, modes: run.modes.map((m) => (m.name === SEED.slowerMode ? slower.modes.find((s) => s.name === m.name)! : m)) };
  });
}
