// zod description of the analysis block, for src/results/schema.ts (results.json's JSON Schema).
// Compile-time checks at the bottom keep it equal to the types in ./types.ts.
import { z } from 'zod';
import { METRIC_IDS } from './metric-ids.ts';
import type { Analysis } from './analysis.ts';

const metric = z.enum(METRIC_IDS);
const unit = z.enum(['ms', 'rps', 'fraction', 'millicores', 'MiB']);
const interval = z.object({ low: z.number(), high: z.number(), level: z.number() });
const estimate = z.object({ value: z.number(), ci: interval.optional() });
const nullableNumber = z.number().nullable();

const statistic = z.object({
  metric,
  unit,
  n: z.number().int(),
  median: z.number(),
  ci: interval.optional(),
  cv: z.number().optional(),
  mde: nullableNumber.optional().describe('relative MDE at 80% power; null: no change detectable with these repetitions'),
  pooled: z.number().optional(),
});

const modeSummary = z.object({
  mode: z.string(),
  profile: z.string(),
  repetitions: z.number().int(),
  valid: z.number().int(),
  invalid: z.number().int(),
  rounds: z.array(z.object({ round: z.number().int(), valid: z.number().int(), invalid: z.number().int() })),
  statistics: z.partialRecord(metric, statistic),
});

const overhead = z.object({
  mode: z.string(),
  profile: z.string(),
  baseline: z.string(),
  metric,
  unit,
  pairs: z.number().int(),
  paired: z.boolean(),
  difference: estimate,
  ratio: estimate.optional(),
  mde: z.object({ difference: nullableNumber, relative: nullableNumber }).optional(),
});

const mannWhitney = z.object({
  u: z.number(),
  p: z.number(),
  method: z.enum(['exact', 'exact-permutation', 'normal']),
  minimumP: z.number(),
});

const roundEvidence = z.object({
  round: z.union([z.number().int(), z.literal('pooled')]),
  n: z.number().int(),
  change: estimate,
  changeAbsolute: z.number(),
  changeBound: z.number().optional(),
  p: z.number(),
  significant: z.boolean(),
  practical: z.boolean(),
});

const evidence = z.object({
  basis: z.enum(['absolute', 'relative']),
  candidate: estimate,
  reference: z.object({ runIds: z.array(z.string()), values: z.number().int(), median: estimate }),
  change: estimate,
  changeAbsolute: z.number(),
  changeBound: z.number().optional(),
  mannWhitney,
  runToRun: z.object({ runs: z.number().int(), spread: z.number(), t: nullableNumber, p: z.number() }).optional(),
  jobToJob: z
    .object({ runs: z.number().int(), tau: nullableNumber, targetSe: z.number(), supportsTargets: z.boolean().nullable() })
    .optional()
    .describe('job-to-job spread τ of the stored runs, included in the pass bound'),
  significant: z.boolean(),
  practical: z.boolean(),
  rounds: z.array(roundEvidence).optional(),
});

const abGate = z.object({
  mode: z.string(),
  profile: z.string(),
  statistic: metric,
  pairs: z.number().int(),
  estimator: z.enum(['hodges-lehmann', 'trimmed-mean', 'paired-t']),
  change: z.object({ value: z.number(), low: z.number(), high: z.number(), level: z.number() }),
  upperBound: z.number(),
  p: z.number(),
  nominalAlpha: z.number(),
  baseMs: z.number(),
  headMs: z.number(),
  differenceMs: z.number(),
  minEffect: z.number(),
  minEffectMs: z.number(),
  minimum: z.number(),
  decision: z.enum(['pass', 'fail', 'inconclusive']),
  reason: z.enum(['slower', 'within-minimum', 'budget-spent', 'run-stopped', 'too-few-blocks', 'arm-invalid', 'continue']),
  look: z.number().int(),
  looks: z.number().int(),
  family: z.number().int().optional().describe('A/B gates of the run sharing its alpha (Holm)'),
  alphaShare: z.number().optional().describe("share of the run's alpha this gate spent at this look"),
  dependence: z.number().optional().describe('variance factor for dependent blocks (1: independent)'),
  blocksToSettle: nullableNumber.optional(),
  mde: nullableNumber,
  spread: z.number(),
  perBlock: z.array(z.object({ block: z.number().int(), ratio: z.number() })),
});

const stopping = z.object({
  reason: z.enum(['decided', 'gate-failed', 'budget-blocks', 'budget-time', 'fixed', 'cancelled', 'invalid']),
  blocks: z.number().int(),
  look: z.number().int(),
  looks: z.array(z.number().int()),
  plannedLooks: z.array(z.number().int()).optional().describe('the looks as planned, when the measured pace moved them'),
  elapsedS: z.number(),
});

const gate = z.object({
  kind: z.enum(['threshold', 'overhead', 'regression', 'ab']),
  gate: z.string(),
  mode: z.string(),
  profile: z.string(),
  metric,
  measure: z.enum(['value', 'fraction-of-target', 'difference', 'relative', 'ratio', 'change']),
  unit: z.enum(['ms', 'rps', 'fraction', 'millicores', 'MiB', 'ratio', 'relative']),
  value: estimate.optional(),
  threshold: z.string(),
  decision: z.enum(['pass', 'fail', 'inconclusive', 'skipped']),
  marginal: z.boolean().optional(),
  mde: nullableNumber.optional(),
  mdeAbsolute: nullableNumber.optional(),
  evidence: evidence.optional(),
  pendingConfirmation: z.boolean().optional(),
  reportOnly: z.boolean().optional(),
  repetitionsToSettle: nullableNumber
    .optional()
    .describe('inconclusive gates: repetitions per side that would settle the question (null: no number would, with this noise)'),
  line: z.string().describe('the verdict line: metric, value with CI, reference, threshold, decision, MDE'),
  note: z.string().optional(),
});

export const analysisSchema = z
  .object({
    version: z.literal(1),
    seed: z.number(),
    level: z.number(),
    alpha: z.number(),
    resamples: z.number().int(),
    baseline: z.string(),
    rounds: z.array(z.number().int()),
    summaries: z.array(modeSummary),
    overheads: z.array(overhead),
    gates: z.array(gate),
    verdict: z.enum(['pass', 'fail', 'inconclusive', 'invalid']),
    verdictReasons: z.array(z.string()),
    modesToExtend: z.array(z.string()).describe('modes that need more blocks at the next look; empty: stop'),
    ab: z
      .object({ gates: z.array(abGate) })
      .optional()
      .describe('head against base, per mode with arms'),
    stopping: stopping.optional().describe('how measuring stopped: blocks, the look, why'),
    reference: z.object({ runIds: z.array(z.string()), excluded: z.array(z.object({ runId: z.string(), reason: z.string() })) }).optional(),
    detectability: z.array(z.string()),
    notes: z.array(z.string()),
  })
  .describe('statistics over repetitions, overheads against the baseline, and every gate decision with its evidence');

// Compile-time drift checks between the schema and the TypeScript types.
type SchemaAnalysis = z.infer<typeof analysisSchema>;
((a: Analysis): SchemaAnalysis => a) satisfies unknown;
((a: SchemaAnalysis): Analysis => a) satisfies unknown;
