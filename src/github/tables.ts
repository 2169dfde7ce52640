// Markdown pieces the job summary and the PR comment share: the verdict line, the results table,
// the gate table, the invalid-repetition table. Pure.
import { describeBase, type BaseComparison, type BaseReference } from './base-compare.ts';
import { code, ms, pct, rps, signedMs, signedPct, table, text } from './markdown.ts';
import { smallSampleIntervalNote } from '../analysis/format.ts';
import type { GateView, InvalidRepetition, ModeView, RunView, StatView } from './results-view.ts';

export const VERDICT_ICON: Record<RunView['verdict'], string> = { pass: '✅', fail: '❌', inconclusive: '⚠️', invalid: '⚠️' };
export const VERDICT_WORD: Record<RunView['verdict'], string> = {
  pass: 'pass',
  fail: 'fail',
  inconclusive: 'inconclusive',
  invalid: 'invalid run',
};

export function verdictHeadline(view: RunView): string {
  return `${VERDICT_ICON[view.verdict]} **${VERDICT_WORD[view.verdict]}**`;
}

export function reasonsList(view: RunView): string {
  if (view.reasons.length === 0) {
    if (view.verdict !== 'pass') return '';
    return view.gates.length > 0
      ? 'Every gate passed and every repetition was valid.'
      : 'Every repetition was valid; no gates are configured, so nothing could fail.';
  }
  const lead =
    view.verdict === 'inconclusive'
      ? 'No gate failed, but these could not decide with the repetitions this run had (a warning; `gates.regression.inconclusive: fail` makes it fail the job):\n\n'
      : '';
  return lead + view.reasons.map((reason) => `- ${text(reason)}`).join('\n');
}

export interface ResultsTableOptions {
  /** Include p90 (the summary has room; the comment keeps to p50/p99). */
  p90: boolean;
  comparisons: BaseComparison[];
  baseLabel?: string;
}

export function resultsTable(view: RunView, modes: ModeView[], options: ResultsTableOptions): string {
  const multiProfile = new Set(view.modes.map((m) => m.profile)).size > 1;
  const header = ['mode'];
  if (multiProfile) header.push('load');
  header.push('p50 ms');
  if (options.p90) header.push('p90 ms');
  header.push('p99 ms', `p50 overhead vs ${code(view.baseline) || 'baseline'}`);
  if (options.comparisons.length > 0) header.push(`p50 vs base${options.baseLabel ? ` (${text(options.baseLabel)})` : ''}`);
  header.push('achieved rps', 'errors');
  // Proxy and control-plane cost sits beside latency when the platform sampled it.
  const resources = modes.some((m) => m.cpuPer1000Rps || m.memoryMiBPer1000Rps);
  if (resources) header.push('CPU m / 1000 rps', 'memory MiB / 1000 rps');
  header.push('valid reps');
  const rows = modes.map((m) => {
    const cells = [m.mode === view.baseline ? `**${text(m.mode)}** (baseline)` : text(m.mode)];
    if (multiProfile) cells.push(text(m.profile));
    cells.push(stat(m.p50));
    if (options.p90) cells.push(stat(m.p90));
    cells.push(stat(m.p99), overhead(m, view));
    if (options.comparisons.length > 0) {
      const c = options.comparisons.find((x) => x.mode === m.mode && x.profile === m.profile);
      cells.push(c ? `${signedPct(c.change)} (base ${ms(c.baseP50)})` : '–');
    }
    cells.push(rps(m.achievedRps?.value), errorsCell(m));
    if (resources) cells.push(stat(m.cpuPer1000Rps), stat(m.memoryMiBPer1000Rps));
    cells.push(`${m.validRepetitions}/${m.totalRepetitions}`);
    return cells;
  });
  const align = header.map((_, i) => (i === 0 || (multiProfile && i === 1) ? 'l' : 'r')) as ('l' | 'r')[];
  return table(header, rows, align);
}

/** A footnote saying what the intervals in the table are. */
export function intervalNote(view: RunView): string {
  const intervals = new Set(view.modes.flatMap((m) => [m.p50, m.p99].filter(Boolean).map((s) => s!.interval)));
  if (intervals.has('ci')) {
    const sizes = view.modes.filter((m) => m.p50?.interval === 'ci' && m.validRepetitions >= 2).map((m) => m.validRepetitions);
    const small = smallSampleIntervalNote(sizes.length > 0 ? Math.min(...sizes) : Infinity, 0.95);
    return small
      ? `Values are medians over repetitions. ${small}`
      : 'Values are medians over repetitions with 95% confidence intervals in brackets.';
  }
  if (intervals.has('range'))
    return 'Values are medians over valid repetitions; brackets give the range over repetitions (no confidence intervals in these results).';
  return 'Values are from a single valid repetition per mode: no interval can be given.';
}

function stat(s: StatView | undefined): string {
  if (!s) return '–';
  if (s.low === undefined || s.high === undefined) return ms(s.value);
  return `${ms(s.value)} [${ms(s.low)}–${ms(s.high)}]`;
}

function overhead(m: ModeView, view: RunView): string {
  if (m.mode === view.baseline) return '–';
  const diff = m.overheadP50Ms;
  if (!diff) return '–';
  const ci = diff.low !== undefined && diff.high !== undefined ? ` [${signedMs(diff.low)}, ${signedMs(diff.high)}]` : '';
  const ratio = m.overheadP50Ratio ? ` (${signedPct(m.overheadP50Ratio.value - 1)})` : '';
  return `${signedMs(diff.value)} ms${ci}${ratio}`;
}

export function gatesTable(gates: GateView[]): string {
  const rows = gates.map((g) => [
    g.decision === 'fail'
      ? '❌ fail'
      : g.decision === 'inconclusive'
        ? `⚠️ inconclusive${g.repetitionsToSettle ? ` (~${g.repetitionsToSettle} reps)` : ''}`
        : g.decision === 'skipped'
          ? '➖ skipped'
          : '✅ pass',
    text(g.title),
    text([g.mode, g.profile].filter(Boolean).join(' · ') || 'all'),
    text(g.detail),
  ]);
  return table(['decision', 'gate', 'applies to', 'evidence'], rows);
}

export function invalidTable(invalid: InvalidRepetition[], limit: number): string {
  const shown = invalid.slice(0, limit);
  const rows = shown.map((r) => [
    text(r.mode),
    text(r.profile),
    r.trial >= 0 ? String(r.trial) : '–',
    String(r.round),
    text(r.reasons.join('; ')),
  ]);
  const more =
    invalid.length > shown.length ? `\n\n…and ${invalid.length - shown.length} more invalid repetitions (see results.json).` : '';
  return table(['mode', 'load', 'trial', 'round', 'why invalid'], rows) + more;
}

/** What the "vs base" column compares with, or why it is missing. */
export function baseNote(base: BaseReference | undefined, compared: number): string {
  if (!base) return 'No results of the base branch were found in history, so there is no "vs base" column.';
  if (compared === 0)
    return `History has ${base.runs.length} run(s) of ${text(describeBase(base))}, but none with the same modes and load profiles, so there is no "vs base" column.`;
  return `"vs base" compares p50 with the median of ${base.runs.length} run(s) of ${text(describeBase(base))}; the regression gate decides whether a change counts.`;
}

/** Failed requests marked red (🔴: markdown has no colour) so a failing service cannot look green. */
function errorsCell(m: ModeView): string {
  const value = m.errorRate?.value;
  if (m.failures === 0) return pct(value ?? 0);
  return `🔴 ${pct(value)}${m.errorCauses ? ` (${text(m.errorCauses)})` : ''}`;
}
