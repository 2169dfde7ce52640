// Markdown pieces the job summary and the PR comment share: the verdict line, the results table,
// the gate table, the invalid-repetition table. Pure.
import { MIN_VALUES_FOR_MEDIAN_CI } from '../analysis/median-interval.ts';
import { smallSampleIntervalNote } from '../report/detectability-words.ts';
import { abLeadLines, PATH_HEADING, pathNotes, reasonsBesideAbLead, stoppingLine, VERDICT_ICON } from '../report/cells.ts';
import type { Figure, GateView, InvalidRepetition, ModeView, RunView } from '../report/view.ts';
import { formatCauses, formatErrorRate } from '../results/errors.ts';
import type { BaseComparison, ReferenceView } from '../report/reference.ts';
import { code, details, table, text } from '../report/markdown-kit.ts';
import { ms, NONE, rps, signedMs, signedPercent } from '../report/numbers.ts';

export const VERDICT_WORD: Record<RunView['verdict'], string> = {
  pass: 'pass',
  fail: 'fail',
  inconclusive: 'inconclusive',
  invalid: 'invalid run',
};

export function verdictHeadline(view: RunView): string {
  return `${VERDICT_ICON[view.verdict]} **${VERDICT_WORD[view.verdict]}**`;
}

/** What an inconclusive verdict does to the job, and the setting that changes it. */
const INCONCLUSIVE_POLICY = 'a warning; `gates.regression.inconclusive: fail` makes it fail the job';

export function reasonsList(view: RunView): string {
  // An A/B gate's reason is its line in the A/B section above: said once.
  const reasons = reasonsBesideAbLead(view);
  if (reasons.length < view.reasons.length && reasons.length === 0)
    return view.verdict === 'inconclusive'
      ? `No gate failed, but ${abLeadLines(view).filter((g) => g.mark === '⚠').length > 1 ? 'the A/B gates' : 'the A/B gate'} marked ⚠ above could not decide (${INCONCLUSIVE_POLICY}).`
      : '';
  if (reasons.length === 0) {
    if (view.verdict !== 'pass') return '';
    return view.gates.length > 0
      ? 'Every gate passed and every repetition was valid.'
      : 'Every repetition was valid; no gates are configured, so nothing could fail.';
  }
  const lead =
    view.verdict === 'inconclusive'
      ? `No gate failed, but these could not decide with the repetitions this run had (${INCONCLUSIVE_POLICY}):\n\n`
      : '';
  return lead + reasons.map((reason) => `- ${text(reason)}`).join('\n');
}

export interface ResultsTableOptions {
  /** Include p90 (the summary has room; the comment keeps to p50/p99). */
  p90: boolean;
  comparisons: BaseComparison[];
  baseLabel?: string;
}

/** Rows as the job summary and the comment list them: by profile, the baseline first, then the config's order. */
export function tableRows(view: RunView): ModeView[] {
  const rank = (m: ModeView) => (m.isBaseline ? -1 : view.modeOrder.indexOf(m.mode));
  return [...view.modes].sort((a, b) => view.profiles.indexOf(a.profile) - view.profiles.indexOf(b.profile) || rank(a) - rank(b));
}

export function resultsTable(view: RunView, modes: ModeView[], options: ResultsTableOptions): string {
  const multiProfile = view.profiles.length > 1;
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
    cells.push(stat(m, m.latency.p50));
    if (options.p90) cells.push(stat(m, m.latency.p90));
    cells.push(stat(m, m.latency.p99), overhead(m));
    if (options.comparisons.length > 0) {
      const c = options.comparisons.find((x) => x.mode === m.mode && x.profile === m.profile);
      cells.push(c ? `${signedPercent(c.change)} (base ${ms(c.baseP50)})` : NONE);
    }
    cells.push(rps(m.fromInvalid ? undefined : m.achievedRps?.value), errorsCell(m));
    if (resources) cells.push(stat(m, m.cpuPer1000Rps), stat(m, m.memoryMiBPer1000Rps));
    cells.push(`${m.valid}/${m.repetitions}`);
    return cells;
  });
  const align = header.map((_, i) => (i === 0 || (multiProfile && i === 1) ? 'l' : 'r')) as ('l' | 'r')[];
  return table(header, rows, align);
}

/** What each mode's proxies counted, one line per mode (empty when the run read no proxy counters). */
export function pathSection(view: RunView): string {
  const paths = pathNotes(view);
  if (paths.length === 0) return '';
  return [`**${PATH_HEADING}**`, '', ...paths.map((p) => `- ${code(p.mode)}: ${text(p.text)}`)].join('\n');
}

/** A footnote saying what the intervals in the table are. */
export function intervalNote(view: RunView): string {
  const shown = view.modes.filter((m) => !m.fromInvalid).flatMap((m) => [m.latency.p50, m.latency.p99].filter((f) => f !== undefined));
  const intervals = new Set(shown.map((f) => f.interval));
  if (intervals.has('bootstrap')) {
    const sizes = view.modes.filter((m) => m.latency.p50?.interval === 'bootstrap' && m.valid >= 2).map((m) => m.valid);
    const small = smallSampleIntervalNote(sizes.length > 0 ? Math.min(...sizes) : Infinity, 0.95);
    return small
      ? `Values are medians over repetitions. ${small}`
      : 'Values are medians over repetitions with 95% confidence intervals in brackets.';
  }
  if (intervals.has('order'))
    return shown.every((f) => f.n < MIN_VALUES_FOR_MEDIAN_CI)
      ? 'Values are medians over valid repetitions; brackets give the range over repetitions (no confidence intervals in these results).'
      : 'Values are medians over valid repetitions; brackets give an order-statistic interval of the median (no confidence intervals in these results).';
  return 'Values are from a single valid repetition per mode: no interval can be given.';
}

