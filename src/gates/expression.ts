// Parser for gate expressions, written the way k6 thresholds are ("p(95) < 250ms",
// "error_rate < 1%"), plus overhead budgets against the baseline mode ("overhead.p99 < 2ms",
// "overhead_ratio.p90 < 1.5") and an optional scope ("mode=linkerd: p(99) < 5ms").
// The config schema calls parseGateExpression, so a bad expression is a config error.
import { quote } from '../util/quote.ts';
import type { GateMeasure } from '../results/analysis.ts';
import type { MetricId } from '../results/metric-ids.ts';
import { METRICS } from '../results/metrics.ts';

export type Comparator = '<' | '<=' | '>' | '>=';

export interface GateScope {
  modes?: string[];
  profiles?: string[];
}

export interface GateExpression {
  text: string;
  kind: 'threshold' | 'overhead';
  scope: GateScope;
  metric: MetricId;
  measure: GateMeasure;
  op: Comparator;
  /** In the metric's base unit (ms, fraction, rps, millicores, MiB), or a plain ratio. */
  limit: number;
}

export type ParseResult = { ok: true; value: GateExpression } | { ok: false; error: string };

const EXAMPLES =
  '"p(95) < 250ms", "error_rate < 1%", "achieved_rps >= 99%", "overhead.p99 < 2ms", "overhead_ratio.p90 < 1.5", "mode=linkerd: p(99) < 5ms"';

const METRIC_NAMES: Record<string, MetricId> = {
  'p(50)': 'p50',
  p50: 'p50',
  med: 'p50',
  median: 'p50',
  'p(75)': 'p75',
  p75: 'p75',
  'p(90)': 'p90',
  p90: 'p90',
  'p(95)': 'p95',
  p95: 'p95',
  'p(99)': 'p99',
  p99: 'p99',
  'p(99.9)': 'p999',
  'p99.9': 'p999',
  p999: 'p999',
  avg: 'mean',
  mean: 'mean',
  min: 'min',
  max: 'max',
  error_rate: 'errorRate',
  http_req_failed: 'errorRate',
  achieved_rps: 'achievedRps',
  rps: 'achievedRps',
  cpu_per_1000rps: 'cpuPer1000Rps',
  memory_per_1000rps: 'memoryMiBPer1000Rps',
  memory_mib_per_1000rps: 'memoryMiBPer1000Rps',
};

const OVERHEAD_ALLOWED = new Set<MetricId>([
  'min',
  'mean',
  'p50',
  'p75',
  'p90',
  'p95',
  'p99',
  'p999',
  'max',
  'cpuPer1000Rps',
  'memoryMiBPer1000Rps',
]);

class GateSyntaxError extends Error {}

export function parseGateExpression(text: string): ParseResult {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    if (!(error instanceof GateSyntaxError)) throw error;
    return { ok: false, error: `cannot read gate ${quote(text)}: ${error.message}` };
  }
}

function parse(text: string): GateExpression {
  if (typeof text !== 'string' || text.trim() === '') throw new GateSyntaxError(`it is empty; write one such as ${EXAMPLES}`);
  const { scope, body } = splitScope(text.trim());
  const match = /^([^<>=!\s]+)\s*(<=|>=|==|!=|<|>|=)\s*(.*)$/.exec(body);
  if (!match) {
    if (/^[^<>=!]+$/.test(body))
      throw new GateSyntaxError(`no comparison found; expected <metric> <, <=, > or >= <value>, e.g. ${EXAMPLES}`);
    throw new GateSyntaxError(`expected <metric> <operator> <value>, e.g. ${EXAMPLES}`);
  }
  const [, metricText, opText, valueText] = match as unknown as [string, string, string, string];
  if (opText === '==' || opText === '=' || opText === '!=') {
    throw new GateSyntaxError(`operator "${opText}" is not supported; use <, <=, > or >= (measurements are never exactly equal)`);
  }
  const op = opText as Comparator;
  const { kind, metric, overheadForm } = parseMetric(metricText.toLowerCase());
  if (valueText.trim() === '') throw new GateSyntaxError(`missing the value after "${opText}"`);
  const { measure, limit } = parseLimit(kind, metric, overheadForm, valueText.trim());
  return { text, kind, scope, metric, measure, op, limit };
}

