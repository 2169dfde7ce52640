// Plain-text renderings of a comparison and of a calibration, for `mesh-perf compare` and
// `mesh-perf calibrate`. Pure: strings in, strings out.
import type { Calibration } from '../analysis/calibration.ts';
import { formatEstimate, formatNumber, formatPercent } from './numbers.ts';
import { medianIntervalLabel, smallSampleIntervalNote } from './detectability-words.ts';
import { decisiveTest } from './gate-words.ts';
import { METRICS } from '../results/metrics.ts';
import { alignTable, fitColumns } from '../util/text-table.ts';
import type { Analysis, GateResult } from '../results/analysis.ts';

/** The comparison's tables: every column left-aligned, as compare and calibrate print them. */
function table(header: string[], rows: string[][]): string {
  return alignTable([header, ...rows], () => true);
}

/**
 * The regression gates of an analysis as a table, then every verdict line, notes and MDEs. The
 * table fits `width` the way the run's table does: mode, statistic, change and decision first,
 * the medians and p in a second table when they do not fit beside them.
 */
export function renderComparison(analysis: Analysis, labels: { baseline: string; candidate: string }, width = Infinity): string {
  const regressions = analysis.gates.filter((g) => g.kind === 'regression' && g.evidence);
  const rows = regressions.map((g) => {
    const e = g.evidence!;
    const unit = e.basis === 'relative' ? 'ratio' : METRICS[g.metric].unit;
    return [
      `${g.mode} [${g.profile}]`,
      `${METRICS[g.metric].label}${e.basis === 'relative' ? ` ÷ ${analysis.baseline}` : ''}`,
      formatEstimate(e.reference.median, unit),
      formatEstimate(e.candidate, unit),
      // The change and the one bound the decision uses, and the decision's one p, as its line says them.
      `${formatPercent(e.change.value)} (≤ ${e.changeBound === undefined ? '?' : formatPercent(e.changeBound)})`,
      formatDecisiveP(decisiveTest(e).p),
      decisionText(g),
    ];
  });
  const out: string[] = [];
  out.push(`Comparing ${labels.candidate} (candidate) with ${labels.baseline} (baseline)`);
  out.push('');
  // The medians' brackets are a bootstrap: below 6 repetitions a side they are about the range of
  // the values, not a 95% CI (the note says what they cover).
  const fewest = Math.min(...regressions.map((g) => Math.min(g.evidence!.reference.values, sizeOf(analysis, g))));
  const label = medianIntervalLabel(fewest, analysis.level);
  if (rows.length > 0) {
    const bound = `${Math.round((1 - analysis.alpha) * 100)}% upper bound`;
    const headers = [
      'mode',
      'statistic',
      `baseline [${label === 'range' ? 'interval' : label}]`,
      'candidate',
      `change (${bound})`,
      'p',
      'decision',
    ];
    const secondary = new Set([headers[2], 'candidate', 'p']);
    const columns = headers.map((header, c) => ({
      header,
      cells: rows.map((r) => r[c]!),
      essential: !secondary.has(header),
      left: true,
    }));
    out.push(fitColumns(columns, width, false), '');
  }
  const small = rows.length > 0 ? smallSampleIntervalNote(fewest, analysis.level) : undefined;
  if (small) out.push(`Brackets: ${small.charAt(0).toLowerCase()}${small.slice(1)}`, '');
  const others = analysis.gates.filter((g) => !(g.kind === 'regression' && g.evidence));
  const lines = [...regressions, ...others].map((g) => `  ${decisionMark(g)} ${g.line}`);
  if (lines.length > 0) out.push('Verdict lines:', ...lines, '');
  if (analysis.notes.length > 0) out.push('Notes:', ...analysis.notes.map((n) => `  - ${n}`), '');
  if (analysis.reference?.excluded.length) {
    out.push('Not compared (scenario differs):', ...analysis.reference.excluded.map((x) => `  - ${x.runId}: ${x.reason}`), '');
  }
  const failed = analysis.gates.filter((g) => g.decision === 'fail').length;
  const undecided = analysis.gates.filter((g) => g.decision === 'inconclusive').length;
  const counts = [
    ...(failed > 0 ? [`${failed} gate${failed === 1 ? '' : 's'} failed, marked ✗ above`] : []),
    ...(undecided > 0 ? [`${undecided} gate${undecided === 1 ? '' : 's'} inconclusive, marked ⚠ above`] : []),
  ];
  out.push(
    `Verdict: ${analysis.verdict === 'inconclusive' ? '⚠ ' : ''}${analysis.verdict.toUpperCase()}${counts.length > 0 ? ` (${counts.join('; ')})` : ''}`,
  );
  for (const reason of reasonsBesideGates(analysis.verdictReasons, analysis.gates)) out.push(`  - ${reason}`);
  return `${out.join('\n')}\n`;
}

