// The analysis block as written to results.json validates against its zod schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analysisSchema } from '../../src/results/analysis-schema.ts';
import { seededRandom } from '../../src/util/random.ts';
import { analyzeWorded, drawLevels, syntheticRun, testConfig } from './synthetic.ts';

test('analyses with thresholds, overheads, skipped gates, regression rounds and exclusions validate after a JSON round trip', () => {
  const random = seededRandom(12);
  const config = testConfig({
    gates: { thresholds: ['p(95) < 3ms', 'cpu_per_1000rps < 100m', 'achieved_rps >= 99%'], overhead: ['overhead_ratio.p90 < 1.5'] },
  });
  const reference = Array.from({ length: 4 }, (_, i) =>
    syntheticRun({
      config,
      id: `p${i}`,
      runnerClass: i === 3 ? 'other' : undefined,
      levels: { baseline: drawLevels(random, 5, 1, 0.03), sidecar: drawLevels(random, 5, 1.3, 0.03) },
    }),
  );
  const candidate = syntheticRun({
    config,
    levels: { baseline: drawLevels(random, 5, 1, 0.03), sidecar: drawLevels(random, 5, 1.6, 0.03) },
    round2: { baseline: drawLevels(random, 5, 1, 0.03), sidecar: drawLevels(random, 5, 1.6, 0.03) },
  });
  const analysis = analyzeWorded(candidate, { config, reference });
  assert.ok(
    analysis.gates.some((g) => g.evidence?.rounds) &&
      analysis.gates.some((g) => g.decision === 'skipped') &&
      analysis.reference!.excluded.length > 0,
  );
  const parsed = analysisSchema.safeParse(JSON.parse(JSON.stringify(analysis)));
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3)));
  const few = analyzeWorded(syntheticRun({ config, levels: { baseline: [1, 1.1], sidecar: [1.3, 1.4] } }), { config });
  assert.ok(analysisSchema.safeParse(JSON.parse(JSON.stringify(few))).success, 'null MDEs validate');
});
