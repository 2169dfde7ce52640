// Gates section of the config. Expressions are validated by the analysis stage's parser.
import { z } from 'zod';

export const regressionSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    statistics: z.array(z.enum(['p50', 'p90', 'p95', 'p99', 'max', 'mean'])).default(['p50']),
    minEffectPct: z.number().min(0).default(5).describe('practical minimum regression, percent'),
    minEffectMs: z.number().min(0).default(0.05).describe('practical minimum regression, milliseconds'),
    window: z.number().int().positive().default(10).describe('past runs from the base branch to compare with'),
    alpha: z.number().gt(0).lt(0.5).default(0.05),
    confirm: z.boolean().default(true).describe('re-run affected modes once before failing'),
  })
  .default({ enabled: true, statistics: ['p50'], minEffectPct: 5, minEffectMs: 0.05, window: 10, alpha: 0.05, confirm: true });

export const gatesSchema = z
  .strictObject({
    thresholds: z
      .array(z.string())
      .default([])
      .describe('absolute thresholds, k6 style: "p(95) < 250ms", "error_rate < 1%", "mode=linkerd: p(99) < 5ms"'),
    overhead: z.array(z.string()).default([]).describe('budgets against the baseline mode: "overhead.p99 < 2ms", "overhead_ratio.p90 < 1.5"'),
    regression: regressionSchema,
  })
  .default({
    thresholds: [],
    overhead: [],
    regression: { enabled: true, statistics: ['p50'], minEffectPct: 5, minEffectMs: 0.05, window: 10, alpha: 0.05, confirm: true },
  });
