// Coverage of the A/B gate's intervals at a fixed number of independent blocks (bench/ab-gate/run.ts
// --only coverage): how often each estimator's bounds, as the gate computes them (estimators.ts:
// the pass side's widenedBound, the fail side's scaledBound), hold the true change. Per block the
// log(head ÷ base) has sd r; an outlier block (probability `outliers`) slows one arm, either, by
// |N(0, 5r)|. The true centre is the shift: the noise and the outliers are symmetric on the log scale.
// Nothing here is a measurement.
import { INDEPENDENT } from '../../src/analysis/ab/dependence.ts';
import { estimate, type EstimatorName, scaledBound, widenedBound } from '../../src/analysis/ab/estimators.ts';
import { seededRandom } from '../../src/util/random.ts';
import { gaussian } from '../../test/analysis/synthetic.ts';

export interface CoverageNoise {
  r: number;
  outliers: number;
  shift: number;
}

export interface Coverage {
  /** Share of two-sided 90 % intervals (pass-side bounds, 5 % in each tail) that hold the true log change. */
  twoSided: number;
  /** Share of one-sided 95 % upper bounds at or above it (the pass statement's coverage). */
  upper: number;
  /** Share of the fail side's one-sided 99 % lower bounds at or below it. */
  lower: number;
  /** The same at 99.9 %: the level of the design's early looks. */
  lowerTiny: number;
}

export function coverage(name: EstimatorName, c: CoverageNoise, blocks: number, samples: number, seed: number): Coverage {
  const random = seededRandom(seed);
  const truth = Math.log1p(c.shift);
  let both = 0;
  let upper = 0;
  let lower = 0;
  let tiny = 0;
  for (let s = 0; s < samples; s++) {
    const logs = Array.from({ length: blocks }, () => {
      let v = truth + c.r * gaussian(random);
      if (random() < c.outliers) v += (random() < 0.5 ? 1 : -1) * Math.abs(5 * c.r * gaussian(random));
      return v;
    });
    const e = estimate(name, logs);
    const low = widenedBound(e, 0.05, INDEPENDENT);
    const high = widenedBound(e, 0.95, INDEPENDENT);
    if (low <= truth && truth <= high) both++;
    if (high >= truth) upper++;
    if (scaledBound(e, 0.01, INDEPENDENT) <= truth) lower++;
    if (scaledBound(e, 0.001, INDEPENDENT) <= truth) tiny++;
  }
  return { twoSided: both / samples, upper: upper / samples, lower: lower / samples, lowerTiny: tiny / samples };
}
