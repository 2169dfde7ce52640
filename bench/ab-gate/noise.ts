// Noise models for synthetic A/B runs (bench/ab-gate). One history is one run of G modes with arms;
// each mode's arms are measured in the same blocks, and per block each arm's repetition has a p50
// and a p99. The log p50 of an arm's repetition is the sum of:
//   - the block's drift, shared by every repetition of the block (the machine that minute, ±10 %):
//     it cancels in head ÷ base, as the design intends;
//   - arm noise, N(0, r²/2) per arm, so the per-block log ratio has sd r;
//   - an outlier (share `outliers` of blocks): one arm, either, slowed by |N(0, 5r)|;
//   - an instance offset: each server instance's own speed, N(0, τ²/2) per instance, so one base
//     and one head instance differ by τ. How instances map to blocks is the platform's: `fresh`
//     (local: a new process per block), `pods` (a cluster: the mean of `pods` pods per arm for the
//     whole run, every repetition spreading its requests over them), `single` (one server per arm
//     for the whole run: endpoints, and the local platform before issue 39);
//   - ratio drift: an AR(1) process in block order with coefficient ρ, carried by the head arm
//     (something slow for a minute on one arm's side: its process, its node), variance r²·share;
//   - an order effect: the arm measured second in a block is faster by `secondFaster` (log), as
//     when the first repetition warms what the second finds warm (the host's caches, the client's
//     connections); a randomized order within the block turns it into noise, a fixed one into a bias;
//   - the change: log(1 + shift) on the head arm.
// The p99 of a repetition comes from a request-level model (tailOf): lognormal latencies around
// the p50, plus bursty stalls (Poisson, `stallsPer6s` per 6 s, each up to `stallMs` long) that
// delay every request arriving during one and the backlog behind it (a server at `utilization`),
// at `rate` requests per second for `seconds`.
// Nothing here is a measurement.
import { gaussian } from '../../test/analysis/synthetic.ts';
import type { Random } from '../../src/util/random.ts';
import { normalQuantile } from '../../src/analysis/distributions.ts';

export interface NoiseModel {
  /** sd of the per-block log ratio head ÷ base from arm noise. */
  r: number;
  /** Share of blocks with an outlier in one arm. */
  outliers: number;
  /** sd of the log ratio between one base and one head instance (0: instances alike). */
  tau: number;
  /** How instances meet blocks: a fresh one per block, the mean of pods per arm, or one per arm. */
  instances: 'fresh' | 'pods' | 'single';
  /** Pods per arm (instances 'pods'). */
  pods: number;
  /** AR(1) coefficient of the ratio drift (0: none). */
  rho: number;
  /** Share of r² carried by the AR(1) ratio drift (the rest independent per block). */
  arShare: number;
  /** Log speed-up of the arm measured second in its block (0: none). */
  secondFaster: number;
  /** Arms' order within a block: randomized (the design) or always base first. */
  order: 'randomized' | 'fixed';
  /** Bursty stalls for the p99 model; null: p99 = 2.6 × p50 (no tail model). */
  stalls: { stallsPer6s: number; stallMs: number; rate: number; seconds: number; sigma: number; utilization: number } | null;
}

export const QUIET: NoiseModel = {
  r: 0.05,
  outliers: 0,
  tau: 0,
  instances: 'fresh',
  pods: 2,
  rho: 0,
  arShare: 1,
  secondFaster: 0,
  order: 'randomized',
  stalls: null,
};

/** Base arm's p50, ms: large enough that the 5 % minimum (0.1 ms) is the one in force, not 0.05 ms. */
export const BASE_MS = 2;

/** One gated mode's blocks: each arm's p50 and p99 per block, in block order. */
export interface ArmBlocks {
  base: { p50: number; p99: number }[];
  head: { p50: number; p99: number }[];
}

/**
 * `blocks` blocks of `modes` gated modes; `shifts[i]` is mode i's true change on the gated
 * statistic (p50, or p99 when the model has stalls: the head's p99 times 1 + shift).
 */
