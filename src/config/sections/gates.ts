// Gates section of the config. Expressions are validated by the analysis stage's parser.
import { z } from 'zod';
import { parseGateExpression } from '../../gates/expression.ts';

/** A gate expression string, parsed at config time so a typo fails before any load runs. */
const gateExpression = z.string().superRefine((text, ctx) => {
  const parsed = parseGateExpression(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
});

export const regressionSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    statistics: z.array(z.enum(['p50', 'p90', 'p95', 'p99', 'max', 'mean'])).default(['p50']),
    minEffectPct: z.number().min(0).default(5).describe('practical minimum regression, percent'),
    minEffectMs: z.number().min(0).default(0.05).describe('practical minimum regression, milliseconds'),
    window: z.number().int().positive().default(10).describe('past runs from the base branch to compare with'),
    alpha: z.number().gt(0).lt(0.5).default(0.05),
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
  .default({
    enabled: true,
    statistics: ['p50'],
    minEffectPct: 5,
    minEffectMs: 0.05,
    window: 10,
    alpha: 0.05,
    confirm: true,
    basis: 'auto',
    inconclusive: 'warn',
  });

export const gatesSchema = z
  .strictObject({
    thresholds: z
      .array(gateExpression)
      .default([])
      .describe('absolute thresholds, k6 style: "p(95) < 250ms", "error_rate < 1%", "mode=linkerd: p(99) < 5ms"'),
    overhead: z
      .array(gateExpression)
      .default([])
      .describe('budgets against the baseline mode: "overhead.p99 < 2ms", "overhead_ratio.p90 < 1.5"'),
    regression: regressionSchema,
    changePoint: z
      .enum(['off', 'warn', 'fail'])
      .default('warn')
      .describe(
        'on publish: a new change point at the newest runs of a series that is a slowdown of at least regression.minEffectPct: warn (a line and a warning, exit 0), fail (exit 1) or off',
      ),
  })
  .default({
    thresholds: [],
    overhead: [],
    regression: {
      enabled: true,
      statistics: ['p50'],
      minEffectPct: 5,
      minEffectMs: 0.05,
      window: 10,
      alpha: 0.05,
      confirm: true,
      basis: 'auto',
      inconclusive: 'warn',
    },
    changePoint: 'warn',
  });
