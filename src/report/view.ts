// The read model of a run: what every output shows, built once from a validated RunResult and its
// analysis block. Per load profile × mode: medians with their intervals, overheads against the
// baseline, failed requests, validity and gate decisions; per run: the verdict and its reasons.
// The terminal table, summary.md, the job summary, the PR comment, report.html, the dashboard's
// index and the exports and source-benchmark formats all render from it, so a figure is computed
// in one place and reads the same everywhere. Pure.
//
// Where the analysis has a statistic (bootstrap CI) it is the figure; otherwise (results without
// an analysis block, or statistics the analysis does not carry, like p75) the median over valid
// repetitions with its order-statistic interval, which states its exact coverage.

import { median } from '../analysis/descriptive.ts';
import { medianIntervalLabel, smallSampleIntervalNote } from './detectability-words.ts';
import { type MedianInterval, medianInterval } from '../analysis/median-interval.ts';
import type { AbGateEvidence, Analysis, GateResult, OverheadEstimate, StatisticSummary, StoppingRecord } from '../results/analysis.ts';
import { sumCauses } from '../results/errors.ts';
import type { MetricId } from '../results/metric-ids.ts';
import type { LatencyStat, ModeResult, PlannedTrialRecord, Repetition, RunInfo, RunResult, Verdict } from '../results/types.ts';
import { abLine, stoppingReason, stoppingText } from './ab.ts';
import { armsFromBaseLines, storedArmsFromBase } from './arms-from-base-text.ts';
import { type BaseReference, type ReferenceView, referenceView } from './reference.ts';
import { hasPathEvidence, type PathView, pathView } from './path-words.ts';

/** The latency statistics the view carries (every one k6 reports), in the order tables list them. */
export const SUMMARY_STATS = ['p50', 'p75', 'p90', 'p95', 'p99', 'p999', 'max', 'mean', 'min'] as const satisfies readonly LatencyStat[];
export type SummaryStat = (typeof SUMMARY_STATS)[number];

/**
 * A run-level figure: the median over repetitions and an interval around it. bootstrap: the
 * analysis' confidence interval at `coverage`; order: the order-statistic interval of the median
 * with its exact coverage (below 6 repetitions the range of the values); none: one value.
 */
export interface Figure {
  value: number;
  low: number;
  high: number;
  interval: 'bootstrap' | 'order' | 'none';
  /** Values the figure rests on. */
  n: number;
  coverage: number;
  /** The analysis' minimum detectable relative change (null: none detectable with these repetitions). */
  mde?: number | null;
}

export interface OverheadFigure {
  /** mode − baseline, in ms. */
  difference: Figure;
  /** mode ÷ baseline (absent when the baseline's value is 0). */
  ratio?: Figure;
  /** Blocks in which both the mode and the baseline have a valid repetition. */
  pairs: number;
}

export interface InvalidRepetition {
  mode: string;
  profile: string;
  trial: number;
  round: number;
  /** 1-based position among the mode's repetitions. */
  index: number;
  reasons: string[];
}

export interface GateView {
  result: GateResult;
  /** pending: a regression waiting for its confirmation round. */
  decision: GateResult['decision'] | 'pending';
  /** Reported, not gated, but its evidence says regression (the baseline's own raw values). */
  wouldFail: boolean;
}

export interface ModeView {
  mode: string;
  profile: string;
  mesh?: string;
  isBaseline: boolean;
  repetitions: number;
  valid: number;
  /** No repetition was valid: the figures come from invalid ones and are never compared. */
  fromInvalid: boolean;
  targetRps: number | null;
  /** Each statistic's median over the valid repetitions (over all of them when none is valid). */
  latency: Partial<Record<SummaryStat, Figure>>;
  /**
   * The largest latency of any of those repetitions: what a "max" column shows (latency.max is the
   * median of each repetition's maximum, a different figure that a column called max misstated).
   */
  largestMs?: number;
  achievedRps?: Figure;
  /** Proxy and control-plane cost per 1000 rps, when the analysis has it (Kubernetes platforms). */
  cpuPer1000Rps?: Figure;
  memoryMiBPer1000Rps?: Figure;
  /**
   * Failed requests over every repetition, valid or not, as the error gate counts them; rate is
   * failures ÷ requests (absent when nothing was sent). Causes largest first.
   */
  errors: { requests: number; failures: number; rate?: number; causes: [string, number][] };
  /** Against the baseline mode of the same profile, per statistic; empty for the baseline itself. */
  overhead: Partial<Record<SummaryStat, OverheadFigure>>;
  gates: GateView[];
  invalidRepetitions: InvalidRepetition[];
  /** The mode's target as recorded (a URL, a local hop chain), when it has one. */
  target?: string;
  /** The mode's repetitions as recorded, in run order: the repetitions table, the charts and the source formats list them one by one. */
  records: readonly Repetition[];
  /** What the proxies in its path counted in this profile, when the run read proxy counters (RunView.paths). */
  path?: PathView;
}

