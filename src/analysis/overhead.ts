// Overhead of each mode against the baseline mode of the same run. Repetitions are paired by
// interleaved block (and round): both ran back to back on the same machine state, so drift
// of the runner cancels in each pair's difference and ratio.
import type { ModeResult, Repetition } from '../results/types.ts';
import { bootstrapInterval, bootstrapTwoSampleInterval, withCi } from './bootstrap.ts';
import { type AnalysisContext, streamFor } from './context.ts';
import { finiteOrNull, median, standardDeviation } from './descriptive.ts';
import { pairedMde } from './mde.ts';
import type { MetricId } from '../results/metric-ids.ts';
import { METRICS } from '../results/metrics.ts';
import { roundOf, validRepetitions } from './summary.ts';
import type { OverheadEstimate } from '../results/analysis.ts';

export interface BlockPair {
  round: number;
  block: number;
  mode: number;
  baseline: number;
}

/** Valid repetitions of both modes that share a (round, block), with the metric's values. */
export function pairByBlock(modeReps: readonly Repetition[], baselineReps: readonly Repetition[], metric: MetricId): BlockPair[] {
  const key = (r: Repetition) => `${roundOf(r)}/${r.block}`;
  const baselineByBlock = groupValues(baselineReps, metric, key);
  const modeByBlock = groupValues(modeReps, metric, key);
  const pairs: BlockPair[] = [];
  for (const [k, values] of modeByBlock) {
    const base = baselineByBlock.get(k);
    if (!base) continue;
    const [round, block] = k.split('/').map(Number) as [number, number];
    pairs.push({ round, block, mode: median(values), baseline: median(base) });
  }
  return pairs.sort((a, b) => a.round - b.round || a.block - b.block);
}

function groupValues(reps: readonly Repetition[], metric: MetricId, key: (r: Repetition) => string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of reps) {
    const v = METRICS[metric].extract(r);
    if (v === undefined) continue;
    const k = key(r);
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

export function computeOverhead(
  mode: ModeResult,
  baseline: ModeResult,
  metric: MetricId,
  context: AnalysisContext,
): OverheadEstimate | undefined {
  const modeReps = validRepetitions(mode);
  const baseReps = validRepetitions(baseline);
  const unit = METRICS[metric].unit;
  const common = { mode: mode.name, profile: mode.profile, baseline: baseline.name, metric, unit };
  const pairs = pairByBlock(modeReps, baseReps, metric);
  const options = (what: string) => ({
    random: streamFor(context, 'overhead', mode.name, mode.profile, metric, what),
    resamples: context.resamples,
    level: context.level,
  });
  if (pairs.length >= 2) {
    const differences = pairs.map((p) => p.mode - p.baseline);
    const ratios = pairs.filter((p) => p.baseline > 0).map((p) => p.mode / p.baseline);
    const estimate: OverheadEstimate = {
      ...common,
      pairs: pairs.length,
      paired: true,
      difference: withCi(median(differences), bootstrapInterval(differences, options('difference'))),
    };
    if (ratios.length > 0) estimate.ratio = withCi(median(ratios), bootstrapInterval(ratios, options('ratio')));
    const sdDiff = standardDeviation(differences);
    const sdLog = standardDeviation(ratios.map(Math.log));
    if (Number.isFinite(sdDiff)) {
      estimate.mde = {
        difference: finiteOrNull(pairedMde(sdDiff, pairs.length, context.alpha)),
        relative: finiteOrNull(Math.expm1(pairedMde(sdLog, ratios.length, context.alpha))),
      };
    }
    return estimate;
  }
  const modeValues = modeReps.map((r) => METRICS[metric].extract(r)).filter((v): v is number => v !== undefined);
  const baseValues = baseReps.map((r) => METRICS[metric].extract(r)).filter((v): v is number => v !== undefined);
  if (modeValues.length === 0 || baseValues.length === 0) return undefined;
  const m = median(modeValues);
  const b = median(baseValues);
  const estimate: OverheadEstimate = {
    ...common,
    pairs: pairs.length,
    paired: false,
    difference: withCi(
      m - b,
      bootstrapTwoSampleInterval(modeValues, baseValues, (x, y) => median(x) - median(y), options('difference')),
    ),
  };
  if (b > 0)
    estimate.ratio = withCi(
      m / b,
      bootstrapTwoSampleInterval(modeValues, baseValues, (x, y) => median(x) / median(y), options('ratio')),
    );
  return estimate;
}
