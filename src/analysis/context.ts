// Settings shared by every computation of one analysis: the seed bootstraps derive from, the
// number of resamples, the confidence level and the gates' alpha.
import type { Random } from '../util/random.ts';
import { randomFor } from './seed.ts';

export interface AnalysisContext {
  seed: number;
  resamples: number;
  level: number;
  alpha: number;
}

/** A random stream of its own for one named computation ("summary", mode, profile, metric …). */
export function streamFor(context: AnalysisContext, ...parts: (string | number)[]): Random {
  return randomFor(context.seed, ...parts);
}
