// Gates section of the config. Expressions are validated by the analysis stage's parser.
import { z } from 'zod';
import { atMost, text, tooMany } from '../bounded.ts';
import { LIMITS } from '../limits.ts';
import { parseGateExpression } from '../../gates/expression.ts';

/** A gate expression string, parsed at config time so a typo fails before any load runs. */
const gateExpression = text('a gate expression', LIMITS.gate).superRefine((text, ctx) => {
  const parsed = parseGateExpression(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
});

export const regressionSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe('compare each mode with the stored runs of the base branch'),
    statistics: z
      .array(z.enum(['p50', 'p90', 'p95', 'p99', 'max', 'mean']))
      .max(6, tooMany('statistics (there are 6)', 6))
      .default(['p50'])
      .describe('statistics judged against history, each from the repetitions'),
    minEffectPct: z
      .number()
      .min(0)
      .max(10_000, atMost('minEffectPct', 10_000, '%'))
      .default(5)
      .describe('practical minimum regression, percent'),
    minEffectMs: z
      .number()
      .min(0)
      .max(LIMITS.durationMs, atMost('minEffectMs', LIMITS.durationMs, ' (7 days)'))
      .default(0.05)
      .describe('practical minimum regression, milliseconds'),
    // Each past run is a results file read from the store.
    window: z
      .number()
      .int()
      .positive()
      .max(1000, atMost('window', 1000, ' past runs'))
      .default(10)
      .describe('past runs from the base branch to compare with'),
    alpha: z
      .number()
      .gt(0)
      .lt(0.5)
      .default(0.05)
      .describe('significance level of the one-sided Mann–Whitney test and the confidence bounds'),
    confirm: z.boolean().default(true).describe('re-run affected modes once before failing'),
    basis: z
      .enum(['auto', 'absolute', 'relative'])
      .default('auto')
      .describe(
        "auto: modes other than the baseline are compared as their ratio to the baseline of the same run (cancels runner drift), the baseline's own raw values are reported, not gated; absolute: every mode on raw values, all gated",
      ),
    inconclusive: z
      .enum(['warn', 'fail'])
      .default('warn')
      .describe(
        'a gate that could not decide with the repetitions it had (too few to reach alpha, or the change may reach the practical minimum without significance): warn exits 0 with a warning, fail exits 1',
      ),
  })
  // Every key's own default, written once above: the section absent parses as {}.
  .prefault({});

/**
 * The A/B gate's interval estimator over per-block log ratios. Hodges–Lehmann is the default by
 * measured coverage (bench/ab-gate, docs/methodology-statistics.md): the nearest to nominal with
 * and without outlier blocks; the 20 % trimmed mean under-covers by 1–2 points, the paired t
 * over-covers (and loses power) once 5 % of blocks are outliers.
 */
export const AB_ESTIMATORS = ['hodges-lehmann', 'trimmed-mean', 'paired-t'] as const;

const AB_DEFAULTS = {
  enabled: true,
  statistics: ['p50' as const],
  minEffectPct: 5,
  minEffectMs: 0.05,
  alpha: 0.01,
  confidence: 0.95,
  estimator: 'hodges-lehmann' as const,
  lookEvery: 10,
};

/** The statistics an A/B gate judges. */
export const AB_STATISTICS = ['p50', 'p90', 'p99'] as const;
export type AbStatistic = (typeof AB_STATISTICS)[number];

const minEffectPct = z
  .number()
  .min(0)
  .max(10_000, atMost('minEffectPct', 10_000, '%'));

/**
 * gates.ab: head against base measured side by side in the same run (modes[].arms). Per gated
 * statistic the per-block log(head ÷ base) is the estimate; fail = significantly slower at this
 * gate's share of the run's alpha (spent over the looks as α·t², shared by every A/B gate of the
 * run, Holm) and not shown under the practical minimum; pass = the upper bound (confidence, also
 * spent over the looks) under the practical minimum.
 */
