// Which change point a confirmation answers: one named (`<profile>/<mode>/<metric>@<run>`), or
// the newest raised one still unconfirmed (a slowdown at the newest runs of its series whose
// interval excludes 0 and whose size reaches the practical minimum, as the change-point gate
// raises them), a mode's latency series before its error rate or CPU. And whether the day's budget
// of confirmations allows another. Pure.
import { type ConfirmationRecord, confirmationKey } from '../confirm/record.ts';
import { UsageError } from '../util/errors.ts';
import type { SuiteChangePoint, SuiteChangePoints } from './change-points.ts';
import { seriesKeyOf } from './change-points.ts';

/** The order in which a mode's series are preferred at the same two runs: what the A/B gate judges first. */
const METRIC_ORDER = ['p50', 'ratio', 'p99', 'err', 'cpu'];

/** Change points as the change-point gate raises them: slower beyond the minimum, at the newest runs of their series. */
export function raisedChangePoints(changes: SuiteChangePoints, minEffectPct: number): SuiteChangePoint[] {
  const newest = new Set(changes.series.map((s) => s.changePoints.at(-1)).filter((cp): cp is SuiteChangePoint => cp !== undefined));
  return changes.changePoints.filter(
    (cp) => newest.has(cp) && cp.slower && cp.sizeLow > 0 && cp.size >= (cp.metric === 'err' ? 0.005 : minEffectPct / 100),
  );
}

export type Target = { changePoint: SuiteChangePoint } | { none: string };

/** `spec` "newest" (or unset): the newest raised change point without a verdict; else "<profile>/<mode>/<metric>@<run id>" (any listed change point). */
export function pickChangePoint(
  changes: SuiteChangePoints,
  confirmations: readonly ConfirmationRecord[],
  spec: string | undefined,
  minEffectPct: number,
): Target {
  if (spec && spec !== 'newest') {
    const match = /^([^/@]+)\/([^/@]+)\/([^/@]+)@(.+)$/.exec(spec);
    if (!match)
      throw new UsageError(
        `--change-point ${JSON.stringify(spec)}: expected "newest" or <profile>/<mode>/<metric>@<run id>, e.g. 1000rps/istio-sidecar/p50@20260115T031700Z-ab12cd`,
      );
    const [, profile, mode, metric, after] = match;
    const found = changes.changePoints.find(
      (cp) => cp.profile === profile && cp.mode === mode && cp.metric === metric && cp.after === after,
    );
    if (!found) {
      const listed = changes.changePoints.slice(0, 5).map((cp) => `${cp.profile}/${cp.mode}/${cp.metric}@${cp.after}`);
      throw new UsageError(
        `--change-point ${spec}: no such change point${listed.length ? `; the newest are ${listed.join(', ')}` : ' (the series show none)'}`,
      );
    }
    return { changePoint: found };
  }
  const answered = new Set(confirmations.filter((r) => r.verdict !== 'not-run').map(confirmationKey));
  const candidates = raisedChangePoints(changes, minEffectPct).filter((cp) => !answered.has(confirmationKey(cp)));
  if (candidates.length === 0) return { none: 'no raised change point is waiting for a verdict' };
  candidates.sort(
    (a, b) =>
      (a.afterStartedAt < b.afterStartedAt ? 1 : a.afterStartedAt > b.afterStartedAt ? -1 : 0) ||
      METRIC_ORDER.indexOf(a.metric) - METRIC_ORDER.indexOf(b.metric) ||
      (seriesKeyOf(a) < seriesKeyOf(b) ? -1 : 1),
  );
  return { changePoint: candidates[0]! };
}

/**
 * Confirmations that ran load in the 24 hours before `now`. The budget is for minutes of load, so a
 * verdict reached without a run (cannot re-run: only fixed settings changed, results gone) or one
 * the budget stopped does not use it.
 */
export function confirmationsToday(records: readonly ConfirmationRecord[], now: Date): number {
  const since = now.getTime() - 86_400_000;
  return records.filter((r) => (r.rounds?.length ?? 0) > 0 && Date.parse(r.startedAt) > since).length;
}
