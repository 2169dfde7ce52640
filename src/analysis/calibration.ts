// A/A calibration: the same target measured as two modes, interleaved. What differs between the
// two is noise, so the run tells how much noise this machine has (noise floor), how often the
// regression gate would cry wolf here (observed false-difference rate), the smallest change and
// overhead each statistic can reveal (MDE), and how many repetitions a chosen MDE needs.
import { findMode } from '../results/modes.ts';
import type { Config } from '../config/validate.ts';
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';
import { bootstrapInterval } from './bootstrap.ts';
import type { AnalysisContext } from './context.ts';
import { streamFor } from './context.ts';
import { coefficientOfVariation, finiteOrNull, median, standardDeviation } from './descriptive.ts';
import { mannWhitneyGreater, minimumAttainableP } from './mann-whitney.ts';
import { pairedMde, repetitionsFor, twoSampleMde } from './mde.ts';
import type { MetricId, Unit } from '../results/metric-ids.ts';
import { METRICS } from '../results/metrics.ts';
import { pairByBlock } from './overhead.ts';
import { changeUpperBound, reachesPracticalMinimum } from './regression.ts';
import { validRepetitions } from './summary.ts';
import type { Estimate } from '../results/analysis.ts';

export interface CalibrationOptions {
  /** The two modes measuring the same target; default the first two modes of the run. */
  modes?: [string, string];
  profile?: string;
  statistics?: MetricId[];
  /** Repetitions per side of the simulated gate comparisons (default: the gate's usual 5, at most half the blocks). */
  subsetSize?: number;
  /** Random block subsets drawn to estimate the false-difference rate. */
  subsets?: number;
  alpha?: number;
  minEffectPct?: number;
  minEffectMs?: number;
  /** The MDE the user wants; advice says how many repetitions reach it. */
  targetMde?: number;
  resamples?: number;
}

export interface CalibrationStatistic {
  metric: MetricId;
  unit: Unit;
  /** Run-to-run CV of one mode's repetitions (median of the two modes). */
  cv: number | null;
  /** B ÷ A − 1 per block: should be 0; a CI excluding 0 means the two "identical" modes are not. */
  offset: Estimate;
  /** Smallest overhead distinguishable from zero with this run's paired noise, in unit and relative. */
  overheadFloor: { difference: number | null; relative: number | null };
  /**
   * Share of random k-block subsets in which the regression gate flags B against A (or A against
   * B); null when k against k repetitions cannot reach alpha, so no subset could ever be flagged
   * and a rate of 0 would mean nothing.
   */
  falseDifferenceRate: number | null;
  /** Same, counting statistical significance alone (no practical minimum); null as above. */
  statisticalRate: number | null;
  /** Relative MDE of a run-vs-run comparison at 3, 5 and 10 repetitions per side. */
  mdeByRepetitions: { repetitions: number; mde: number | null }[];
  /** Repetitions per side to reach the target MDE; null when the noise is unknown. */
  repetitionsForTarget: number | null;
}

export interface Calibration {
  modes: [string, string];
  profile: string;
  blocks: number;
  subsetSize: number;
  subsets: number;
  alpha: number;
  targetMde: number;
  statistics: CalibrationStatistic[];
  /** Why the false-alarm rates could not be measured, when they could not. */
  falseAlarmsUnmeasurable?: string;
  /** What to do about it, one sentence each. */
  advice: string[];
}

/** The calibration's figures; report/calibration-words.ts adds the advice. */
export interface CalibrationEvidence extends Omit<Calibration, 'falseAlarmsUnmeasurable' | 'advice'> {
  /**
   * Present when false alarms could not be measured: the rank test's smallest p at subsetSize
   * against subsetSize (above alpha), and the subset size per side that would reach alpha.
   */
  unmeasurable?: { minimumP: number; enoughPerSide: number };
}

/**
 * For `mesh-perf calibrate` and `calibrate: true`: the config's mode (default the baseline)
 * measured as two modes, `<name>` and `<name>-aa`, at least 10 blocks, nothing gated or published.
 */
export function calibrationConfig(config: Config, modeName?: string, repetitions?: number): Config {
  const name = modeName ?? config.baseline;
  const mode = config.modes.find((m) => m.name === name);
  if (!mode)
    throw new UsageError(`calibration: "${name}" names no mode of the config (modes: ${config.modes.map((m) => m.name).join(', ')})`);
  // Calibration measures one setting twice: an arm is calibrated as a plain mode.
  const { arm: _arm, ...plain } = mode;
  const twin = { ...plain, name: `${name.slice(0, 37)}-aa` };
  return {
    ...config,
    modes: [plain, twin],
    baseline: mode.name,
    profiles: config.profiles.map((p) => ({ ...p, repetitions: repetitions ?? Math.max(p.repetitions, 10), untilDecided: false })),
    gates: {
      thresholds: [],
      overhead: [],
      regression: { ...config.gates.regression, enabled: false },
      ab: { ...config.gates.ab, enabled: false },
      changePoint: 'off',
    },
    history: { ...config.history, publish: false },
    calibrate: true,
  };
}

const DEFAULT_STATISTICS: MetricId[] = ['p50', 'p90', 'p99', 'mean', 'max'];
const BOUND_RESAMPLES = 400;

