// Reads a RunResult into what the job summary and the PR comment show. Pure and defensive: the
// analysis block is written by the analysis stage and may be absent (older runs, a run that
// ended early) or shaped differently from what we expect, and in the fork-safe workflow the whole
// file is an untrusted artifact. Where the analysis gives a statistic with a confidence interval
// we show it; otherwise we fall back to the median and the range over valid repetitions, and say so.
import { formatCauses, sumCauses } from '../results/errors.ts';
import type { Repetition, RunResult } from '../results/types.ts';
import { median } from '../analysis/descriptive.ts';

export type Interval = 'ci' | 'range' | 'none';

export interface StatView {
  value: number;
  low?: number;
  high?: number;
  /** ci: a confidence interval from the analysis; range: min–max of repetitions. */
  interval: Interval;
}

export interface ModeView {
  mode: string;
  profile: string;
  mesh?: string;
  validRepetitions: number;
  totalRepetitions: number;
  p50?: StatView;
  p90?: StatView;
  p99?: StatView;
  achievedRps?: StatView;
  errorRate?: StatView;
  /** Failed requests over every repetition, valid or not (what the error gate counts). */
  failures: number;
  /** "HTTP 500 × 2,000; timeout × 3" when some requests failed. */
  errorCauses?: string;
  /** Against the baseline mode of the same run and profile; absent for the baseline itself. */
  overheadP50Ms?: StatView;
  overheadP50Ratio?: StatView;
  overheadP99Ms?: StatView;
  /** CPU millicores and MiB per 1000 rps of achieved load (Kubernetes platforms). */
  cpuPer1000Rps?: StatView;
  memoryMiBPer1000Rps?: StatView;
}

export interface GateView {
  title: string;
  decision: 'pass' | 'fail' | 'inconclusive' | 'skipped';
  /** Not failed: a pass, an inconclusive (a warning) or a skip. */
  passed: boolean;
  mode?: string;
  profile?: string;
  detail: string;
  /** Reported, not gated (e.g. the baseline's raw values), but its evidence says regression. */
  wouldFail?: boolean;
  /** Inconclusive gates: repetitions per side that would settle it. */
  repetitionsToSettle?: number;
}

export interface InvalidRepetition {
  mode: string;
  profile: string;
  trial: number;
  round: number;
  reasons: string[];
}

export interface RunView {
  verdict: 'pass' | 'fail' | 'inconclusive' | 'invalid';
  reasons: string[];
  suite: string;
  platform: string;
  runId: string;
  baseline: string;
  seed?: number;
  rounds: number;
  modes: ModeView[];
  gates: GateView[];
  /** "changes under 7% on p50 are not detectable" style lines. */
  detectability: string[];
  /** Things to know that are not gate decisions (skipped gates, missing data). */
  notes: string[];
  invalid: InvalidRepetition[];
  /** True when the statistics came from the analysis block. */
  analyzed: boolean;
}

type Obj = Record<string, unknown>;

const STATS = ['p50', 'p90', 'p99'] as const;

export function viewRun(result: RunResult): RunView {
  const analysis = isObject(result.analysis) ? result.analysis : undefined;
  const baseline = str(result.baseline) || str(result.modes?.[0]?.name) || '';
  const modes = (Array.isArray(result.modes) ? result.modes : [])
    .filter(isObject)
    .map((m) => fallbackMode(m as unknown as RunResult['modes'][number]));
  const analyzedModes = analysis ? readAnalyzedModes(analysis) : [];
  for (const view of modes) {
    const found = analyzedModes.find((a) => a.mode === view.mode && (a.profile === undefined || a.profile === view.profile));
    if (found) Object.assign(view, definedOnly(found.stats));
  }
  fillOverheads(modes, baseline, analysis);
  sortModes(modes, baseline, result.config);
  const rounds = Math.max(1, ...allRepetitions(result).map((r) => (typeof r.round === 'number' ? r.round : 1)));
  const verdict = (['pass', 'fail', 'inconclusive', 'invalid'] as const).find((v) => v === result.verdict) ?? 'invalid';
  return {
    verdict,
    reasons: (Array.isArray(result.verdictReasons) ? result.verdictReasons : []).map(String),
    suite: str(result.run?.suite) || 'default',
    platform: str(result.run?.platform),
    runId: str(result.run?.id),
    baseline,
    seed: typeof result.plan?.seed === 'number' ? result.plan.seed : undefined,
    rounds,
    modes,
    gates: analysis ? readGates(analysis) : [],
    detectability: analysis ? readDetectability(analysis) : [],
    notes: analysis && Array.isArray(analysis.notes) ? analysis.notes.filter((n): n is string => typeof n === 'string') : [],
    invalid: readInvalid(result),
    analyzed: analyzedModes.length > 0,
  };
}

