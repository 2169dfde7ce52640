// The change-point gate: after a publish, a change point that the new runs made appear, at the
// newest runs of its series, and that is a slowdown beyond the practical minimum, is raised:
// off (not looked at), warn (a line and a warning, exit 0) or fail (exit 1). Pure.

import { type ConfirmationRecord, clearsAlert } from '../confirm/record.ts';
import { UsageError } from '../util/errors.ts';
import { quote } from '../util/quote.ts';
import { describeChangePoint, type SuiteChangePoint, type SuiteChangePoints, seriesKeyOf, suiteChangePoints } from './change-points.ts';
import type { IndexEntry } from './suite-index.ts';

export type ChangePointGateMode = 'off' | 'warn' | 'fail';
const MODES: readonly ChangePointGateMode[] = ['warn', 'fail', 'off'];

/** A flag's or an input's value as a gate mode; a usage error naming `source` otherwise. */
export function changePointMode(value: string, source: string): ChangePointGateMode {
  if ((MODES as readonly string[]).includes(value)) return value as ChangePointGateMode;
  throw new UsageError(`${source} ${quote(value)}: expected warn, fail or off`);
}

export interface ChangePointGateResult {
  mode: ChangePointGateMode;
  /** awaiting: raised, and the gate waits for the confirmation's verdict (confirm.changePoints required). */
  decision: 'off' | 'pass' | 'warn' | 'fail' | 'awaiting';
  /** The practical minimum applied: relative for latency, ratio and CPU; error rates in points. */
  minimum: { relative: number; errorRate: number };
  raised: SuiteChangePoint[];
  lines: string[];
}

const key = (cp: SuiteChangePoint) => `${seriesKeyOf(cp)}\u0000${cp.after}`;

/**
 * Change points whose later segment reaches the newest run of the series and holds a run just
 * added, and that the history without the added runs did not have. The history is only analysed
 * a second time when such a candidate exists.
 */
export function changePointsMadeBy(
  changes: SuiteChangePoints,
  entries: readonly IndexEntry[],
  added: ReadonlySet<string>,
): SuiteChangePoint[] {
  if (added.size === 0) return [];
  const newest = new Map(changes.series.map((s) => [seriesKeyOf(s), s]));
  const startedAt = new Map(entries.map((e) => [e.id, e.startedAt]));
  const candidates = changes.changePoints.filter((cp) => {
    const series = newest.get(seriesKeyOf(cp));
    const last = series?.changePoints[series.changePoints.length - 1];
    if (last !== cp) return false;
    const from = cp.afterStartedAt;
    const to = startedAt.get(cp.segments[1].to) ?? from;
    return [...added].some((id) => {
      const at = startedAt.get(id);
      return at !== undefined && at >= from && at <= to;
    });
  });
  if (candidates.length === 0) return [];
  // Only the candidates' series are analysed again, without the added runs.
  const only = new Set(candidates.map(seriesKeyOf));
  const before = new Set(
    suiteChangePoints(
      entries.filter((e) => !added.has(e.id)),
      { only },
    ).changePoints.map(key),
  );
  return candidates.filter((cp) => !before.has(key(cp)));
}

export function evaluateChangePointGate(
  fresh: readonly SuiteChangePoint[],
  mode: ChangePointGateMode,
  minEffectPct: number,
  /** confirm.changePoints: under required a raised change point waits for its confirmation instead of failing now. */
  confirm: ConfirmChangePoints = 'off',
): ChangePointGateResult {
  const minimum = { relative: minEffectPct / 100, errorRate: 0.005 };
  if (mode === 'off') return { mode, decision: 'off', minimum, raised: [], lines: [] };
  const raised = fresh.filter(
    (cp) => cp.slower && cp.sizeLow > 0 && cp.size >= (cp.metric === 'err' ? minimum.errorRate : minimum.relative),
  );
  const awaiting = confirm === 'required' && raised.length > 0;
  const lines = raised.map((cp) => `new change point (slower)${awaiting ? ', awaiting its confirmation' : ''}: ${describeChangePoint(cp)}`);
  return { mode, decision: raised.length === 0 ? 'pass' : awaiting ? 'awaiting' : mode, minimum, raised, lines };
}

export type ConfirmChangePoints = 'off' | 'on' | 'required';

/**
 * The change-point gate on confirmations' verdicts (what confirm.changePoints required waits for):
 * confirmed fails (under fail), withdrawn and environment pass, and a verdict that leaves the
 * alert standing (cannot re-run, inconclusive, invalid, not run) decides as the raised change point
 * would have.
 */
export function evaluateConfirmationGate(records: readonly ConfirmationRecord[], mode: ChangePointGateMode): ConfirmationGateResult {
  if (mode === 'off') return { decision: 'off', lines: [] };
  const lines = records.map((r) => r.line);
  const standing = records.filter((r) => !clearsAlert(r.verdict));
  return { decision: standing.length === 0 ? 'pass' : mode, lines, standing: standing.length };
}

export interface ConfirmationGateResult {
  decision: 'off' | 'pass' | 'warn' | 'fail';
  lines: string[];
  /** Alerts the verdicts leave standing. */
  standing?: number;
}

/** Job-summary lines: one per raised change point, or none when nothing was raised. */
export function changePointSummaryLines(result: ChangePointGateResult | ConfirmationGateResult): string[] {
  if (result.decision !== 'warn' && result.decision !== 'fail' && result.decision !== 'awaiting') return [];
  const icon = result.decision === 'fail' ? '❌' : result.decision === 'awaiting' ? '⏳' : '⚠️';
  return result.lines.map((line) => `${icon} ${line}`);
}