function splitScope(text: string): { scope: GateScope; body: string } {
  const colon = text.indexOf(':');
  if (colon < 0) return { scope: {}, body: text };
  const head = text.slice(0, colon).trim();
  const body = text.slice(colon + 1).trim();
  const scope: GateScope = {};
  const terms = head.split(/[\s;]+/).filter(Boolean);
  if (terms.length === 0) throw new GateSyntaxError('empty scope before ":"; write mode=NAME: or leave the scope out');
  for (const term of terms) {
    const eq = /^([a-z_]+)=(.+)$/i.exec(term);
    if (!eq) {
      if (/^http_req_duration$/i.test(term)) {
        throw new GateSyntaxError(`"${term}:" is not needed; latency gates always apply to request duration, write e.g. "p(95) < 250ms"`);
      }
      throw new GateSyntaxError(
        `"${term}" before ":" is not a scope; expected mode=NAME or profile=NAME (several names separated by commas)`,
      );
    }
    const key = eq[1]!.toLowerCase();
    const names = eq[2]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length === 0) throw new GateSyntaxError(`scope "${term}" names nothing`);
    if (key === 'mode' || key === 'modes') scope.modes = [...(scope.modes ?? []), ...names];
    else if (key === 'profile' || key === 'profiles') scope.profiles = [...(scope.profiles ?? []), ...names];
    else throw new GateSyntaxError(`unknown scope "${eq[1]}"; expected mode=NAME or profile=NAME`);
  }
  if (body === '') throw new GateSyntaxError('nothing after the scope; expected e.g. "mode=linkerd: p(99) < 5ms"');
  return { scope, body };
}

function parseMetric(text: string): { kind: GateExpression['kind']; metric: MetricId; overheadForm?: 'overhead' | 'overhead_ratio' } {
  const overhead = /^(overhead|overhead_ratio)\.(.+)$/.exec(text);
  const name = overhead ? overhead[2]! : text;
  const metric = METRIC_NAMES[name];
  if (!metric) {
    const percentile = /^p\((\d+(?:\.\d+)?)\)$/.exec(name) ?? /^p(\d+)$/.exec(name);
    if (percentile) {
      throw new GateSyntaxError(`percentile ${name} is not recorded; use one of p(50), p(75), p(90), p(95), p(99), p(99.9)`);
    }
    if (/^overhead/.test(text) && !overhead) {
      throw new GateSyntaxError(`"${text}" needs a statistic, e.g. overhead.p99 or overhead_ratio.p90`);
    }
    const known = 'p(50)…p(99.9), avg, min, max, error_rate, achieved_rps, cpu_per_1000rps, memory_per_1000rps';
    throw new GateSyntaxError(
      `unknown metric "${name}"; expected one of ${known}${overhead ? '' : ', or overhead.<stat> / overhead_ratio.<stat>'}`,
    );
  }
  if (!overhead) return { kind: 'threshold', metric };
  if (!OVERHEAD_ALLOWED.has(metric)) {
    throw new GateSyntaxError(
      `${overhead[1]}.${name} is not supported; overhead budgets apply to latency statistics and cpu/memory per 1000 rps`,
    );
  }
  return { kind: 'overhead', metric, overheadForm: overhead[1] as 'overhead' | 'overhead_ratio' };
}

function parseLimit(
  kind: GateExpression['kind'],
  metric: MetricId,
  overheadForm: 'overhead' | 'overhead_ratio' | undefined,
  text: string,
): { measure: GateMeasure; limit: number } {
  const match = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zµ%×]*)$/i.exec(text);
  if (!match) throw new GateSyntaxError(`"${text}" is not a number with an optional unit (e.g. 250ms, 1%, 1.5)`);
  const number = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  const unitDefinition = METRICS[metric].unit;
  if (overheadForm === 'overhead_ratio') {
    if (unit !== '' && unit !== 'x' && unit !== '×') {
      throw new GateSyntaxError(
        `overhead_ratio is a plain ratio (mode ÷ baseline), got unit "${match[2]}"; write e.g. 1.5, or overhead.${metricLabel(metric)} < 50% for a percentage`,
      );
    }
    if (number <= 0) throw new GateSyntaxError(`overhead_ratio must be > 0, got ${number}`);
    return { measure: 'ratio', limit: number };
  }
  if (kind === 'overhead' && unit === '%') return { measure: 'relative', limit: number / 100 };
  const measure: GateMeasure = kind === 'overhead' ? 'difference' : 'value';
  switch (unitDefinition) {
    case 'ms':
      return { measure, limit: number * durationFactor(unit, kind) };
    case 'fraction':
      if (unit !== '' && unit !== '%')
        throw new GateSyntaxError(`error_rate takes a percentage or a fraction, got unit "${match[2]}"; write e.g. 1% or 0.01`);
      if (unit === '' && number > 1) throw new GateSyntaxError(`error_rate ${number} is more than 1 (100%); did you mean ${number}%?`);
      // A rate is 0–100%: beyond that the gate could never fail (or never pass), a silent no-op.
      if (measure === 'value' && (number < 0 || (unit === '%' ? number > 100 : number > 1))) {
        throw new GateSyntaxError(`error_rate ${match[1]}${unit} is outside 0–100%; write e.g. 1% or 0.01`);
      }
      // `error_rate < 1` reads as 1% to most people but means 100%: require the unit at 1.
      if (measure === 'value' && unit === '' && number === 1)
        throw new GateSyntaxError('error_rate 1 means 100% as a fraction; write 100% if that is meant, or 1% for one percent');
      return { measure, limit: unit === '%' ? number / 100 : number };
    case 'rps':
      if (unit === '%') return { measure: 'fraction-of-target', limit: number / 100 };
      if (unit !== '' && unit !== 'rps' && unit !== '/s') {
        throw new GateSyntaxError(
          `achieved_rps takes a percentage of the target rate (99%) or requests per second (950rps), got unit "${match[2]}"`,
        );
      }
      return { measure, limit: number };
    case 'millicores':
      return { measure, limit: number * cpuFactor(unit) };
    case 'MiB':
      return { measure, limit: number * memoryFactor(unit) };
  }
}