function allRepetitions(result: RunResult): Repetition[] {
  return (Array.isArray(result.modes) ? result.modes : []).flatMap((m) =>
    isObject(m) && Array.isArray(m.repetitions) ? m.repetitions.filter(isObject) : [],
  );
}

function fallbackMode(mode: RunResult['modes'][number]): ModeView {
  const reps = (Array.isArray(mode.repetitions) ? mode.repetitions : []).filter(isObject);
  const valid = reps.filter((r) => r.valid === true);
  const pick = (get: (r: Repetition) => unknown) => rangeStat(valid.map(get).filter(isFiniteNumber));
  return {
    mode: str(mode.name),
    profile: str(mode.profile),
    mesh: typeof mode.mesh === 'string' ? mode.mesh : undefined,
    validRepetitions: valid.length,
    totalRepetitions: reps.length,
    p50: pick((r) => r.latencyMs?.p50),
    p90: pick((r) => r.latencyMs?.p90),
    p99: pick((r) => r.latencyMs?.p99),
    achievedRps: pick((r) => r.achievedRps),
    errorRate: pick((r) => r.errorRate),
    failures: reps.reduce((n, r) => n + (isFiniteNumber(r.failures) ? r.failures : 0), 0),
    ...errorCausesOf(reps),
  };
}

function errorCausesOf(reps: Repetition[]): { errorCauses?: string } {
  const causes = reps.map((r) => ({
    errorCauses: Object.fromEntries(
      Object.entries(isObject(r.errorCauses) ? r.errorCauses : {}).filter((e): e is [string, number] => isFiniteNumber(e[1])),
    ),
  }));
  const summed = sumCauses(causes);
  return summed.length > 0 ? { errorCauses: formatCauses(summed) } : {};
}

function rangeStat(values: number[]): StatView | undefined {
  if (values.length === 0) return undefined;
  if (values.length === 1) return { value: values[0]!, interval: 'none' };
  return { value: median(values), low: Math.min(...values), high: Math.max(...values), interval: 'range' };
}

/** Baseline first, then the order the config lists modes in (results follow trial order). */
function sortModes(modes: ModeView[], baseline: string, config: unknown): void {
  const listed = isObject(config) && Array.isArray(config.modes) ? config.modes.map((m) => (isObject(m) ? str(m.name) : '')) : [];
  const rank = (m: ModeView) => (m.mode === baseline ? -1 : listed.includes(m.mode) ? listed.indexOf(m.mode) : listed.length);
  const profiles = [...new Set(modes.map((m) => m.profile))];
  modes.sort((a, b) => profiles.indexOf(a.profile) - profiles.indexOf(b.profile) || rank(a) - rank(b));
}

// ---- analysis block (shape owned by the analysis stage; read tolerantly) ----

interface AnalyzedMode {
  mode: string;
  profile?: string;
  stats: Partial<Pick<ModeView, 'p50' | 'p90' | 'p99' | 'achievedRps' | 'errorRate' | 'cpuPer1000Rps' | 'memoryMiBPer1000Rps'>>;
}

const STAT_ALIASES: Record<string, keyof AnalyzedMode['stats']> = {
  p50: 'p50',
  p90: 'p90',
  p99: 'p99',
  achievedRps: 'achievedRps',
  achieved_rps: 'achievedRps',
  rps: 'achievedRps',
  errorRate: 'errorRate',
  error_rate: 'errorRate',
  cpuPer1000Rps: 'cpuPer1000Rps',
  memoryMiBPer1000Rps: 'memoryMiBPer1000Rps',
};