export function drawRun(random: Random, model: NoiseModel, modes: number, blocks: number, shifts: readonly number[]): ArmBlocks[] {
  const armSd = model.r / Math.SQRT2;
  const instanceSd = model.tau / Math.SQRT2;
  const arSd = model.r * Math.sqrt(model.arShare);
  const indepSd = model.rho > 0 ? armSd * Math.sqrt(1 - model.arShare) : armSd;
  return Array.from({ length: modes }, (_, m) => {
    const persistent = (side: number) => {
      if (model.instances === 'single') return instanceSd * gaussian(random);
      if (model.instances === 'pods') {
        let sum = 0;
        for (let p = 0; p < model.pods; p++) sum += instanceSd * gaussian(random);
        return sum / model.pods;
      }
      return side * 0;
    };
    const offsets = [persistent(0), persistent(1)];
    const out: ArmBlocks = { base: [], head: [] };
    let ar = arSd * gaussian(random);
    for (let b = 0; b < blocks; b++) {
      if (b > 0) ar = model.rho * ar + Math.sqrt(1 - model.rho * model.rho) * arSd * gaussian(random);
      const drift = 0.1 * gaussian(random);
      // Which arm runs first in the block: base always (fixed), or either (randomized).
      const first = model.order === 'fixed' || random() < 0.5 ? 0 : 1;
      const levels = [0, 1].map((side) => {
        let log =
          drift + (side === first ? 0 : -model.secondFaster) + (model.rho > 0 ? indepSd : armSd) * gaussian(random) + offsets[side]!;
        if (model.instances === 'fresh') log += instanceSd * gaussian(random);
        if (side === 1 && model.rho > 0) log += ar;
        return log;
      });
      if (random() < model.outliers) levels[random() < 0.5 ? 0 : 1]! += Math.abs(5 * model.r * gaussian(random));
      const shift = shifts[m] ?? 0;
      const p50 = (side: number) => BASE_MS * Math.exp(levels[side]! + (side === 1 && !model.stalls ? Math.log1p(shift) : 0));
      const arm = (side: number) => {
        const median = p50(side);
        // With a tail model the change is the head's p99 (its p50 as base's): +shift on the statistic gated.
        const p99 = model.stalls ? tailOf(random, median, model.stalls) * (side === 1 ? 1 + shift : 1) : 2.6 * median;
        return { p50: median, p99 };
      };
      out.base.push(arm(0));
      out.head.push(arm(1));
    }
    return out;
  });
}

/**
 * A repetition's p99 from its requests: `rate` × `seconds` latencies lognormal around `median`
 * (sigma on the log), and stalls (Poisson, stallsPer6s per 6 s) of U(0, stallMs) each,
 * every request arriving during one delayed to its end. Only the top of the distribution is drawn:
 * the requests above the base's 1 − 3 × (1 − quantile) percentile (97th for p99), and the delayed ones.
 */
export function tailOf(random: Random, median: number, stalls: NonNullable<NoiseModel['stalls']>, quantile = 0.99): number {
  const n = Math.round(stalls.rate * stalls.seconds);
  const rank = Math.ceil((1 - quantile) * n);
  const tailShare = 3 * (1 - quantile);
  const above: number[] = [];
  const count = poisson(random, n * tailShare);
  for (let i = 0; i < count; i++) above.push(median * Math.exp(stalls.sigma * normalQuantile(1 - tailShare * random())));
  const events = poisson(random, (stalls.stallsPer6s * stalls.seconds) / 6);
  for (let e = 0; e < events; e++) {
    // The requests arriving during the stall wait for its end, and the backlog drains at the spare
    // capacity (1 − utilization): 1 ÷ (1 − u) times as many requests are delayed, the later less.
    const lengthMs = stalls.stallMs * random();
    const delayed = poisson(random, (stalls.rate * lengthMs) / 1000 / (1 - stalls.utilization));
    for (let i = 0; i < delayed; i++) above.push(median * Math.exp(stalls.sigma * gaussian(random)) + lengthMs * random());
  }
  above.sort((a, b) => b - a);
  return above.length >= rank ? above[rank - 1]! : median * Math.exp(stalls.sigma * normalQuantile(quantile));
}

function poisson(random: Random, mean: number): number {
  if (mean > 50) return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(random)));
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = random(); p > limit; p *= random()) k++;
  return k;
}