export interface AnalysisNotes {
  /** The analysis block as stored (the report shows it as JSON). */
  record: Analysis;
  level: number;
  /** Column label of a median's interval: "95% CI", or "range" below 6 repetitions. */
  intervalLabel: string;
  /** Said when few repetitions make the interval a [min, max] with lower real coverage. */
  smallSample?: string;
  /** The fewest valid repetitions (≥ 2) behind any interval shown. */
  fewestRepetitions: number;
  /** Rounds present: [1], or [1, 2] after a confirmation re-run. */
  rounds: number[];
  detectability: string[];
  notes: string[];
  referenceRunIds: string[];
}

/** One A/B gate (head against base of a mode with arms, one profile, one statistic). */
export interface AbGateView {
  evidence: AbGateEvidence;
  mark: '✓' | '✗' | '⚠';
  /** "proxy head vs base: p50 +0.8% [-1.2%, +2.9%], within 5.00% → pass", with "(14 blocks, 4 m 10 s)" when no stopping line follows (fixed blocks). */
  line: string;
}

/** The A/B verdict every output leads with, when the run has arms. */
export interface AbView {
  gates: AbGateView[];
  /** The worst decision over the A/B gates: fail, else inconclusive, else pass. */
  decision: AbGateEvidence['decision'];
}

/** How measuring stopped (load.repetitions auto), in words. */
export interface StoppingView {
  record: StoppingRecord;
  /** "14 blocks, 4 m 10 s". */
  measured: string;
  /** "stopped at look 3 of 5: every gate decided". */
  reason: string;
}

/**
 * The one input of every renderer (a test keeps renderers from reading RunResult): built once per
 * front end from a validated RunResult, read-only from then on.
 */
export interface RunView {
  verdict: Verdict;
  /** The results file's schema version (the dashboard's index records it). */
  schemaVersion: number;
  /** The run's record: id, suite, platform, start and end, git, tools, machine, environment, why it ended early. */
  run: RunInfo;
  /** The plan as recorded: seed, order, the trials. */
  plan: { seed: number; order: string; trials: readonly PlannedTrialRecord[] };
  /** The validated config as stored, credentials removed (the report prints it; formats read their profiles from it). */
  config: Record<string, unknown>;
  /** Present when the run compared arms (modes[].arms): outputs show it first. */
  ab?: AbView;
  stopping?: StoppingView;
  reasons: string[];
  suite: string;
  platform: string;
  runId: string;
  seed: number;
  baseline: string;
  /** Highest round any repetition ran in. */
  rounds: number;
  profiles: string[];
  /** Mode names in the order the config lists them. */
  modeOrder: string[];
  /** In results order (profiles as they first ran). */
  modes: ModeView[];
  /** Every gate decision, in the analysis' order. */
  gates: GateView[];
  invalid: InvalidRepetition[];
  /** Present when the results carry an analysis block. */
  analysis?: AnalysisNotes;
  /**
   * The history this run was compared with as the PR's base, when its front end looked one up (the
   * action): which runs, and each mode's p50 against theirs. Absent: no lookup, or none found.
   */
  reference?: ReferenceView;
  /**
   * Per mode in config order, over all its profiles: what the proxies in its path counted (their
   * own counters). Absent when no repetition of the run carries path evidence (local, endpoints).
   */
  paths?: { mode: string; path: PathView }[];
  /** Present when the arms were derived from a base config (a PR's base commit): how many modes became arms, and one line each. */
  armsFromBase?: { armed: number; lines: string[] };
}