/** A median with its interval in brackets; "–" for figures that rest on invalid repetitions only. */
function stat(m: ModeView, s: Figure | undefined): string {
  if (!s || m.fromInvalid) return NONE;
  if (s.interval === 'none') return ms(s.value);
  return `${ms(s.value)} [${ms(s.low)}–${ms(s.high)}]`;
}

function overhead(m: ModeView): string {
  const o = m.overhead.p50;
  if (m.isBaseline || !o) return NONE;
  const diff = o.difference;
  const ci = diff.interval === 'bootstrap' ? ` [${signedMs(diff.low)}, ${signedMs(diff.high)}]` : '';
  const ratio = o.ratio ? ` (${signedPercent(o.ratio.value - 1)})` : '';
  return `${signedMs(diff.value)} ms${ci}${ratio}`;
}

/** The gate's verdict line and its note, if any (once: a regression line already carries its note). */
export function gateDetail(gate: GateView): string {
  const { line, note } = gate.result;
  return note && !line.includes(note) ? `${line} — ${note}` : line;
}

export function gatesTable(gates: GateView[]): string {
  const rows = gates.map((gate) => {
    const g = gate.result;
    return [
      g.decision === 'fail'
        ? '❌ fail'
        : g.decision === 'inconclusive'
          ? `⚠️ inconclusive${g.repetitionsToSettle ? ` (~${g.repetitionsToSettle} reps)` : ''}`
          : g.decision === 'skipped'
            ? '➖ skipped'
            : '✅ pass',
      text(g.gate),
      text(`${g.mode} · ${g.profile}`),
      text(gateDetail(gate)),
    ];
  });
  return table(['decision', 'gate', 'applies to', 'evidence'], rows);
}

export function invalidTable(invalid: InvalidRepetition[], limit: number): string {
  const shown = invalid.slice(0, limit);
  const rows = shown.map((r) => [
    text(r.mode),
    text(r.profile),
    String(r.trial),
    String(r.round),
    text(r.reasons.length > 0 ? r.reasons.join('; ') : 'marked invalid'),
  ]);
  const more =
    invalid.length > shown.length ? `\n\n…and ${invalid.length - shown.length} more invalid repetitions (see results.json).` : '';
  return table(['mode', 'load', 'trial', 'round', 'why invalid'], rows) + more;
}

/** What the "vs base" column compares with, or why it is missing. */
export function baseNote(reference: ReferenceView | undefined): string {
  if (!reference) return 'No results of the base branch were found in history, so there is no "vs base" column.';
  if (reference.comparisons.length === 0)
    return `History has ${reference.runs} run(s) of ${text(reference.described)}, but none with the same modes and load profiles, so there is no "vs base" column.`;
  return `"vs base" compares p50 with the median of ${reference.runs} run(s) of ${text(reference.described)}; the regression gate decides whether a change counts.`;
}

/** Failed requests marked red (🔴: markdown has no colour) so a failing service cannot look green. */
function errorsCell(m: ModeView): string {
  const { failures, rate, causes } = m.errors;
  // The error gate's rate, worded as the terminal and the gate lines word it.
  if (failures === 0 || rate === undefined) return formatErrorRate(rate ?? 0);
  return `🔴 ${text(formatErrorRate(rate))}${causes.length > 0 ? ` (${text(formatCauses(causes))})` : ''}`;
}

const AB_ICON = { '✓': '✅', '✗': '❌', '⚠': '⚠️', '–': '➖', '?': '🔁' } as const;

/** The A/B verdict the job summary and the PR comment lead with (empty without arms). */
export function abSection(view: RunView): string {
  const lead = abLeadLines(view);
  if (lead.length === 0) return '';
  const stopped = stoppingLine(view);
  return [
    '**A/B** (head against base, same run, interleaved blocks)',
    '',
    ...lead.map((g) => `- ${AB_ICON[g.mark]} ${text(g.line)}`),
    ...(stopped ? ['', `<sub>${text(stopped)}</sub>`] : []),
  ].join('\n');
}

/** How the arms were made from the PR base's config, folded: which modes run as arms and why the others do not. */
export function armsFromBaseSection(view: RunView): string {
  if (!view.armsFromBase) return '';
  const { armed, lines } = view.armsFromBase;
  const title =
    armed > 0
      ? `A/B arms from the base config: ${armed} mode${armed === 1 ? '' : 's'}`
      : 'A/B from the base config: none, compared with history';
  return details(title, lines.map((l) => `- ${text(l)}`).join('\n'));
}

/** "3 looks, 14 blocks: every gate decided" or the older confirmation wording for results without a stopping record. */
export function roundsText(view: RunView): string {
  // With arms the A/B section says how measuring stopped.
  if (view.ab && stoppingLine(view)) return '';
  if (view.stopping && view.stopping.record.reason !== 'fixed') return `${view.stopping.measured}, ${view.stopping.reason}`;
  return view.rounds > 1 ? `${view.rounds} rounds (blocks added after the first look)` : '';
}