export function analyzeCalibration(result: RunResult, options: CalibrationOptions = {}): CalibrationEvidence {
  const [nameA, nameB] = options.modes ?? [
    result.modes[0]?.name ?? '',
    result.modes.find((m) => m.name !== result.modes[0]?.name)?.name ?? '',
  ];
  const profile = options.profile ?? result.modes[0]?.profile ?? '';
  const a = findMode(result, nameA, profile);
  const b = findMode(result, nameB, profile);
  if (!a || !b || nameA === nameB) {
    throw new Error(
      `calibration needs two modes measuring the same target in profile "${profile}"; found ${result.modes.map((m) => `${m.name} [${m.profile}]`).join(', ') || 'none'}`,
    );
  }
  const alpha = options.alpha ?? 0.05;
  const context: AnalysisContext = { seed: result.plan?.seed ?? 0, resamples: options.resamples ?? 2000, level: 0.95, alpha };
  const blocks = pairByBlock(validRepetitions(b), validRepetitions(a), 'p50').length;
  const subsetSize = options.subsetSize ?? Math.max(2, Math.min(5, Math.floor(blocks / 2)));
  const subsets = options.subsets ?? 500;
  const targetMde = options.targetMde ?? 0.05;
  const settings = { alpha, minEffectPct: options.minEffectPct ?? 5, minEffectMs: options.minEffectMs ?? 0.05 };
  const statistics: CalibrationStatistic[] = [];
  for (const metric of options.statistics ?? DEFAULT_STATISTICS) {
    // pairByBlock(mode, baseline): B plays the mode, A the baseline.
    const pairs = pairByBlock(validRepetitions(b), validRepetitions(a), metric).filter((p) => p.baseline > 0 && p.mode > 0);
    if (pairs.length < 2) continue;
    const valuesA = pairs.map((p) => p.baseline);
    const valuesB = pairs.map((p) => p.mode);
    const ratios = pairs.map((p) => p.mode / p.baseline - 1);
    const cvs = [coefficientOfVariation(valuesA), coefficientOfVariation(valuesB)].filter((c): c is number => c !== undefined);
    const cv = cvs.length > 0 ? median(cvs) : null;
    const offsetCi = bootstrapInterval(ratios, { random: streamFor(context, 'calibration', metric), resamples: context.resamples });
    const rates = falseDifferenceRates(
      valuesA,
      valuesB,
      subsetSize,
      subsets,
      METRICS[metric].unit === 'ms',
      settings,
      streamFor(context, 'calibration-subsets', metric),
    );
    statistics.push({
      metric,
      unit: METRICS[metric].unit,
      cv,
      offset: offsetCi ? { value: median(ratios), ci: offsetCi } : { value: median(ratios) },
      overheadFloor: {
        difference: finiteOrNull(pairedMde(standardDeviation(pairs.map((p) => p.mode - p.baseline)), subsetSize, alpha)),
        relative: finiteOrNull(
          Math.expm1(pairedMde(standardDeviation(pairs.map((p) => Math.log(p.mode / p.baseline))), subsetSize, alpha)),
        ),
      },
      falseDifferenceRate: rates.gate,
      statisticalRate: rates.statistical,
      mdeByRepetitions: [3, 5, 10].map((n) => ({
        repetitions: n,
        mde: cv === null ? null : finiteOrNull(twoSampleMde({ cv, n }, { cv, n }, alpha)),
      })),
      repetitionsForTarget: cv === null ? null : finiteOrNull(repetitionsFor(targetMde, cv, alpha)),
    });
  }
  return {
    modes: [nameA, nameB],
    profile,
    blocks,
    subsetSize,
    subsets,
    alpha,
    targetMde,
    statistics,
    ...(statistics.some((s) => s.falseDifferenceRate === null)
      ? { unmeasurable: { minimumP: minimumAttainableP(subsetSize, subsetSize), enoughPerSide: smallestReachingSubset(alpha) } }
      : {}),
  };
}

/** Subsets of k blocks a side reach alpha from this k on; calibration needs twice as many blocks. */
function smallestReachingSubset(alpha: number): number {
  let k = 1;
  while (minimumAttainableP(k, k) > alpha) k++;
  return k;
}

/**
 * Draws random subsets of k blocks and k other blocks, judges the second against the first with
 * the regression gate's test (one-sided Mann–Whitney plus the practical minimum), both ways.
 * The practical bound is bootstrapped only for significant pairs, with fewer resamples than a
 * verdict uses: hundreds of subsets are judged, and a rate needs no per-pair precision.
 * Disjoint blocks mimic two runs on this machine; A and B alternate as reference and candidate.
 */
function falseDifferenceRates(
  valuesA: readonly number[],
  valuesB: readonly number[],
  k: number,
  subsets: number,
  unitIsMs: boolean,
  settings: { alpha: number; minEffectPct: number; minEffectMs: number },
  random: () => number,
): { gate: number | null; statistical: number | null } {
  const n = valuesA.length;
  if (n < 2 * k) k = Math.floor(n / 2);
  if (k < 1 || minimumAttainableP(k, k) > settings.alpha) return { gate: null, statistical: null };
  let flagged = 0;
  let significant = 0;
  let trials = 0;
  const indices = [...Array(n).keys()];
  for (let s = 0; s < subsets; s++) {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [indices[i], indices[j]] = [indices[j]!, indices[i]!];
    }
    const referenceBlocks = indices.slice(0, k);
    const candidateBlocks = indices.slice(k, 2 * k);
    for (const [reference, candidate] of [
      [referenceBlocks.map((i) => valuesA[i]!), candidateBlocks.map((i) => valuesB[i]!)],
      [referenceBlocks.map((i) => valuesB[i]!), candidateBlocks.map((i) => valuesA[i]!)],
    ] as const) {
      trials++;
      const isSignificant = mannWhitneyGreater(candidate, reference).p <= settings.alpha;
      if (!isSignificant) continue;
      significant++;
      const bound = changeUpperBound(candidate, reference, settings.alpha, random, BOUND_RESAMPLES);
      if (reachesPracticalMinimum(bound, median(candidate), unitIsMs, settings)) flagged++;
    }
  }
  return { gate: flagged / trials, statistical: significant / trials };
}
