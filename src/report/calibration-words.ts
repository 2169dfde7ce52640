// The calibration's advice, in words: what the figures of an A/A run (analysis/calibration.ts) mean
// for this machine and what to do about them. Pure.
import type { Calibration, CalibrationEvidence, CalibrationStatistic } from '../analysis/calibration.ts';
import { METRICS } from '../results/metrics.ts';
import { formatNumber, formatPercent } from './numbers.ts';

/** The printed calibration: its figures, why false alarms could not be measured (when so), and advice. */
export function wordCalibration({ unmeasurable, ...evidence }: CalibrationEvidence): Calibration {
  return {
    ...evidence,
    ...(unmeasurable ? { falseAlarmsUnmeasurable: unmeasurableSentence(evidence.subsetSize, evidence.alpha, unmeasurable) } : {}),
    advice: advise(evidence.statistics, evidence.subsetSize, evidence.alpha, evidence.targetMde),
  };
}

function unmeasurableSentence(
  k: number,
  alpha: number,
  { minimumP, enoughPerSide: enough }: { minimumP: number; enoughPerSide: number },
): string {
  return (
    `false alarms cannot be measured: with ${k} against ${k} repetitions the rank test's smallest p is ${minimumP.toFixed(3)} > alpha ${alpha}, ` +
    `so no comparison could ever be flagged; calibrate with at least ${2 * enough} repetitions (${enough} against ${enough})`
  );
}

function advise(statistics: readonly CalibrationStatistic[], k: number, alpha: number, target: number): string[] {
  const lines: string[] = [];
  for (const s of statistics) {
    const label = METRICS[s.metric].label;
    const at = s.mdeByRepetitions.find((m) => m.repetitions === 5)?.mde;
    const parts = [`${label}: run-to-run CV ${s.cv === null ? 'unknown' : formatPercent(s.cv, false)}`];
    parts.push(
      at === null || at === undefined
        ? 'no change is detectable with 5 repetitions'
        : `with 5 repetitions changes under ${formatPercent(at, false)} are not detectable`,
    );
    if (s.repetitionsForTarget !== null)
      parts.push(`${s.repetitionsForTarget} repetitions per run reach a ${formatPercent(target, false)} MDE`);
    if (s.overheadFloor.difference !== null) {
      parts.push(`overheads under ${formatNumber(s.overheadFloor.difference, s.unit)} are indistinguishable from zero at ${k} blocks`);
    }
    lines.push(`${parts.join('; ')}.`);
    if (s.offset.ci && (s.offset.ci.low > 0 || s.offset.ci.high < 0)) {
      lines.push(
        `${label}: the two identical modes differ by ${formatPercent(s.offset.value)} (CI excludes 0): something other than the mesh separates them (order in the block, port, process placement); find it before trusting overhead figures.`,
      );
    }
    if (s.statisticalRate !== null && s.statisticalRate > 2 * alpha) {
      lines.push(
        `${label}: identical modes look different in ${formatPercent(s.statisticalRate, false)} of comparisons (expected about ${formatPercent(alpha, false)}): the repetitions are not independent (drift, warm-up, bursts); add warm-up or pauses, or gate on a steadier statistic.`,
      );
    }
  }
  return lines;
}
