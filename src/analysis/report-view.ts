// What the terminal table and summary.md show from the analysis block: CI text per statistic,
// overhead with its CI, and the verdict lines. Pure; tolerant of results without analysis.
import type { RunResult } from '../results/types.ts';
import { formatInterval, formatPercent, formatSigned, medianIntervalLabel, significant, smallSampleIntervalNote } from './format.ts';
import type { MetricId } from '../results/metric-ids.ts';
import type { Analysis, GateResult } from '../results/analysis.ts';

export interface GateLine {
  mark: '✓' | '✗' | '⚠' | '–' | '?';
  decision: GateResult['decision'] | 'pending';
  line: string;
}

export interface AnalysisView {
  level: number;
  /** Column label of the median's interval: "95% CI", or "range" below 6 repetitions. */
  intervalLabel: string;
  /** "0.996–1.05" (ms implied) for a mode's statistic, or undefined. */
  interval(mode: string, profile: string, metric: MetricId): string | undefined;
  /** "+0.300 ms [+0.280 ms, +0.320 ms] (+30.0%)" for a mode's overhead on a statistic. */
  overhead(mode: string, profile: string, metric: MetricId): string | undefined;
  gates: GateLine[];
  /** One compact line: the p50 MDE per mode. */
  detectability: string | undefined;
  notes: string[];
  /** Said when a confirmation round ran. */
  rounds: string | undefined;
  /** Said when few repetitions make the interval a [min, max] with lower real coverage. */
  smallSample: string | undefined;
}

export function analysisView(result: RunResult): AnalysisView | undefined {
  const analysis = result.analysis as Analysis | undefined;
  if (!analysis || !Array.isArray(analysis.summaries)) return undefined;
  const summary = (mode: string, profile: string) => analysis.summaries.find((s) => s.mode === mode && s.profile === profile);
  const fewest = fewestRepetitions(analysis);
  return {
    level: analysis.level,
    intervalLabel: medianIntervalLabel(fewest, analysis.level),
    interval(mode, profile, metric) {
      const ci = summary(mode, profile)?.statistics[metric]?.ci;
      return ci ? `${significant(ci.low)}–${significant(ci.high)}` : undefined;
    },
    overhead(mode, profile, metric) {
      const o = analysis.overheads.find((x) => x.mode === mode && x.profile === profile && x.metric === metric);
      if (!o) return undefined;
      const relative = o.ratio ? ` (${formatPercent(o.ratio.value - 1)})` : '';
      const ci = formatInterval(o.difference.ci, o.unit, true);
      return `${formatSigned(o.difference.value, o.unit)}${ci ? ` ${ci}` : ''}${relative}`;
    },
    gates: analysis.gates.map((g) => ({
      mark: g.pendingConfirmation
        ? '?'
        : g.decision === 'fail'
          ? '✗'
          : g.decision === 'inconclusive'
            ? '⚠'
            : g.decision === 'skipped' || g.reportOnly
              ? '–'
              : '✓',
      decision: g.pendingConfirmation ? 'pending' : g.decision,
      line: g.line,
    })),
    detectability: compactDetectability(analysis),
    notes: analysis.notes,
    rounds:
      analysis.rounds.length > 1
        ? `A confirmation round ran (rounds ${analysis.rounds.join(', ')}); regression lines show each round and the pooled decision.`
        : undefined,
    smallSample: smallSampleIntervalNote(fewest, analysis.level),
  };
}

/** The fewest valid repetitions behind any interval shown (modes with fewer than two have none). */
function fewestRepetitions(analysis: Analysis): number {
  const sizes = analysis.summaries.map((s) => s.valid).filter((n) => n >= 2);
  return sizes.length > 0 ? Math.min(...sizes) : Infinity;
}

function compactDetectability(analysis: Analysis): string | undefined {
  const parts = analysis.summaries.flatMap((s) => {
    const mde = s.statistics.p50?.mde;
    if (mde === undefined) return [];
    return [
      `${s.mode}${analysis.summaries.some((o) => o.profile !== s.profile) ? ` [${s.profile}]` : ''} ${mde === null ? 'none detectable' : formatPercent(mde, false)}`,
    ];
  });
  return parts.length > 0 ? `With this noise, changes on p50 smaller than these are not detectable: ${parts.join(', ')}.` : undefined;
}

/** Lines under the terminal table: how the CIs were made, every gate line, MDE, notes. */
export function analysisTextLines(view: AnalysisView): string[] {
  const lines = [intervalsLine(view)];
  if (view.rounds) lines.push(view.rounds);
  if (view.gates.length > 0) lines.push('', 'Gates:', ...view.gates.map((g) => `  ${g.mark} ${g.line}`));
  if (view.detectability) lines.push('', view.detectability);
  if (view.notes.length > 0) lines.push('', 'Notes:', ...view.notes.map((n) => `  - ${n}`));
  return lines;
}

/** The same as markdown for summary.md: a gate list with decisions, MDE and notes. */
export function analysisMarkdownLines(view: AnalysisView): string[] {
  const icon = { '✓': '✅', '✗': '❌', '⚠': '⚠️', '–': '➖', '?': '🔁' } as const;
  const lines = [intervalsLine(view)];
  if (view.rounds) lines.push('', view.rounds);
  if (view.gates.length > 0) lines.push('', '**Gates**', '', ...view.gates.map((g) => `- ${icon[g.mark]} ${escapeMarkdown(g.line)}`));
  if (view.detectability) lines.push('', view.detectability);
  if (view.notes.length > 0) lines.push('', '**Notes**', '', ...view.notes.map((n) => `- ${escapeMarkdown(n)}`));
  return lines;
}

/** How the intervals were made; below 6 repetitions, that they are ranges and what they cover. */
function intervalsLine(view: AnalysisView): string {
  if (view.smallSample) return `${view.smallSample} Overhead paired by interleaved block.`;
  return `CI: ${Math.round(view.level * 100)}% bootstrap over valid repetitions (seeded); overhead paired by interleaved block.`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\|*_`<>[\]])/g, '\\$1');
}
