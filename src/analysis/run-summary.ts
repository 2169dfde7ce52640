// Run-level summaries of a RunResult: per load profile and mode, the median of each statistic over
// valid repetitions with an order-statistic interval, and the overhead against the baseline
// paired by interleaved block. The history index, the HTML report and the exports all read
// these, so a number means the same thing everywhere. Pure.
import type { LatencyStat, ModeResult, Repetition, RunResult } from '../results/types.ts';
import { medianInterval, type MedianInterval } from './median-interval.ts';

/** The latency statistics the index, the dashboard and the reports carry. */
export const SUMMARY_STATS = ['p50', 'p75', 'p90', 'p95', 'p99', 'p999', 'max', 'mean', 'min'] as const satisfies readonly LatencyStat[];
export type SummaryStat = (typeof SUMMARY_STATS)[number];

export interface ModeSummary {
  mode: string;
  profile: string;
  mesh?: string;
  repetitions: number;
  validRepetitions: number;
  /** True when no repetition was valid and the figures come from invalid ones (never compare them). */
  fromInvalid: boolean;
  latency: Partial<Record<SummaryStat, MedianInterval>>;
  achievedRps?: MedianInterval;
  targetRps: number | null;
  errorRate?: MedianInterval;
  invalidReasons: string[];
}

export interface OverheadSummary {
  mode: string;
  profile: string;
  baseline: string;
  /** Paired blocks that contributed (both repetitions valid). */
  pairs: number;
  /** Per statistic: mode − baseline in ms, and mode / baseline. */
  diffMs: Partial<Record<SummaryStat, MedianInterval>>;
  ratio: Partial<Record<SummaryStat, MedianInterval>>;
}

export function profilesOf(result: RunResult): string[] {
  return unique(result.modes.map((m) => m.profile));
}

export function modeNamesOf(result: RunResult): string[] {
  return unique(result.modes.map((m) => m.name));
}

export function summarizeMode(mode: ModeResult, level = 0.95): ModeSummary {
  const valid = mode.repetitions.filter((r) => r.valid);
  const used = valid.length > 0 ? valid : mode.repetitions;
  const latency: ModeSummary['latency'] = {};
  for (const stat of SUMMARY_STATS) {
    const interval = medianInterval(
      used.flatMap((r) => (r.latencyMs ? [r.latencyMs[stat]] : [])),
      level,
    );
    if (interval) latency[stat] = interval;
  }
  const reasons = mode.repetitions.flatMap((r) => (r.valid ? [] : r.invalidReasons.map((x) => `trial ${r.trial}: ${x}`)));
  const summary: ModeSummary = {
    mode: mode.name,
    profile: mode.profile,
    repetitions: mode.repetitions.length,
    validRepetitions: valid.length,
    fromInvalid: valid.length === 0 && mode.repetitions.length > 0,
    latency,
    targetRps: mode.repetitions.find((r) => r.targetRps !== null)?.targetRps ?? null,
    invalidReasons: reasons,
  };
  if (mode.mesh !== undefined) summary.mesh = mode.mesh;
  const rps = medianInterval(
    used.map((r) => r.achievedRps),
    level,
  );
  if (rps) summary.achievedRps = rps;
  const errors = medianInterval(
    used.map((r) => r.errorRate),
    level,
  );
  if (errors) summary.errorRate = errors;
  return summary;
}

export function summarizeRun(result: RunResult, level = 0.95): ModeSummary[] {
  return result.modes.map((m) => summarizeMode(m, level));
}

/** A repetition with at least one successful request, so with latency statistics. */
type Successful = Repetition & { latencyMs: NonNullable<Repetition['latencyMs']> };

/** Overheads of every non-baseline mode, paired by (block, round) within the same profile. */
export function summarizeOverheads(result: RunResult, level = 0.95): OverheadSummary[] {
  const out: OverheadSummary[] = [];
  for (const profile of profilesOf(result)) {
    const base = result.modes.find((m) => m.profile === profile && m.name === result.baseline);
    if (!base) continue;
    const baseByBlock = new Map(base.repetitions.filter((r) => r.valid).map((r) => [pairKey(r), r]));
    for (const mode of result.modes) {
      if (mode.profile !== profile || mode.name === result.baseline) continue;
      const pairs: [Successful, Successful][] = [];
      for (const rep of mode.repetitions) {
        const partner = rep.valid ? baseByBlock.get(pairKey(rep)) : undefined;
        if (partner && rep.latencyMs && partner.latencyMs) pairs.push([rep as Successful, partner as Successful]);
      }
      const diffMs: OverheadSummary['diffMs'] = {};
      const ratio: OverheadSummary['ratio'] = {};
      for (const stat of SUMMARY_STATS) {
        const d = medianInterval(
          pairs.map(([m, b]) => m.latencyMs[stat] - b.latencyMs[stat]),
          level,
        );
        if (d) diffMs[stat] = d;
        const r = medianInterval(
          pairs.filter(([, b]) => b.latencyMs[stat] > 0).map(([m, b]) => m.latencyMs[stat] / b.latencyMs[stat]),
          level,
        );
        if (r) ratio[stat] = r;
      }
      out.push({ mode: mode.name, profile, baseline: result.baseline, pairs: pairs.length, diffMs, ratio });
    }
  }
  return out;
}

export function invalidRepetitionCount(result: RunResult): number {
  let count = 0;
  for (const mode of result.modes) for (const rep of mode.repetitions) if (!rep.valid) count++;
  return count;
}

function pairKey(rep: Repetition): string {
  return `${rep.round}:${rep.block}`;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