/** The view of a run; `context.base` is the history its front end looked up as the PR's base, if any. */
export function buildRunView(result: RunResult, context: { base?: BaseReference } = {}): RunView {
  const analysis = result.analysis;
  const gates = (analysis?.gates ?? []).map(gateView);
  const probed = hasPathEvidence(result.modes);
  const modes = result.modes.map((mode) => modeView(result, mode, analysis, gates, probed));
  // A loop, not Math.max(...): an untrusted file may hold 100,000 repetitions, past the argument limit.
  let rounds = 1;
  for (const mode of result.modes) for (const r of mode.repetitions) rounds = Math.max(rounds, r.round);
  const view: RunView = {
    verdict: result.verdict,
    schemaVersion: result.schemaVersion,
    run: result.run,
    plan: result.plan,
    config: result.config,
    reasons: result.verdictReasons,
    suite: result.run.suite,
    platform: result.run.platform,
    runId: result.run.id,
    seed: result.plan.seed,
    baseline: result.baseline,
    rounds,
    profiles: unique(result.modes.map((m) => m.profile)),
    modeOrder: configuredModeOrder(result),
    modes,
    gates,
    invalid: modes.flatMap((m) => m.invalidRepetitions),
  };
  if (analysis) view.analysis = analysisNotes(analysis);
  if (probed)
    view.paths = view.modeOrder.map((mode) => ({
      mode,
      path: pathView(result.modes.filter((m) => m.name === mode).flatMap((m) => m.repetitions)),
    }));
  const fromBase = storedArmsFromBase(result.config);
  if (fromBase) view.armsFromBase = { armed: fromBase.armed.length, lines: armsFromBaseLines(fromBase) };
  if (analysis?.stopping)
    view.stopping = { record: analysis.stopping, measured: stoppingText(analysis.stopping), reason: stoppingReason(analysis.stopping) };
  const ab = analysis?.ab?.gates ?? [];
  if (ab.length > 0) view.ab = abView(ab, view.profiles.length > 1, analysis?.stopping);
  if (context.base) view.reference = referenceView(modes, context.base, (run) => buildRunView(run));
  return view;
}

const AB_MARK = { pass: '✓', fail: '✗', inconclusive: '⚠' } as const;

function abView(gates: readonly AbGateEvidence[], withProfile: boolean, stopping: StoppingRecord | undefined): AbView {
  const decisions = new Set(gates.map((g) => g.decision));
  return {
    gates: gates.map((evidence) => ({
      evidence,
      mark: AB_MARK[evidence.decision],
      // How long it measured goes on the line only when no stopping line follows to say it (fixed blocks).
      line: abLine(evidence, { withProfile, ...(stopping?.reason === 'fixed' ? { stopping } : {}) }),
    })),
    decision: decisions.has('fail') ? 'fail' : decisions.has('inconclusive') ? 'inconclusive' : 'pass',
  };
}

/** The view's row of one mode in one profile. */
export function findRow(view: RunView, mode: string, profile: string): ModeView | undefined {
  return view.modes.find((m) => m.mode === mode && m.profile === profile);
}

function modeView(result: RunResult, mode: ModeResult, analysis: Analysis | undefined, gates: GateView[], probed: boolean): ModeView {
  const valid = mode.repetitions.filter((r) => r.valid);
  const used = valid.length > 0 ? valid : mode.repetitions;
  const summary = analysis?.summaries.find((s) => s.mode === mode.name && s.profile === mode.profile);
  const analysed = (metric: MetricId) => (valid.length > 0 ? summary?.statistics[metric] : undefined);
  const latency: ModeView['latency'] = {};
  const columns = latencyColumns(used);
  for (const stat of SUMMARY_STATS) {
    const figure = figureOf(analysed(stat), columns.get(stat));
    if (figure) latency[stat] = figure;
  }
  const requests = mode.repetitions.reduce((n, r) => n + r.requests, 0);
  const failures = mode.repetitions.reduce((n, r) => n + r.failures, 0);
  const isBaseline = mode.name === result.baseline;
  const largestMs = largestOf(used);
  const row: ModeView = {
    mode: mode.name,
    profile: mode.profile,
    isBaseline,
    repetitions: mode.repetitions.length,
    valid: valid.length,
    fromInvalid: valid.length === 0 && mode.repetitions.length > 0,
    targetRps: mode.repetitions.find((r) => r.targetRps !== null)?.targetRps ?? null,
    latency,
    ...(largestMs !== undefined ? { largestMs } : {}),
    errors: { requests, failures, ...(requests > 0 ? { rate: failures / requests } : {}), causes: sumCauses(mode.repetitions) },
    overhead: isBaseline ? {} : overheadsOf(result, mode, analysis),
    gates: gates.filter((g) => g.result.mode === mode.name && g.result.profile === mode.profile),
    invalidRepetitions: invalidOf(mode),
    records: mode.repetitions,
  };
  if (mode.mesh !== undefined) row.mesh = mode.mesh;
  if (mode.target !== undefined) row.target = mode.target;
  if (probed) row.path = pathView(mode.repetitions);
  const rps = figureOf(
    analysed('achievedRps'),
    used.map((r) => r.achievedRps),
  );
  if (rps) row.achievedRps = rps;
  for (const metric of ['cpuPer1000Rps', 'memoryMiBPer1000Rps'] as const) {
    const figure = figureOf(analysed(metric), []);
    if (figure) row[metric] = figure;
  }
  return row;
}

