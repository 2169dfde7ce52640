// Confirm section: whether a change point the daily series raises is confirmed by a same-run A/B of
// the settings of the runs before and after it (mesh-perf confirm; docs/confirm.md), how many such
// runs a day may cost, and how long each may take.
import { z } from 'zod';
import { atMost, duration } from '../bounded.ts';

export const CONFIRM_DEFAULTS = { changePoints: 'off' as const, perDay: 1, maxDuration: '12m', maxBisectRuns: 3 };

export const confirmSchema = z
  .strictObject({
    changePoints: z
      .enum(['off', 'on', 'required'])
      .default(CONFIRM_DEFAULTS.changePoints)
      .describe(
        "a change point raised on publish: off (not confirmed), on (mesh-perf confirm and the daily workflow's confirm job confirm it; gates.changePoint decides at publish as before), required (gates.changePoint waits for the verdict: it fails on confirmed, passes on withdrawn or environment, and fails on anything that leaves the alert standing)",
      ),
    perDay: z
      .number()
      .int()
      .min(0)
      .max(24, atMost('confirm.perDay', 24))
      .default(CONFIRM_DEFAULTS.perDay)
      .describe(
        'confirmations a suite may run per day (each a few minutes of load on the runner; verdicts reached without load do not count); 0 runs none',
      ),
    maxDuration: duration('confirm.maxDuration')
      .default(CONFIRM_DEFAULTS.maxDuration)
      .describe("load time each of a confirmation's runs may spend (its plan.budget.maxDuration)"),
    duration: duration('confirm.duration')
      .optional()
      .describe("measured time of each repetition of a confirmation's runs (default the A/B gate's, 6s)"),
    warmup: duration('confirm.warmup')
      .optional()
      .describe("warm-up of each repetition of a confirmation's runs (default the A/B gate's, 2s)"),
    maxBisectRuns: z
      .number()
      .int()
      .min(0)
      .max(8, atMost('confirm.maxBisectRuns', 8))
      .default(CONFIRM_DEFAULTS.maxBisectRuns)
      .describe('runs after a confirmed A/B that narrow several differing settings to the one that moved the series (each halves them)'),
  })
  .prefault({})
  .describe('confirming change points: a same-run A/B of the settings of the runs before and after a step (mesh-perf confirm)');