function readAnalyzedModes(analysis: Obj): AnalyzedMode[] {
  const list = firstArray(analysis, ['modes', 'summaries', 'perMode']);
  return list.filter(isObject).flatMap((entry) => {
    const mode = str(entry.mode) || str(entry.name);
    if (!mode) return [];
    const profile = str(entry.profile) || undefined;
    const holder = isObject(entry.stats) ? entry.stats : isObject(entry.statistics) ? entry.statistics : entry;
    const stats: AnalyzedMode['stats'] = {};
    for (const [key, target] of Object.entries(STAT_ALIASES)) {
      const stat = readStat(holder[key] ?? (isObject(holder.latencyMs) ? holder.latencyMs[key] : undefined));
      if (stat && stats[target] === undefined) stats[target] = stat;
    }
    return [{ mode, profile, stats }];
  });
}

/** A number, or {median|value|estimate|point, ci:[lo,hi] | ci:{low,high} | low/high}. */
export function readStat(value: unknown): StatView | undefined {
  if (isFiniteNumber(value)) return { value, interval: 'none' };
  if (!isObject(value)) return undefined;
  const point = firstNumber(value, ['median', 'value', 'estimate', 'point', 'mean']);
  if (point === undefined) return undefined;
  const ci = value.ci ?? value.confidenceInterval ?? value.interval;
  let low: number | undefined;
  let high: number | undefined;
  if (Array.isArray(ci) && ci.length === 2 && isFiniteNumber(ci[0]) && isFiniteNumber(ci[1])) [low, high] = [ci[0], ci[1]];
  else if (isObject(ci)) {
    low = firstNumber(ci, ['low', 'lower', 'lo', 'min']);
    high = firstNumber(ci, ['high', 'upper', 'hi', 'max']);
  } else {
    low = firstNumber(value, ['low', 'lower', 'ciLow']);
    high = firstNumber(value, ['high', 'upper', 'ciHigh']);
  }
  return low !== undefined && high !== undefined ? { value: point, low, high, interval: 'ci' } : { value: point, interval: 'none' };
}

function fillOverheads(modes: ModeView[], baseline: string, analysis: Obj | undefined): void {
  const entries = analysis ? firstArray(analysis, ['overheads', 'overhead']).filter(isObject) : [];
  for (const view of modes) {
    if (view.mode === baseline) continue;
    const mine = entries.filter((e) => (str(e.mode) || str(e.name)) === view.mode && (!str(e.profile) || str(e.profile) === view.profile));
    for (const entry of mine) {
      // Either one entry per statistic ({statistic:'p50', diffMs, ratio}) or {p50:{diffMs,ratio}}.
      const statName = str(entry.metric) || str(entry.statistic);
      const perStat: [string, Obj][] = statName
        ? [[statName, entry]]
        : STATS.flatMap((s) => (isObject(entry[s]) ? [[s, entry[s] as Obj] as [string, Obj]] : []));
      for (const [stat, body] of perStat) {
        const diff = readStat(body.diffMs ?? body.differenceMs ?? body.deltaMs ?? body.ms ?? body.difference);
        const ratio = readStat(body.ratio);
        if (stat === 'p50') {
          if (diff) view.overheadP50Ms = diff;
          if (ratio) view.overheadP50Ratio = ratio;
        }
        if (stat === 'p99' && diff) view.overheadP99Ms = diff;
      }
    }
    if (!view.overheadP50Ms) {
      const base = modes.find((m) => m.mode === baseline && m.profile === view.profile);
      if (base?.p50 && view.p50) {
        view.overheadP50Ms = { value: view.p50.value - base.p50.value, interval: 'none' };
        if (base.p50.value > 0) view.overheadP50Ratio = { value: view.p50.value / base.p50.value, interval: 'none' };
      }
      if (base?.p99 && view.p99 && !view.overheadP99Ms) view.overheadP99Ms = { value: view.p99.value - base.p99.value, interval: 'none' };
    }
  }
}