function durationFactor(unit: string, kind: GateExpression['kind']): number {
  switch (unit) {
    case '':
    case 'ms':
      return 1;
    case 's':
      return 1000;
    case 'us':
    case 'µs':
      return 0.001;
    case '%':
      throw new GateSyntaxError(
        kind === 'threshold'
          ? 'a latency threshold needs a duration (250ms, 1s), not a percentage; for overhead use overhead.p99 < 10%'
          : 'unexpected "%"',
      );
    default:
      throw new GateSyntaxError(`unknown duration unit "${unit}"; use us, ms or s (a bare number means ms, as in k6)`);
  }
}

function cpuFactor(unit: string): number {
  if (unit === 'm') return 1;
  if (unit === 'core' || unit === 'cores' || unit === 'vcpu' || unit === 'cpu') return 1000;
  if (unit === '') throw new GateSyntaxError('CPU needs a unit: millicores (200m) or cores (0.2cores)');
  throw new GateSyntaxError(`unknown CPU unit "${unit}"; use m (millicores) or cores`);
}

function memoryFactor(unit: string): number {
  if (unit === 'mib' || unit === 'mi') return 1;
  if (unit === 'gib' || unit === 'gi') return 1024;
  if (unit === 'kib' || unit === 'ki') return 1 / 1024;
  if (unit === 'mb') return 1e6 / 2 ** 20;
  if (unit === 'gb') return 1e9 / 2 ** 20;
  if (unit === '') throw new GateSyntaxError('memory needs a unit: MiB or GiB (e.g. 40MiB)');
  throw new GateSyntaxError(`unknown memory unit "${unit}"; use KiB, MiB, GiB, MB or GB`);
}

function metricLabel(metric: MetricId): string {
  return METRICS[metric].label.replace(/^p\((\d+)\)$/, 'p$1');
}

export function compare(value: number, op: Comparator, limit: number): boolean {
  switch (op) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
  }
}

/** Scope match: an absent list matches everything. */
export function inScope(scope: GateScope, mode: string, profile: string): boolean {
  return (!scope.modes || scope.modes.includes(mode)) && (!scope.profiles || scope.profiles.includes(profile));
}

export interface GateScopeProblem {
  path: string;
  message: string;
}

/**
 * Gates whose scope names a mode or load profile the config does not have: a typo there would
 * make the gate silently apply to nothing. For the config's cross-field checks.
 */
export function gateScopeProblems(
  gates: { thresholds: readonly string[]; overhead: readonly string[] },
  modeNames: readonly string[],
  profileNames: readonly string[],
): GateScopeProblem[] {
  const problems: GateScopeProblem[] = [];
  for (const list of ['thresholds', 'overhead'] as const) {
    gates[list].forEach((text, i) => {
      const parsed = parseGateExpression(text);
      if (!parsed.ok) return;
      // One problem per gate, however many names its scope lists (a scope of 50,000 unknown
      // names once made 50,000 messages, each repeating the whole gate).
      const unknown = (names: readonly string[] | undefined, known: readonly string[]) => [
        ...new Set((names ?? []).filter((n) => !known.includes(n))),
      ];
      const gate = quote(text);
      const modes = unknown(parsed.value.scope.modes, modeNames);
      if (modes.length > 0)
        problems.push({
          path: `gates.${list}[${i}]`,
          message: `gate ${gate} names ${namesText('mode', modes)}, which ${modes.length === 1 ? 'is' : 'are'} not configured (modes: ${modeNames.join(', ')})`,
        });
      const profiles = unknown(parsed.value.scope.profiles, profileNames);
      if (profiles.length > 0)
        problems.push({
          path: `gates.${list}[${i}]`,
          message: `gate ${gate} names ${namesText('load profile', profiles)}, which ${profiles.length === 1 ? 'is' : 'are'} not configured (profiles: ${profileNames.join(', ')})`,
        });
    });
  }
  return problems;
}

const NAMED = 5;

function namesText(what: string, names: string[]): string {
  const shown = names.slice(0, NAMED).map((n) => quote(n, 40));
  const more = names.length > NAMED ? ` and ${names.length - NAMED} more` : '';
  return `${what}${names.length === 1 ? '' : 's'} ${shown.join(', ')}${more}`;
}
