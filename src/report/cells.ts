// Cells and lines the terminal table and summary.md share, read from the run's view (view.ts):
// milliseconds, rates, errors, overheads, invalid repetitions. Pure.
import { type MdeAgainst, mdeAgainstText, medianIntervalLabel } from './detectability-words.ts';
import { formatInterval, ms, msWithUnit, NONE, rps, signedMs, signedPercent, sizePercent } from './numbers.ts';
import { formatCauses, formatErrorRate } from '../results/errors.ts';
import type { GateView, ModeView, RunView } from './view.ts';

/** What every output says in place of its results table when no repetition finished. */
export const NO_MEASUREMENTS = 'No repetition finished, so there are no measurements to show.';

/** The verdict's emoji in markdown outputs (summary.md, job summary, PR comment): one table so they agree. */
export const VERDICT_ICON: Record<RunView['verdict'], string> = { pass: '✅', fail: '❌', inconclusive: '⚠️', invalid: '⚠️' };

/**
 * A latency cell of a row: the median of a percentile over valid repetitions, or for max the
 * largest latency any of them saw; "—" when no valid repetition had a successful request.
 */
export function latencyCell(row: ModeView, stat: 'p50' | 'p90' | 'p99' | 'max'): string {
  if (row.fromInvalid) return msWithUnit(undefined);
  return msWithUnit(stat === 'max' ? row.largestMs : row.latency[stat]?.value);
}

/** What the latency columns of a table are, said once under it. */
export const LATENCY_NOTE = 'Latency: median over valid repetitions; max: the largest of any valid repetition.';

/** "0.996–1.05" (ms implied): the analysis' interval of a row's median, or undefined. */
export function intervalCell(row: ModeView, stat: 'p50'): string | undefined {
  const figure = row.latency[stat];
  return figure?.interval === 'bootstrap' ? `${ms(figure.low)}–${ms(figure.high)}` : undefined;
}

/** Achieved rps over valid repetitions, "/target" when the profile has one. */
export function formatRps(row: ModeView): string {
  const achieved = row.fromInvalid ? undefined : row.achievedRps?.value;
  if (achieved === undefined) return NONE;
  return row.targetRps === null ? rps(achieved) : `${rps(achieved)}/${row.targetRps}`;
}

/** The errors cell: "0%", or the rate of failed requests. */
export function formatErrors(row: ModeView): string {
  return row.errors.rate === undefined ? NONE : formatErrorRate(row.errors.rate);
}

/** "+0.300 ms (+30.0%)": the p50 overhead, with the interval in brackets when `withInterval`. */
export function overheadText(row: ModeView, withInterval: boolean): string | undefined {
  const o = row.overhead.p50;
  if (!o) return undefined;
  const relative = o.ratio ? ` (${signedPercent(o.ratio.value - 1)})` : '';
  const ci = withInterval ? overheadInterval(row) : undefined;
  return `${signedMs(o.difference.value)} ms${ci ? ` ${ci}` : ''}${relative}`;
}

/** "[+0.280 ms, +0.320 ms]": the analysis' interval of the p50 overhead, or undefined. */
export function overheadInterval(row: ModeView): string | undefined {
  const d = row.overhead.p50?.difference;
  return d?.interval === 'bootstrap' ? formatInterval({ low: d.low, high: d.high, level: d.coverage }, 'ms', true) : undefined;
}

/** Column label of the analysis' intervals: "95% CI", or "range" below 6 repetitions. */
export function intervalLabel(view: RunView): string | undefined {
  return view.analysis ? medianIntervalLabel(view.analysis.fewestRepetitions, view.analysis.level) : undefined;
}

/** The heading of the path lines, the same in every output. */
export const PATH_HEADING = "Path, by the proxies' own counters (summed over repetitions)";

/** One line per mode: "istio-ambient: ztunnel counted 1,204 connections (mTLS)"; none when the run read no proxy counters. */
export function pathNotes(view: RunView): { mode: string; text: string }[] {
  return (view.paths ?? []).map((p) => ({ mode: p.mode, text: p.path.text }));
}

export function invalidNotes(view: RunView): string[] {
  return view.invalid.map((r) => `${r.mode} (${r.profile}) repetition ${r.index}: ${r.reasons.join('; ')}`);
}

/** One line per mode with failed requests: "candidate [1000rps]: 30.0% failed: HTTP 503 × 3,000". */
export function errorNotes(view: RunView): string[] {
  return view.modes
    .filter((r) => r.errors.failures > 0)
    .map(
      (r) =>
        `${r.mode} [${r.profile}]: ${formatErrors(r)} of requests failed: ${formatCauses(r.errors.causes)}${r.fromInvalid || r.latency.p50 === undefined ? ' (no request succeeded: no latency)' : ' (latency is over successful requests only)'}`,
    );
}