/** Verdict reasons that are not a gate's own line: gate lines are printed in full above a verdict. */
export function reasonsBesideGates(reasons: readonly string[], gates: readonly GateResult[]): string[] {
  const gateLines = new Set(gates.map((g) => g.line));
  return reasons.filter((r) => !gateLines.has(r));
}

function formatDecisiveP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** Valid repetitions of the gate's mode in the candidate (from the analysis's summaries). */
function sizeOf(analysis: Analysis, g: GateResult): number {
  return analysis.summaries.find((s) => s.mode === g.mode && s.profile === g.profile)?.valid ?? Infinity;
}

function decisionText(g: GateResult): string {
  if (g.decision === 'fail') return 'REGRESSION';
  if (g.decision === 'skipped') return 'skipped';
  if (g.decision === 'inconclusive')
    return `⚠ inconclusive${typeof g.repetitionsToSettle === 'number' ? ` (~${g.repetitionsToSettle} reps)` : ''}`;
  if (g.reportOnly) return 'not gated';
  const e = g.evidence;
  if (e?.significant && !e.practical) return 'pass (below practical minimum)';
  if (e && e.change.value < 0 && e.significant) return 'pass (faster)';
  return 'pass';
}

function decisionMark(g: GateResult): string {
  return g.decision === 'fail' ? '✗' : g.decision === 'inconclusive' ? '⚠' : g.decision === 'skipped' || g.reportOnly ? '-' : '✓';
}

export function renderCalibration(calibration: Calibration): string {
  const [a, b] = calibration.modes;
  const rows = calibration.statistics.map((s) => [
    METRICS[s.metric].label,
    s.cv === null ? 'n/a' : formatPercent(s.cv, false),
    formatEstimate(s.offset, 'relative', true),
    s.falseDifferenceRate === null ? 'not measurable' : formatPercent(s.falseDifferenceRate, false),
    s.statisticalRate === null ? '—' : formatPercent(s.statisticalRate, false),
    ...s.mdeByRepetitions.map((m) => (m.mde === null ? '—' : formatPercent(m.mde, false))),
    s.overheadFloor.difference === null ? '—' : formatNumber(s.overheadFloor.difference, s.unit),
    s.repetitionsForTarget === null ? '—' : String(s.repetitionsForTarget),
  ]);
  const header = [
    'statistic',
    'CV',
    `${b} vs ${a}`,
    'false alarms',
    'p ≤ α alone',
    ...(calibration.statistics[0]?.mdeByRepetitions.map((m) => `MDE n=${m.repetitions}`) ?? []),
    `overhead floor`,
    `reps for ${formatPercent(calibration.targetMde, false)}`,
  ];
  return [
    `A/A calibration: ${a} and ${b} measure the same target [${calibration.profile}], ${calibration.blocks} interleaved blocks`,
    calibration.falseAlarmsUnmeasurable ??
      `false alarms: share of ${calibration.subsets} random pairs of ${calibration.subsetSize}-block subsets the regression gate flags (alpha ${calibration.alpha}, same machine, same job)`,
    '',
    table(header, rows),
    '',
    'Advice:',
    ...calibration.advice.map((line) => `  - ${line}`),
    '',
  ].join('\n');
}
