// Sentences about how much a run can tell, shared by the gate lines, the detectability lines and
// the tables: the minimum detectable effect, and what the brackets around a median are. Pure.
import { MIN_VALUES_FOR_MEDIAN_CI, rangeCoverage } from '../analysis/median-interval.ts';
import { formatPercent } from './numbers.ts';

/**
 * What a minimum detectable effect is measured against: `run`, a comparison of this run with
 * another of its size and noise (the run's own repetitions); `reference`, a comparison with the
 * stored runs a regression gate judges against (their spread from job to job included). The two
 * differ, so every sentence says which it is.
 */
export type MdeAgainst = 'run' | 'reference';

const AGAINST: Record<MdeAgainst, string> = {
  run: 'between two runs like this one',
  reference: 'against the reference runs',
};

/**
 * "with this noise, changes under 7% on p50 between two runs like this one are not detectable".
 * `n`, the valid repetitions behind it, tells an MDE missing for want of repetitions from one
 * missing because the statistic is 0 in every repetition (an error rate of 0/0 has no relative
 * change to size).
 */
export function mdeSentence(mde: number | null | undefined, what: string, n?: number, against: MdeAgainst = 'run'): string {
  if (mde === undefined || Number.isNaN(mde)) {
    if (n !== undefined && n >= 2) return `no MDE for ${what}: it is 0 in all ${n} repetitions, so a relative change cannot be sized`;
    return `MDE unknown for ${what} (fewer than two valid repetitions)`;
  }
  if (mde === null || !Number.isFinite(mde))
    return `with these repetitions no change on ${what} ${AGAINST[against]} is detectable (too few to reach the gate's alpha)`;
  return `with this noise, changes under ${formatPercent(mde, false)} on ${what} ${AGAINST[against]} are not detectable`;
}

/** The same, as a label for a list of figures: "between two runs like this one". */
export function mdeAgainstText(against: MdeAgainst): string {
  return AGAINST[against];
}

/** Short column label for an interval of the median over (at least) n values: "95% CI" or "range". */
export function medianIntervalLabel(n: number, level: number): string {
  return n >= MIN_VALUES_FOR_MEDIAN_CI ? `${Math.round(level * 100)}% CI` : 'range';
}

/**
 * What the brackets around a median are, as one sentence; undefined when they are a
 * confidence interval at the stated level. n is the fewest values behind any bracket shown.
 */
export function smallSampleIntervalNote(n: number, level: number): string | undefined {
  if (n < 2 || n >= MIN_VALUES_FOR_MEDIAN_CI) return undefined;
  return (
    `With ${n} repetitions an interval of the median is the range of the repetitions (min–max), which covers the true median ` +
    `${formatPercent(rangeCoverage(n), false)} of the time, not ${Math.round(level * 100)}%; ${MIN_VALUES_FOR_MEDIAN_CI} or more repetitions give a ${Math.round(level * 100)}% confidence interval.`
  );
}
