// Reads the analysis block (src/results/analysis.ts) for the report when a results file has one:
// its bootstrap intervals replace the report's own order-statistic ones, and its gate lines are
// shown as written. Checked at run time, since the block comes from whichever mesh-perf wrote
// the file; anything unrecognised falls back to a generic rendering.
import type { Analysis, GateResult, StatisticSummary } from '../../results/analysis.ts';
import type { MedianInterval } from '../../analysis/median-interval.ts';

export interface AnalysisView {
  level: number;
  interval(mode: string, profile: string, stat: string): MedianInterval | undefined;
  gates: GateResult[];
  detectability: string[];
  notes: string[];
  referenceRunIds: string[];
}

export function analysisView(analysis: unknown): AnalysisView | undefined {
  if (typeof analysis !== 'object' || analysis === null) return undefined;
  const a = analysis as Partial<Analysis>;
  if (a.version !== 1 || !Array.isArray(a.summaries) || !Array.isArray(a.gates)) return undefined;
  const level = typeof a.level === 'number' ? a.level : 0.95;
  return {
    level,
    interval(mode, profile, stat) {
      const summary = a.summaries!.find((s) => s?.mode === mode && s?.profile === profile);
      const st = summary?.statistics?.[stat as keyof typeof summary.statistics] as StatisticSummary | undefined;
      if (!st || typeof st.median !== 'number') return undefined;
      const low = st.ci?.low ?? st.median;
      const high = st.ci?.high ?? st.median;
      return { median: st.median, low, high, n: st.n ?? 1, coverage: st.ci?.level ?? level };
    },
    gates: a.gates.filter((g) => g && typeof g.line === 'string'),
    detectability: Array.isArray(a.detectability) ? a.detectability.filter((x) => typeof x === 'string') : [],
    notes: Array.isArray(a.notes) ? a.notes.filter((x) => typeof x === 'string') : [],
    referenceRunIds: Array.isArray(a.reference?.runIds) ? a.reference!.runIds : [],
  };
}
