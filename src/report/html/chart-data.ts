// The numbers the report's charts draw, computed here (typed, tested) so the browser script only
// hands them to Chart.js. Pure.
import { median } from '../../analysis/descriptive.ts';
import type { ModeView, RunView, SummaryStat } from '../view.ts';
import { colorFor } from './colors.ts';
import type { AbGateEvidence } from '../../results/analysis.ts';
import { abSubject } from '../ab.ts';

/** Percentiles on the spectrum: x is 1/(1−q) on a log axis, as HdrHistogram plots do. */
export const SPECTRUM: { stat: SummaryStat; q: number; label: string }[] = [
  { stat: 'min', q: 0, label: 'min' },
  { stat: 'p50', q: 0.5, label: '50%' },
  { stat: 'p75', q: 0.75, label: '75%' },
  { stat: 'p90', q: 0.9, label: '90%' },
  { stat: 'p95', q: 0.95, label: '95%' },
  { stat: 'p99', q: 0.99, label: '99%' },
  { stat: 'p999', q: 0.999, label: '99.9%' },
];
/** "max" is drawn one decade right of 99.9%. */
export const SPECTRUM_MAX_X = 10_000;
export const BAR_STATS: SummaryStat[] = ['p50', 'p90', 'p95', 'p99', 'p999'];

export interface ModeSeries {
  mode: string;
  color: string;
}

export interface ProfileCharts {
  profile: string;
  spectrum: (ModeSeries & { points: { x: number; y: number; label: string }[]; invalid: boolean })[];
  bars: { stats: string[]; modes: (ModeSeries & { median: (number | null)[]; low: (number | null)[]; high: (number | null)[] })[] };
  overhead: {
    stats: string[];
    baseline: string;
    modes: (ModeSeries & { median: (number | null)[]; low: (number | null)[]; high: (number | null)[]; pairs: number })[];
  } | null;
  /** Per repetition, columns of equal length (compact: reports in history carry thousands of them). */
  timeline: (ModeSeries & {
    label: string;
    valid: boolean;
    trial: number;
    t: number[];
    p50: (number | null)[];
    p90: (number | null)[];
    p99: (number | null)[];
    max: (number | null)[];
  })[];
  resources: { groups: string[]; modes: (ModeSeries & { cpu: (number | null)[]; memory: (number | null)[] })[] } | null;
}

/** One A/B gate's per-block head ÷ base − 1 (percent), with its estimate, interval and practical minimum. */
export interface AbChart {
  title: string;
  blocks: number[];
  changePct: number[];
  estimatePct: number;
  lowPct: number;
  highPct: number;
  minimumPct: number;
}

export interface ReportChartData {
  ciLevel: number;
  profiles: ProfileCharts[];
  /** Per-block ratio charts of the A/B gates (absent without arms). */
  ab?: AbChart[];
}