/** The analysis' statistic when it has one, else the median of `values` with its order-statistic interval. */
function figureOf(statistic: StatisticSummary | undefined, values: ArrayLike<number>): Figure | undefined {
  if (statistic) {
    const { ci, median: value, n } = statistic;
    const figure: Figure = ci
      ? { value, low: ci.low, high: ci.high, interval: 'bootstrap', n, coverage: ci.level }
      : { value, low: value, high: value, interval: 'none', n, coverage: 0 };
    if (statistic.mde !== undefined) figure.mde = statistic.mde;
    return figure;
  }
  return orderFigure(medianInterval(values));
}

function orderFigure(interval: MedianInterval | undefined): Figure | undefined {
  if (!interval) return undefined;
  const { median: value, low, high, n, coverage } = interval;
  return { value, low, high, interval: n > 1 ? 'order' : 'none', n, coverage };
}

function estimateFigure(estimate: OverheadEstimate['difference'], n: number): Figure {
  return estimate.ci
    ? { value: estimate.value, low: estimate.ci.low, high: estimate.ci.high, interval: 'bootstrap', n, coverage: estimate.ci.level }
    : { value: estimate.value, low: estimate.value, high: estimate.value, interval: 'none', n, coverage: 0 };
}

/** The mode's invalid repetitions (a loop: flatMap's empty array per valid one adds up at 100,000). */
function invalidOf(mode: ModeResult): InvalidRepetition[] {
  const out: InvalidRepetition[] = [];
  mode.repetitions.forEach((r, i) => {
    if (!r.valid)
      out.push({ mode: mode.name, profile: mode.profile, trial: r.trial, round: r.round, index: i + 1, reasons: r.invalidReasons });
  });
  return out;
}

/**
 * Each latency statistic over the repetitions that have them, gathered in one pass into typed
 * arrays sized up front: at 100,000 repetitions a pass per statistic re-read every repetition nine
 * times (27× the time of 10,000: cache misses) and growing arrays fed the garbage collector.
 */
/** The largest per-repetition maximum (a loop: a file may hold 100,000 repetitions). */
function largestOf(repetitions: readonly Repetition[]): number | undefined {
  let largest: number | undefined;
  for (const r of repetitions) {
    const max = r.latencyMs?.max;
    if (typeof max === 'number' && Number.isFinite(max) && (largest === undefined || max > largest)) largest = max;
  }
  return largest;
}

function latencyColumns(repetitions: readonly Repetition[]): Columns {
  const columns = new Columns(repetitions.length);
  for (const r of repetitions) {
    const latency = r.latencyMs;
    if (latency) for (const stat of SUMMARY_STATS) columns.add(stat, latency[stat]);
  }
  return columns;
}

/** One column of numbers per latency statistic, each holding at most `capacity`. */
class Columns {
  private readonly values: Record<string, Float64Array> = {};
  private readonly counts: Record<string, number> = {};
  constructor(capacity: number) {
    for (const stat of SUMMARY_STATS) {
      this.values[stat] = new Float64Array(capacity);
      this.counts[stat] = 0;
    }
  }
  add(stat: SummaryStat, value: number): void {
    this.values[stat]![this.counts[stat]!++] = value;
  }
  get(stat: SummaryStat): Float64Array {
    return this.values[stat]!.subarray(0, this.counts[stat]);
  }
}