export const abSchema = z
  .strictObject({
    enabled: z.boolean().default(AB_DEFAULTS.enabled).describe('judge the head arm against the base arm of every mode with arms'),
    statistics: z
      .array(z.enum(AB_STATISTICS))
      .min(1)
      .max(3, tooMany('statistics (there are 3)', 3))
      .default(AB_DEFAULTS.statistics)
      .describe('statistics judged head against base, each per block'),
    minEffectPct: z
      .union([
        minEffectPct,
        z.strictObject({
          p50: minEffectPct.optional().describe('practical minimum slowdown of the p50, percent (5 when unset)'),
          p90: minEffectPct.optional().describe('practical minimum slowdown of the p90, percent (5 when unset)'),
          p99: minEffectPct.optional().describe('practical minimum slowdown of the p99, percent (5 when unset)'),
        }),
      ])
      .default(AB_DEFAULTS.minEffectPct)
      .describe(
        'practical minimum slowdown, percent (a slowdown must exceed this and minEffectMs to matter); one for every statistic, or per statistic ({ p50: 5, p99: 30 }: a tail is noisier, mesh-perf plan says the smallest change the budget can decide), 5 where unset',
      ),
    minEffectMs: z
      .number()
      .min(0)
      .max(LIMITS.durationMs, atMost('minEffectMs', LIMITS.durationMs, ' (7 days)'))
      .default(AB_DEFAULTS.minEffectMs)
      .describe('practical minimum slowdown, milliseconds'),
    alpha: z
      .number()
      .gt(0)
      .lt(0.5)
      .default(AB_DEFAULTS.alpha)
      .describe(
        'false-alarm rate of the fail side, in total over all looks and every A/B gate of one run (Holm: each gate starts with alpha ÷ gates, a failed gate passes its share on)',
      ),
    confidence: z
      .number()
      .gt(0.5)
      .lt(1)
      .default(AB_DEFAULTS.confidence)
      .describe('confidence of the pass statement "slower by less than the practical minimum", over all looks'),
    estimator: z
      .enum(AB_ESTIMATORS)
      .default(AB_DEFAULTS.estimator)
      .describe(
        'interval of the per-block log ratios: Hodges–Lehmann (default, nearest its nominal coverage with and without outlier blocks), 20% trimmed mean, paired t',
      ),
    lookEvery: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.repetitions, atMost('lookEvery', LIMITS.repetitions, ' blocks (as load.repetitions)'))
      .default(AB_DEFAULTS.lookEvery)
      .describe('blocks between looks after the first'),
  })
  .default(AB_DEFAULTS);

export type AbGateSettings = z.infer<typeof abSchema>;

/** The practical minimum (percent) of one statistic: the single figure, or the statistic's own (5 where unset). */
export function minEffectPctOf(settings: Pick<AbGateSettings, 'minEffectPct'>, statistic: string): number {
  const value = settings.minEffectPct;
  if (typeof value === 'number') return value;
  return value[statistic as AbStatistic] ?? AB_DEFAULTS.minEffectPct;
}

export const gatesSchema = z
  .strictObject({
    thresholds: z
      .array(gateExpression)
      .max(LIMITS.entries, tooMany('threshold gates', LIMITS.entries))
      .default([])
      .describe('absolute thresholds, k6 style: "p(95) < 250ms", "error_rate < 1%", "mode=linkerd: p(99) < 5ms"'),
    overhead: z
      .array(gateExpression)
      .max(LIMITS.entries, tooMany('overhead gates', LIMITS.entries))
      .default([])
      .describe('budgets against the baseline mode: "overhead.p99 < 2ms", "overhead_ratio.p90 < 1.5"'),
    regression: regressionSchema.describe('regression gate: this run against the stored runs of the base branch (history)'),
    ab: abSchema.describe('A/B gate: the head arm against the base arm, per block, in the same run (modes[].arms)'),
    changePoint: z
      .enum(['off', 'warn', 'fail'])
      .default('warn')
      .describe(
        'on publish: a new change point at the newest runs of a series that is a slowdown of at least regression.minEffectPct: warn (a line and a warning, exit 0), fail (exit 1) or off',
      ),
  })
  .prefault({})
  .describe('what fails a run: thresholds, overhead budgets, the regression and A/B gates, change points');