function readGates(analysis: Obj): GateView[] {
  return firstArray(analysis, ['gates', 'decisions', 'checks'])
    .filter(isObject)
    .flatMap((gate) => {
      const decision = gateDecision(gate);
      if (decision === undefined) return [];
      const title = str(gate.gate) || str(gate.expression) || str(gate.title) || str(gate.name) || str(gate.kind) || 'gate';
      const detail = [str(gate.line) || str(gate.reason) || str(gate.message) || str(gate.summary) || str(gate.detail), str(gate.note)]
        .filter(Boolean)
        .join(' — ');
      const evidence = isObject(gate.evidence) ? gate.evidence : {};
      const wouldFail = gate.reportOnly === true && evidence.significant === true && evidence.practical === true;
      const settle = typeof gate.repetitionsToSettle === 'number' ? { repetitionsToSettle: gate.repetitionsToSettle } : {};
      return [
        {
          title,
          decision,
          passed: decision !== 'fail',
          mode: str(gate.mode) || undefined,
          profile: str(gate.profile) || undefined,
          detail,
          ...(wouldFail ? { wouldFail } : {}),
          ...settle,
        },
      ];
    });
}

function gateDecision(gate: Obj): GateView['decision'] | undefined {
  if (typeof gate.passed === 'boolean') return gate.passed ? 'pass' : 'fail';
  const decision = str(gate.decision) || str(gate.status) || str(gate.outcome);
  if (/^(pass|passed|ok|met)$/i.test(decision)) return 'pass';
  if (/^(fail|failed|regression|regressed|violated|exceeded)$/i.test(decision)) return 'fail';
  if (/^(skip|skipped)$/i.test(decision)) return 'skipped';
  if (/^inconclusive$/i.test(decision)) return 'inconclusive';
  return undefined;
}

function readDetectability(analysis: Obj): string[] {
  const list = firstArray(analysis, ['detectability', 'mde', 'minimumDetectableEffects']);
  const lines = list.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (!isObject(entry)) return [];
    if (str(entry.text) || str(entry.message)) return [str(entry.text) || str(entry.message)];
    const stat = str(entry.statistic) || str(entry.stat);
    const pctValue = firstNumber(entry, ['pct', 'percent', 'mdePct']);
    const fraction = firstNumber(entry, ['fraction', 'mde', 'relative']);
    const value = pctValue ?? (fraction !== undefined ? fraction * 100 : undefined);
    if (!stat || value === undefined) return [];
    const where = [str(entry.mode), str(entry.profile)].filter(Boolean).join(', ');
    return [
      `with this noise, changes under ${value.toFixed(value < 10 ? 1 : 0)}% on ${stat}${where ? ` (${where})` : ''} are not detectable`,
    ];
  });
  if (typeof analysis.mde === 'string') lines.push(analysis.mde);
  return lines;
}

function readInvalid(result: RunResult): InvalidRepetition[] {
  return (Array.isArray(result.modes) ? result.modes : []).filter(isObject).flatMap((mode) =>
    (Array.isArray(mode.repetitions) ? mode.repetitions : [])
      .filter((r) => isObject(r) && r.valid !== true)
      .map((r) => ({
        mode: str(mode.name),
        profile: str(mode.profile),
        trial: typeof r.trial === 'number' ? r.trial : -1,
        round: typeof r.round === 'number' ? r.round : 1,
        reasons: Array.isArray(r.invalidReasons) && r.invalidReasons.length > 0 ? r.invalidReasons.map(String) : ['marked invalid'],
      })),
  );
}

// ---- helpers ----

function firstArray(obj: Obj, keys: string[]): unknown[] {
  for (const key of keys) if (Array.isArray(obj[key])) return obj[key] as unknown[];
  return [];
}

function firstNumber(obj: Obj, keys: string[]): number | undefined {
  for (const key of keys) if (isFiniteNumber(obj[key])) return obj[key] as number;
  return undefined;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