export function buildReportChartData(view: RunView): ReportChartData {
  const modeNames = [...new Set(view.modes.map((m) => m.mode))];
  const color = (mode: string) => colorFor(Math.max(0, modeNames.indexOf(mode)));
  const profiles: ProfileCharts[] = view.profiles.map((profile) => {
    const inProfile = view.modes.filter((s) => s.profile === profile);
    const spectrum = inProfile.map((s) => ({
      mode: s.mode,
      color: color(s.mode),
      invalid: s.fromInvalid,
      points: [
        ...SPECTRUM.flatMap((p) =>
          s.latency[p.stat] ? [{ x: Math.round(1000 / (1 - p.q)) / 1000, y: s.latency[p.stat]!.value, label: p.label }] : [],
        ),
        // max as the table says it: the largest latency of any valid repetition.
        ...(s.largestMs !== undefined ? [{ x: SPECTRUM_MAX_X, y: s.largestMs, label: 'max' }] : []),
      ],
    }));
    const bars = {
      stats: BAR_STATS.map(statLabel),
      modes: inProfile.map((s) => ({
        mode: s.mode,
        color: color(s.mode),
        median: BAR_STATS.map((st) => s.latency[st]?.value ?? null),
        low: BAR_STATS.map((st) => s.latency[st]?.low ?? null),
        high: BAR_STATS.map((st) => s.latency[st]?.high ?? null),
      })),
    };
    const profileOverheads = inProfile.filter((s) => !s.isBaseline && inProfile.some((b) => b.isBaseline));
    const overhead =
      profileOverheads.length === 0
        ? null
        : {
            stats: BAR_STATS.map(statLabel),
            baseline: view.baseline,
            modes: profileOverheads.map((o) => ({
              mode: o.mode,
              color: color(o.mode),
              pairs: o.overhead.p50?.pairs ?? 0,
              median: BAR_STATS.map((st) => o.overhead[st]?.difference.value ?? null),
              low: BAR_STATS.map((st) => o.overhead[st]?.difference.low ?? null),
              high: BAR_STATS.map((st) => o.overhead[st]?.difference.high ?? null),
            })),
          };
    const timeline = inProfile.flatMap((m) => {
      const shade = shadesOf(color(m.mode), m.records.length);
      return m.records.map((r, i) => ({
        mode: m.mode,
        color: shade(i),
        label: `${m.mode} #${i + 1}${r.round > 1 ? ` (round ${r.round})` : ''}${r.valid ? '' : ' (invalid)'}`,
        valid: r.valid,
        trial: r.trial,
        t: r.timeline.map((p) => p.t),
        // A second in which every request failed has no latency: a gap in the line, not a 0.
        p50: r.timeline.map((p) => (p.requests > p.failures ? sig4(p.p50) : null)),
        p90: r.timeline.map((p) => (p.requests > p.failures ? sig4(p.p90) : null)),
        p99: r.timeline.map((p) => (p.requests > p.failures ? sig4(p.p99) : null)),
        max: r.timeline.map((p) => (p.requests > p.failures ? sig4(p.max) : null)),
      }));
    });
    return { profile, spectrum, bars, overhead, timeline, resources: resourcesOf(inProfile, color) };
  });
  const data: ReportChartData = { ciLevel: view.analysis?.level ?? 0.95, profiles };
  if (view.ab) data.ab = view.ab.gates.map((g) => abChart(g.evidence, view.profiles.length > 1));
  return data;
}

const pct = (relative: number) => Math.round(relative * 1e6) / 1e4;

function abChart(evidence: AbGateEvidence, withProfile: boolean): AbChart {
  return {
    title: `${abSubject(evidence, withProfile)} · ${evidence.statistic}`,
    blocks: evidence.perBlock.map((b) => b.block),
    changePct: evidence.perBlock.map((b) => pct(b.ratio - 1)),
    estimatePct: pct(evidence.change.value),
    lowPct: pct(evidence.change.low),
    highPct: pct(evidence.change.high),
    minimumPct: pct(evidence.minimum),
  };
}

function resourcesOf(modes: readonly ModeView[], color: (mode: string) => string): ProfileCharts['resources'] {
  const groups = [...new Set(modes.flatMap((m) => m.records.flatMap((r) => (r.resources ?? []).map((u) => u.group))))];
  if (groups.length === 0) return null;
  return {
    groups,
    modes: modes.map((m) => {
      const reps = m.records.filter((r) => r.valid && r.resources);
      const pick = (group: string, field: 'cpuMillicores' | 'memoryMiB') => {
        const values = reps.flatMap((r) => (r.resources ?? []).filter((u) => u.group === group).map((u) => u[field].avg));
        return values.length ? median(values) : null;
      };
      return {
        mode: m.mode,
        color: color(m.mode),
        cpu: groups.map((g) => pick(g, 'cpuMillicores')),
        memory: groups.map((g) => pick(g, 'memoryMiB')),
      };
    }),
  };
}

/** Four significant digits: plenty for a chart, and a third of the bytes of a double. */
function sig4(value: number): number {
  return Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(4)) : value;
}

export function statLabel(stat: string): string {
  return stat === 'p999' ? 'p99.9' : stat;
}

/**
 * The mode's colour, lighter for each later repetition: the over-time chart tells a mode's
 * repetitions apart while keeping them one family. The first repetition keeps the mode's colour.
 */
export function repetitionShade(hex: string, index: number, count: number): string {
  return shadesOf(hex, count)(index);
}

/** repetitionShade for one mode's repetitions, the colour parsed once (not once per repetition). */
function shadesOf(hex: string, count: number): (index: number) => string {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match || count <= 1) return () => hex;
  const channels = [0, 2, 4].map((at) => parseInt(match[1]!.slice(at, at + 2), 16));
  return (index) => (index === 0 ? hex : lighter(channels, (index / count) * 0.6));
}

function lighter(channels: number[], towardWhite: number): string {
  return `#${channels
    .map((c) =>
      Math.round(c + (255 - c) * towardWhite)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