/**
 * Overheads against the baseline of the same profile: the analysis' paired estimates where it has
 * them, else the median of differences paired by (round, block) over valid repetitions.
 */
function overheadsOf(result: RunResult, mode: ModeResult, analysis: Analysis | undefined): ModeView['overhead'] {
  const out: ModeView['overhead'] = {};
  const base = result.modes.find((m) => m.profile === mode.profile && m.name === result.baseline);
  // Keyed by round, then block: numbers, not a string per repetition (100,000 of them in a large run).
  const baseByBlock = new Map<number, Map<number, Repetition>>();
  for (const r of base?.repetitions ?? []) {
    if (!r.valid) continue;
    let blocks = baseByBlock.get(r.round);
    if (!blocks) baseByBlock.set(r.round, (blocks = new Map()));
    blocks.set(r.block, r);
  }
  // Differences and ratios of every statistic, one pass over the pairs (see latencyColumns).
  const differences = new Columns(mode.repetitions.length);
  const ratios = new Columns(mode.repetitions.length);
  let pairs = 0;
  for (const rep of mode.repetitions) {
    const partner = rep.valid ? baseByBlock.get(rep.round)?.get(rep.block) : undefined;
    const [m, b] = [rep.latencyMs, partner?.latencyMs];
    if (!m || !b) continue;
    pairs++;
    for (const stat of SUMMARY_STATS) {
      differences.add(stat, m[stat] - b[stat]);
      if (b[stat] > 0) ratios.add(stat, m[stat] / b[stat]);
    }
  }
  for (const stat of SUMMARY_STATS) {
    const estimate = analysis?.overheads.find((o) => o.mode === mode.name && o.profile === mode.profile && o.metric === stat);
    if (estimate) {
      out[stat] = {
        difference: estimateFigure(estimate.difference, estimate.pairs),
        ...(estimate.ratio ? { ratio: estimateFigure(estimate.ratio, estimate.pairs) } : {}),
        pairs: estimate.pairs,
      };
      continue;
    }
    if (!base) continue;
    const difference = orderFigure(medianInterval(differences.get(stat)));
    if (!difference) continue;
    const ratio = orderFigure(medianInterval(ratios.get(stat)));
    out[stat] = { difference, ...(ratio ? { ratio } : {}), pairs };
  }
  return out;
}

function gateView(gate: GateResult): GateView {
  return {
    result: gate,
    decision: gate.pendingConfirmation ? 'pending' : gate.decision,
    wouldFail: gate.reportOnly === true && gate.evidence?.significant === true && gate.evidence.practical === true,
  };
}

function analysisNotes(analysis: Analysis): AnalysisNotes {
  const sizes = analysis.summaries.map((s) => s.valid).filter((n) => n >= 2);
  const fewest = sizes.length > 0 ? Math.min(...sizes) : Infinity;
  const notes: AnalysisNotes = {
    record: analysis,
    level: analysis.level,
    intervalLabel: medianIntervalLabel(fewest, analysis.level),
    fewestRepetitions: fewest,
    rounds: analysis.rounds,
    detectability: analysis.detectability,
    notes: analysis.notes,
    referenceRunIds: analysis.reference?.runIds ?? [],
  };
  const small = smallSampleIntervalNote(fewest, analysis.level);
  if (small) notes.smallSample = small;
  return notes;
}

/** Mode names in the order the config lists them (results list them in trial order); unlisted names keep their order, last. */
export function configuredModeOrder(result: RunResult): string[] {
  const configured = (result.config as { modes?: unknown }).modes;
  const order = Array.isArray(configured)
    ? configured.map((m) => (m as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string')
    : [];
  return inOrder(unique(result.modes.map((m) => m.name)), order);
}

/** Names sorted by their place in `order`; names it does not list keep their order, last. */
export function inOrder(names: string[], order: string[]): string[] {
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return names
    .map((name, i) => ({ name, i }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.i - b.i)
    .map((x) => x.name);
}

/** The middle of values (undefined for none): the one median every output uses. */
export function medianOf(values: readonly number[]): number | undefined {
  return values.length === 0 ? undefined : median(values);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** github.dashboardUrl (--dashboard-url): the run's report and summary link to the trend it joins. */
export function dashboardUrlOf(view: RunView): string | undefined {
  const url = (view.config.github as { dashboardUrl?: unknown } | undefined)?.dashboardUrl;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : undefined;
}
