// Three runs judged against the same five stored runs, one per verdict a regression gate gives:
// pass (no change), inconclusive (+5%: the rank test over repetitions says p = 0.017, the run-to-run
// test over the stored runs p = 0.187, as in issue 54), fail (+25%). Analysed and worded by the
// code under test at each run, so their lines are today's words (test/report/verdict-lines.test.ts).
// Synthetic levels, not measurements (test/analysis/synthetic.ts); the analysis is seeded.
import { analyzeWorded, syntheticRun, testConfig } from '../../analysis/synthetic.ts';
import type { RunResult } from '../../../src/results/types.ts';

const BASELINE = [1, 1.01, 0.99, 1, 1.02];
const SIDECAR = [1.5, 1.52, 1.49, 1.51, 1.5];

export const VERDICT_CASES = { pass: 1, inconclusive: 1.05, fail: 1.25 } as const;
export type VerdictCase = keyof typeof VERDICT_CASES;

const config = testConfig(
  // A threshold beside the regression gate: its figure is the run's own, the regression's is against the stored runs.
  { gates: { thresholds: ['p(50) < 10ms'], regression: { enabled: true, confirm: false } } },
  ['baseline', 'sidecar'],
);

/** Five stored runs of the same scenario, the sidecar's ratio to the baseline moving by up to 5% from job to job. */
function references(): RunResult[] {
  return [1, 1.04, 0.97, 1.06, 0.98].map((job, i) =>
    syntheticRun({
      id: `20260101T00000${i}Z-reference${i}`,
      startedAt: `2026-01-0${i + 1}T00:00:00.000Z`,
      config,
      levels: { baseline: BASELINE.map((x) => x * job), sidecar: SIDECAR.map((x) => x * job * (1 + 0.05 * (i % 2))) },
    }),
  );
}

/** The run of one case, analysed against the stored runs as `mesh-perf run` would. */
export function verdictRun(name: VerdictCase): RunResult {
  const run = syntheticRun({
    id: `20260110T000000Z-${name}`,
    startedAt: '2026-01-10T00:00:00.000Z',
    config,
    levels: { baseline: BASELINE, sidecar: SIDECAR.map((x) => x * VERDICT_CASES[name]) },
  });
  const analysis = analyzeWorded(run, { config, reference: references() });
  return { ...run, analysis, verdict: analysis.verdict, verdictReasons: analysis.verdictReasons };
}