export type GateMark = '✓' | '✗' | '⚠' | '–' | '?';

export function gateMark(gate: GateView): GateMark {
  if (gate.decision === 'pending') return '?';
  if (gate.decision === 'fail') return '✗';
  if (gate.decision === 'inconclusive') return '⚠';
  return gate.decision === 'skipped' || gate.result.reportOnly ? '–' : '✓';
}

/**
 * One compact line: the p50 MDE per mode, the figure the mode's p50 regression gate states where
 * one judged it (against the reference runs), else the run's own (between two runs like this one),
 * so that no output gives a mode two. Said once when every figure is of one kind.
 */
function compactDetectability(view: RunView): string | undefined {
  const several = view.profiles.length > 1;
  const figures = view.modes.flatMap((m) => {
    const gate = m.gates.find((g) => g.result.kind === 'regression' && g.result.metric === 'p50' && g.result.mde !== undefined);
    const mde = gate ? gate.result.mde : m.latency.p50?.mde;
    if (mde === undefined) return [];
    const against: MdeAgainst = gate ? 'reference' : 'run';
    return [{ text: `${m.mode}${several ? ` [${m.profile}]` : ''} ${mde === null ? 'none detectable' : sizePercent(mde)}`, against }];
  });
  if (figures.length === 0) return undefined;
  const kinds = new Set(figures.map((f) => f.against));
  if (kinds.size === 1)
    return `With this noise, p50 changes smaller than these are not detectable ${mdeAgainstText(figures[0]!.against)}: ${figures.map((f) => f.text).join(', ')}.`;
  return `With this noise, p50 changes smaller than these are not detectable: ${figures.map((f) => `${f.text} (${mdeAgainstText(f.against)})`).join(', ')}.`;
}

interface AnalysisLines {
  intervals: string;
  rounds?: string;
  gates: { mark: GateMark; line: string }[];
  detectability?: string;
  notes: string[];
}

/** What the lines under the table say about the analysis, whatever the markup. */
export function analysisLines(view: RunView): AnalysisLines | undefined {
  const a = view.analysis;
  if (!a) return undefined;
  const lines: AnalysisLines = {
    intervals: a.smallSample
      ? `${a.smallSample} Overhead paired by interleaved block.`
      : `CI: ${Math.round(a.level * 100)}% bootstrap over valid repetitions (seeded); overhead paired by interleaved block.`,
    gates: listedGates(view).map((g) => ({ mark: gateMark(g), line: g.result.line })),
    notes: a.notes,
  };
  // With arms the stopping line leads every output; without, it goes with the analysis.
  const stopped = view.ab ? undefined : stoppingLine(view);
  if (stopped) lines.rounds = stopped;
  if (a.rounds.length > 1)
    lines.rounds = `${stopped ? `${stopped} ` : ''}Blocks were added at ${a.rounds.length - 1} later look${a.rounds.length > 2 ? 's' : ''} (rounds ${a.rounds.join(', ')}); regression lines show each round and the pooled decision.`;
  const detectability = compactDetectability(view);
  if (detectability) lines.detectability = detectability;
  return lines;
}

/**
 * The gates a gate list shows: every one, except that an A/B gate is said once, in the A/B lead
 * lines every output starts with (abLeadLines), not again among the gates.
 */
export function listedGates(view: RunView): GateView[] {
  return view.ab ? view.gates.filter((g) => g.result.kind !== 'ab') : view.gates;
}

/** The verdict's reasons less those the A/B lead already says (an A/B gate's line is its reason). */
export function reasonsBesideAbLead(view: RunView): string[] {
  if (!view.ab) return view.reasons;
  const said = new Set(view.gates.filter((g) => g.result.kind === 'ab').map((g) => g.result.line));
  return view.reasons.filter((r) => !said.has(r));
}

/**
 * The A/B verdict every output leads with: one line per A/B gate, then how measuring stopped.
 * Empty for runs without arms.
 */
export function abLeadLines(view: RunView): { mark: GateMark; line: string }[] {
  if (!view.ab) return [];
  return view.ab.gates.map((g) => ({ mark: g.mark, line: g.line }));
}

/** "Measured 14 blocks, 4 m 10 s; stopped at look 3 of 5: every gate decided." (load.repetitions auto). */
export function stoppingLine(view: RunView): string | undefined {
  const s = view.stopping;
  if (!s || s.record.reason === 'fixed') return undefined;
  return `Measured ${s.measured}; ${s.reason}.`;
}
