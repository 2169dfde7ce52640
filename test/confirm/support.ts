// Runs as a history store keeps them, for the confirmation tests: a results file with the stored
// form of a validated config (what results.json's `config` holds) and what its provenance recorded.
import { publicConfig } from '../../src/config/public.ts';
import { validateConfig } from '../../src/config/validate.ts';
import type { ChangePointRef } from '../../src/confirm/record.ts';
import type { RunResult } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';

export function storedRun(
  raw: Record<string, unknown>,
  extra: { id?: string; provenance?: RunResult['run']['provenance']; tools?: Record<string, string> } = {},
): RunResult {
  const result = buildRunResult({ suite: 'daily', ...(extra.id ? { id: extra.id } : {}) });
  const config = publicConfig(validateConfig({ load: { rate: 100, duration: '1s', warmup: '0s' }, ...raw }));
  return {
    ...result,
    config,
    baseline: String(config.baseline),
    run: {
      ...result.run,
      tools: { ...result.run.tools, ...extra.tools },
      provenance: extra.provenance ?? { settings: {} },
    },
  };
}

/** A raised change point of mode `mode` between runs b and a, its segments' medians given. */
export function changePoint(
  mode: string,
  metric = 'p50',
  medians: [number, number] = [20, 22],
  profile = '200rps',
): ChangePointRef & { afterStartedAt: string } {
  return {
    branch: 'main',
    profile,
    mode,
    metric,
    before: 'b',
    after: 'a',
    afterStartedAt: '2026-11-10T03:00:00.000Z',
    size: medians[1] / medians[0] - 1,
    segments: [{ median: medians[0] }, { median: medians[1] }],
  };
}
