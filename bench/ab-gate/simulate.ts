// Synthetic histories for the A/B gate (bench/ab-gate/run.ts and the e2e acceptance test).
// One history is one run of a mode with two arms measured in interleaved blocks: each block has a
// drift shared by both arms (the machine's state at that moment, which cancels in the ratio) and
// lognormal noise per arm such that the per-block log(head ÷ base) has sd r. An outlier block
// (probability `outliers`) hits one arm, either, with an extra slowdown of |N(0, 5r)|. The gate
// is the product's own evaluateAbGate on synthetic ModeResults, look by look, as the pipeline's
// measure-until-decided loop calls it. Nothing here is a measurement.
import type { AbGateSettings } from '../../src/config/sections/gates.ts';
import { evaluateAbGate } from '../../src/analysis/ab/gate.ts';
import { estimate, type EstimatorName } from '../../src/analysis/ab/estimators.ts';
import type { SequentialDesign } from '../../src/analysis/ab/design.ts';
import type { ModeResult, Repetition } from '../../src/results/types.ts';
import { seededRandom, type Random } from '../../src/util/random.ts';
import { gaussian, repetition } from '../../test/analysis/synthetic.ts';

export interface NoiseCase {
  /** sd of the per-block log ratio head ÷ base. */
  r: number;
  /** Share of blocks with an outlier in one arm. */
  outliers: number;
  /** True head ÷ base − 1. */
  shift: number;
}

/** Base arm's p50, ms: large enough that the 5 % minimum (0.1 ms) is the one in force, not 0.05 ms. */
export const BASE_MS = 2;

/** Per-block p50 of both arms for `blocks` blocks. */
export function drawBlocks(random: Random, c: NoiseCase, blocks: number): { base: number[]; head: number[] } {
  const base: number[] = [];
  const head: number[] = [];
  const armSd = c.r / Math.SQRT2;
  for (let b = 0; b < blocks; b++) {
    const drift = Math.exp(0.1 * gaussian(random));
    let logBase = armSd * gaussian(random);
    let logHead = Math.log1p(c.shift) + armSd * gaussian(random);
    if (random() < c.outliers) {
      const hit = Math.abs(5 * c.r * gaussian(random));
      if (random() < 0.5) logBase += hit;
      else logHead += hit;
    }
    base.push(BASE_MS * drift * Math.exp(logBase));
    head.push(BASE_MS * drift * Math.exp(logHead));
  }
  return { base, head };
}

export function armResults(levels: { base: number[]; head: number[] }, blocks: number, profile = 'p'): [ModeResult, ModeResult] {
  const reps = (values: number[], offset: number): Repetition[] =>
    values.slice(0, blocks).map((level, i) => repetition({ trial: 2 * i + offset, block: i + 1, level }));
  return [
    { name: 'm-base', profile, arm: { of: 'm', side: 'base' }, repetitions: reps(levels.base, 0) },
    { name: 'm-head', profile, arm: { of: 'm', side: 'head' }, repetitions: reps(levels.head, 1) },
  ];
}

export interface SequentialOutcome {
  decision: 'pass' | 'fail' | 'inconclusive';
  blocks: number;
  look: number;
}

/** One history through the design's looks; stops at the first decision or the last look. */
export function sequentialHistory(random: Random, c: NoiseCase, design: SequentialDesign, settings: AbGateSettings): SequentialOutcome {
  const maxBlocks = design.looks[design.looks.length - 1]!;
  const levels = drawBlocks(random, c, maxBlocks);
  for (let index = 0; index < design.looks.length; index++) {
    const blocks = design.looks[index]!;
    const [base, head] = armResults(levels, blocks);
    const final = index === design.looks.length - 1;
    const { evidence } = evaluateAbGate({
      mode: 'm',
      profile: 'p',
      statistic: 'p50',
      base,
      head,
      settings,
      design,
      look: { index, final },
    });
    if (evidence.decision !== 'inconclusive' || final) return { decision: evidence.decision, blocks, look: index };
  }
  throw new Error('unreachable: the last look always returns');
}

export interface SequentialRates {
  pass: number;
  fail: number;
  inconclusive: number;
  meanBlocks: number;
  maxBlocks: number;
  /** Share of histories decided at each look. */
  byLook: number[];
}

export function sequentialRates(
  c: NoiseCase,
  design: SequentialDesign,
  settings: AbGateSettings,
  histories: number,
  seed: number,
): SequentialRates {
  const random = seededRandom(seed);
  let pass = 0;
  let fail = 0;
  let blocks = 0;
  let most = 0;
  const byLook = design.looks.map(() => 0);
  for (let h = 0; h < histories; h++) {
    const o = sequentialHistory(random, c, design, settings);
    if (o.decision === 'pass') pass++;
    if (o.decision === 'fail') fail++;
    blocks += o.blocks;
    most = Math.max(most, o.blocks);
    byLook[o.look]!++;
  }
  return {
    pass: pass / histories,
    fail: fail / histories,
    inconclusive: (histories - pass - fail) / histories,
    meanBlocks: blocks / histories,
    maxBlocks: most,
    byLook: byLook.map((n) => n / histories),
  };
}

export interface Coverage {
  /** Share of two-sided 90 % intervals (5 % in each tail) that hold the true log change. */
  twoSided: number;
  /** Share of one-sided 95 % upper bounds at or above it (the pass statement's coverage). */
  upper: number;
  /** Share of one-sided 99 % lower bounds at or below it (the fail side's coverage at alpha 1 %). */
  lower: number;
  /** Mean width of the 90 % interval, relative. */
  width: number;
}

/**
 * Coverage of each estimator's interval of the true change at a fixed number of blocks. The true
 * centre is the shift: the noise and the outliers are symmetric on the log scale.
 */
export function coverage(name: EstimatorName, c: NoiseCase, blocks: number, samples: number, seed: number): Coverage {
  const random = seededRandom(seed);
  const truth = Math.log1p(c.shift);
  let both = 0;
  let upper = 0;
  let lower = 0;
  let width = 0;
  for (let s = 0; s < samples; s++) {
    const levels = drawBlocks(random, c, blocks);
    const logs = levels.base.map((b, i) => Math.log(levels.head[i]! / b));
    const e = estimate(name, logs);
    const low = e.bound(0.05);
    const high = e.bound(0.95);
    if (low <= truth && truth <= high) both++;
    if (high >= truth) upper++;
    if (e.bound(0.01) <= truth) lower++;
    width += Math.expm1(high) - Math.expm1(low);
  }
  return { twoSided: both / samples, upper: upper / samples, lower: lower / samples, width: width / samples };
}
