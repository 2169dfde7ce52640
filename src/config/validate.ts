// Turns a raw object (from YAML, action inputs or flags) into one typed Config, or a ConfigError
// listing every problem with its field path, the value seen and what was expected.
import { mirrorImage } from './image-mirror.ts';
import { z } from 'zod';
import {
  maxBlocksOf,
  maxDurationOf,
  configSchema,
  repetitionLength,
  describeValue,
  type LoadProfileConfig,
  type ModeConfig,
  type ParsedConfig,
} from './schema.ts';
import { armProblems, expandArms, resolveBaseline } from './arms.ts';
import { istioRevisionProblems } from './istio-revision-problems.ts';
import { budgetProblems } from './budget.ts';
import { abGateProblems, MIN_ARM_PODS } from './ab-checks.ts';
import { parseDurationMs } from './duration.ts';
import { didYouMean } from '../util/did-you-mean.ts';
import { UsageError } from '../util/errors.ts';
import { gateScopeProblems } from '../gates/expression.ts';
import { ingressProblems } from './ingress-checks.ts';
import { kindGeneratorProblems } from './kind-checks.ts';
import { k6LimitProblems, platformProblems } from './applicability.ts';
import { engineProblems } from './engine-checks.ts';
import type { ConfigProblem } from './problem.ts';
import { isStructural, refusedPaths, underOmitted, withoutPaths } from './omit.ts';
import { formatLimit, LIMITS } from './limits.ts';
import { quote } from '../util/quote.ts';

export type { ConfigProblem } from './problem.ts';
import type { ArmsFromBase } from './arms-from-base.ts';

/** Problems listed in one error; the rest are counted, so a file of 100k typos prints a screenful. */
const MAX_LISTED_PROBLEMS = 20;

export class ConfigError extends UsageError {
  constructor(
    readonly source: string,
    readonly problems: ConfigProblem[],
  ) {
    super(describeProblems(source, problems));
    this.name = 'ConfigError';
  }
}

export function describeProblems(source: string, problems: ConfigProblem[]): string {
  const origins = new Set(problems.map((p) => p.origin ?? source));
  const single = origins.size === 1 ? [...origins][0]! : undefined;
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS);
  const lines = shown.map((p) => `  - ${p.path || '(top level)'}${single ? '' : ` (${p.origin ?? source})`}: ${p.message}`);
  if (problems.length > shown.length) lines.push(`  … and ${problems.length - shown.length} more`);
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return `${single ?? 'the configuration'} has ${count}:\n${lines.join('\n')}`;
}

export interface LoadProfile extends Omit<LoadProfileConfig, 'repetitions' | 'duration' | 'warmup'> {
  name: string;
  /** As written, else the default (REPETITION_DEFAULTS: shorter with arms). */
  duration: string;
  warmup: string;
  /** Blocks of the first look: the fixed count, or plan.budget.minBlocks under auto. */
  repetitions: number;
  /** load.repetitions auto: blocks are added at the design's looks until the gates decide. */
  untilDecided: boolean;
  durationMs: number;
  warmupMs: number;
  timeoutMs: number;
  expectedLatencyMs: number;
  pauseMs: number;
}

/** The validated, normalized configuration every stage reads. */
export interface Config extends Omit<ParsedConfig, 'load' | 'baseline' | 'modes' | 'plan' | 'kubernetes'> {
  baseline: string;
  /** kubernetes.replicas resolved: as written, else 1, 2 with arms. */
  kubernetes: Omit<ParsedConfig['kubernetes'], 'replicas'> & { replicas: number };
  /** The modes the plan runs: a mode with arms appears as its two arms (`<name>-base`, `<name>-head`). */
  modes: ModeConfig[];
  profiles: LoadProfile[];
  plan: Omit<ParsedConfig['plan'], 'budget'> & { budget: Budget };
  /** Set when the arms were derived from another config (`--ab-base-config`): which modes, and why not the rest. */
  armsFromBase?: ArmsFromBase;
}

export interface Budget {
  minBlocks: number;
  maxBlocks: number;
  maxDuration: string;
  maxDurationMs: number;
}

export function validateConfig(raw: unknown, source = 'config'): Config {
  const checked = checkConfig(raw);
  if (checked.problems.length > 0) throw new ConfigError(source, checked.problems);
  return checked.config!;
}

export interface ConfigCheck {
  /** Every problem found, the schema's and the cross-field checks' together. */
  problems: ConfigProblem[];
  /**
   * The config: valid when there are no problems; otherwise, where one could be made, the config
   * without the values the schema refused, so that checks of the other fields can still run.
   */
  config?: Config;
  /** Printed paths of the values left out: a later check's problem there is not repeated. */
  omitted: string[];
}

/**
 * All of a raw config's problems in one pass: the schema's, then the cross-field checks' on the
 * config without the values the schema refused (config/omit.ts says when that is meaningful).
 */
export function checkConfig(raw: unknown): ConfigCheck {
  const oversized = oversizedList(raw);
  if (oversized) return { problems: [oversized], omitted: [] };
  const parsed = configSchema.safeParse(raw ?? {}, { reportInput: true });
  if (parsed.success) return crossChecked(parsed.data, [], []);
  const problems = parsed.error.issues.flatMap((issue) => toProblems(issue, []));
  const refused = parsed.error.issues.flatMap((issue) => refusedPaths(issue));
  const omitted = refused.map(formatPath);
  if (refused.some(isStructural)) return { problems, omitted };
  const rest = configSchema.safeParse(withoutPaths(raw ?? {}, refused));
  return rest.success ? crossChecked(rest.data, problems, omitted) : { problems, omitted };
}

function crossChecked(data: ParsedConfig, problems: ConfigProblem[], omitted: string[]): ConfigCheck {
  const cross = crossFieldProblems(data).filter((p) => !underOmitted(p.path, omitted));
  let config: Config | undefined;
  try {
    config = normalize(data);
  } catch {
    // A config the cross-field checks refused may not normalize; their problems say why.
  }
  return { problems: [...problems, ...cross], ...(config ? { config } : {}), omitted };
}

/**
 * Longer than any list the schema accepts (modes, profiles, gates: at most LIMITS.entries), and
 * refused before the schema reads it: a million bad items would be a million issues in memory.
 */
const MAX_RAW_LIST = 10 * LIMITS.entries;

function oversizedList(raw: unknown): ConfigProblem | undefined {
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: raw, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value) && value.length > MAX_RAW_LIST)
      return {
        path: formatPath(path),
        message: `expected at most ${formatLimit(LIMITS.entries)} items, got ${formatLimit(value.length)}`,
      };
    for (const [key, child] of Object.entries(value)) {
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, path: [...path, Array.isArray(value) ? Number(key) : key] });
    }
  }
  return undefined;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function toProblems(issue: z.core.$ZodIssue, prefix: PropertyKey[]): ConfigProblem[] {
  const fullPath = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && !issue.message.startsWith('expected')) {
    // `load` is one profile or a list: explain the problems of the shape the user wrote.
    const input = (issue as { input?: unknown }).input;
    const wanted = Array.isArray(input) ? 'array' : typeof input === 'object' && input !== null ? 'object' : undefined;
    // The branch of the shape the user wrote is the one with no type error at its root.
    const branch = wanted && issue.errors.find((errors) => !errors.some((e) => e.code === 'invalid_type' && e.path.length === 0));
    if (branch && branch.length > 0) return branch.flatMap((inner) => toProblems(inner, fullPath));
  }
  return [toProblem({ ...issue, path: fullPath } as z.core.$ZodIssue)];
}

function toProblem(issue: z.core.$ZodIssue): ConfigProblem {
  const path = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(configSchema, issue.path);
    const parts = issue.keys.slice(0, MAX_NAMED_KEYS).map((key) => {
      const guess = (issue.path.length === 0 ? nestedKey(key) : undefined) ?? didYouMean(key, known);
      return guess ? `unknown key ${quote(key)}; did you mean "${guess}"?` : `unknown key ${quote(key)}`;
    });
    if (issue.keys.length > MAX_NAMED_KEYS)
      parts.push(`and ${(issue.keys.length - MAX_NAMED_KEYS).toLocaleString('en-US')} more unknown keys`);
    return { path, message: `${parts.join('; ')} (expected one of: ${known.join(', ')})` };
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    const input = (issue as { input?: unknown }).input;
    return { path, message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(input)}` };
  }
  const input = (issue as { input?: unknown }).input;
  if (issue.code === 'invalid_type' && input === undefined) {
    return { path, message: `is required (expected ${typeWords(issue.expected)})` };
  }
  if (issue.code === 'invalid_type' && zodWords(issue.message)) {
    return { path, message: `expected ${typeWords(issue.expected)}, got ${describeValue(input)}` };
  }
  if (issue.code === 'invalid_union') {
    // A field's own message (load.generators) says what it expects; `load` itself is the default.
    if (issue.message.startsWith('expected')) return { path, message: issue.message };
    return { path, message: `expected an object or a list of objects, got ${describeValue(input)}` };
  }
  // A bound's own message (a field's atMost/tooMany) says what it is; zod's ("Too big: expected
  // number to be <=4") is put in the product's words.
  if ((issue.code === 'too_big' || issue.code === 'too_small') && zodWords(issue.message))
    return { path, message: `${boundWords(issue)}, got ${describeValue(input)}` };
  if (issue.code === 'not_multiple_of' && zodWords(issue.message))
    return { path, message: `expected a multiple of ${String(issue.divisor)}, got ${describeValue(input)}` };
  if (issue.code === 'invalid_format' && zodWords(issue.message)) {
    const detail = issue as { pattern?: unknown; prefix?: string; suffix?: string; includes?: string };
    const format =
      issue.format === 'regex'
        ? `text matching ${String(detail.pattern)}`
        : issue.format === 'starts_with'
          ? `text starting with "${detail.prefix}"`
          : issue.format === 'ends_with'
            ? `text ending with "${detail.suffix}"`
            : issue.format === 'includes'
              ? `text containing "${detail.includes}"`
              : `a valid ${issue.format}`;
    return { path, message: `expected ${format}, got ${describeValue(input)}` };
  }
  // The schema's own messages (refinements) say what was expected; they say what was written too.
  if (input !== undefined && !/\bgot\b/.test(issue.message)) return { path, message: `${issue.message}, got ${describeValue(input)}` };
  return { path, message: issue.message };
}

/**
 * A message zod wrote itself ("Too big: expected number to be <=4", "Invalid input: expected
 * array, received object"), not one the schema gave: put in the product's words.
 */
function zodWords(message: string): boolean {
  return /^(Too (big|small)|Invalid (input|string|number|option|element|key|value|date)|Expected|Required)\b/.test(message);
}

/** zod's type names as the product says them. */
function typeWords(expected: string): string {
  const words: Record<string, string> = {
    array: 'a list',
    tuple: 'a list',
    set: 'a list',
    object: 'an object (key: value)',
    record: 'an object (key: value)',
    map: 'an object (key: value)',
    number: 'a number',
    int: 'a whole number',
    bigint: 'a whole number',
    string: 'text',
    boolean: 'true or false',
    date: 'a date',
    nonoptional: 'a value',
  };
  return words[expected] ?? expected;
}

/** A size or range bound zod found broken, as the product says it: "expected at most 4". */
function boundWords(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const limit = big ? (issue as z.core.$ZodIssueTooBig).maximum : (issue as z.core.$ZodIssueTooSmall).minimum;
  const value = typeof limit === 'bigint' ? limit.toString() : formatLimit(Number(limit));
  const inclusive = issue.inclusive !== false;
  const relation = big ? (inclusive ? 'at most' : 'less than') : inclusive ? 'at least' : 'more than';
  switch (issue.origin) {
    case 'string':
      return !big && Number(limit) === 1 && inclusive ? 'expected text, not an empty value' : `expected ${relation} ${value} characters`;
    case 'array':
    case 'set':
      return `expected ${relation} ${value} item${value === '1' ? '' : 's'}`;
    default:
      return `expected a number ${relation} ${value}`;
  }
}

const MAX_NAMED_KEYS = 5;

/** A top-level key that belongs in a section (`rate` → `load.rate`), which beats any near miss. */
function nestedKey(key: string): string | undefined {
  for (const section of ['load', 'plan', 'gates', 'history', 'github', 'kubernetes']) {
    if (knownKeysAt(configSchema, [section]).includes(key)) return `${section}.${key}`;
  }
  return undefined;
}

/** Keys the schema accepts at a path, for did-you-mean suggestions. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const part of path) {
    current = current && unwrap(current);
    if (!current) return [];
    if (current instanceof z.ZodObject) current = current.shape[String(part)] as z.ZodType | undefined;
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else if (current instanceof z.ZodUnion) {
      const options = current.options as z.ZodType[];
      const next =
        typeof part === 'number'
          ? options.find((o) => unwrap(o) instanceof z.ZodArray)
          : options.find((o) => unwrap(o) instanceof z.ZodObject);
      current = next && knownChild(next, part);
    } else return [];
  }
  current = current && unwrap(current);
  if (current instanceof z.ZodUnion) current = (current.options as z.ZodType[]).map(unwrap).find((o) => o instanceof z.ZodObject);
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function knownChild(schema: z.ZodType, part: PropertyKey): z.ZodType | undefined {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray) return inner.element as z.ZodType;
  if (inner instanceof z.ZodObject) return inner.shape[String(part)] as z.ZodType | undefined;
  return undefined;
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable', 'readonly', 'catch', 'nonoptional']);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType };
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
}

function crossFieldProblems(config: ParsedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const written = config.modes.map((m) => m.name);
  config.modes.forEach((mode, i) => {
    if (written.indexOf(mode.name) !== i) {
      problems.push({ path: `modes[${i}].name`, message: `duplicate mode name "${mode.name}"; each mode needs its own name` });
    }
  });
  // Gates and the baseline name the modes the plan runs: a mode with arms is its two arms.
  const names = expandArms(config.modes).map((m) => m.name);
  const baselineNames = [...new Set([...written, ...names])];
  if (config.baseline !== undefined && !baselineNames.includes(config.baseline)) {
    problems.push({
      path: 'baseline',
      message: `names no mode: got ${quote(config.baseline)}, expected one of ${baselineNames.map((n) => `"${n}"`).join(', ')}`,
    });
  }
  problems.push(
    ...platformProblems(config),
    ...k6LimitProblems(config),
    ...engineProblems(config),
    ...armProblems(config),
    ...istioRevisionProblems(config),
  );
  problems.push(...budgetProblems(config), ...abGateProblems(config));
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  profiles.forEach((profile, i) => {
    const at = Array.isArray(config.load) ? `load[${i}]` : 'load';
    if (profile.model === 'open' && profile.rate === undefined && profile.script === undefined) {
      problems.push({ path: `${at}.rate`, message: 'is required for the open model (expected requests per second > 0)' });
    }
    if (profile.model === 'closed' && profile.vus === undefined && profile.script === undefined) {
      problems.push({ path: `${at}.vus`, message: 'is required for the closed model (expected a whole number ≥ 1)' });
    }
    if (profile.body !== undefined && profile.payloadBytes !== undefined) {
      problems.push({ path: `${at}.payloadBytes`, message: 'set either body or payloadBytes, not both' });
    }
    if (profile.script !== undefined && (config.platform === 'kind' || config.platform === 'kubeconfig')) {
      problems.push({
        path: `${at}.script`,
        message: `is not supported on platform "${config.platform}" yet (k6 runs in a pod there, where the script's own imports cannot be resolved); use platform endpoints with your cluster's URLs`,
      });
    }
    if (profile.duration !== undefined && parseDurationMs(profile.duration) === 0) {
      problems.push({ path: `${at}.duration`, message: `expected a duration > 0, got "${profile.duration}"` });
    }
    config.modes.forEach((mode, m) => {
      if (config.platform !== 'endpoints') return;
      // An arm may carry the address itself: then it is required of each arm that has none from its mode.
      const sides = mode.arms ? (['base', 'head'] as const).map((side) => ({ side, o: mode.arms?.[side] })) : [undefined];
      for (const arm of sides) {
        const at_ = arm ? `modes[${m}].arms.${arm.side}` : `modes[${m}]`;
        const grpc = arm?.o?.grpc ?? mode.grpc;
        const url = arm?.o?.url ?? mode.url;
        if (profile.protocol === 'grpc' && !grpc) {
          problems.push({
            path: `${at_}.grpc`,
            message: `is required: platform "endpoints" with ${at}.protocol grpc needs a host:port per mode`,
          });
        }
        if (profile.protocol === 'http' && !url && !profile.script) {
          problems.push({ path: `${at_}.url`, message: 'is required: platform "endpoints" needs an http(s) URL per mode' });
        }
      }
    });
  });
  // auto measures at most plan.budget.maxBlocks; a mode with arms runs as two.
  const blocks = (p: (typeof profiles)[number]) => (p.repetitions === 'auto' ? maxBlocksOf(config) : p.repetitions);
  const trials = names.length * profiles.reduce((sum, p) => sum + blocks(p), 0);
  if (trials > LIMITS.trials) {
    problems.push({
      path: Array.isArray(config.load) ? 'load' : 'load.repetitions',
      message: `${formatLimit(names.length)} modes × ${formatLimit(trials / names.length)} repetitions make ${formatLimit(trials)} trials; expected at most ${formatLimit(LIMITS.trials)} (each trial is a k6 run and a row of results)`,
    });
  }
  const profileNames = profiles.map(profileName);
  problems.push(...gateScopeProblems(config.gates, names, profileNames));
  problems.push(...ingressProblems(config));
  problems.push(...kindGeneratorProblems(config));
  profileNames.forEach((n, i) => {
    if (profileNames.indexOf(n) !== i)
      problems.push({ path: `load[${i}].name`, message: `duplicate load profile name "${n}"; give each profile a name` });
  });
  return problems;
}

function profileName(profile: LoadProfileConfig): string {
  if (profile.name) return profile.name;
  if (profile.model === 'closed') return `${profile.vus ?? 'script'}vus`;
  return profile.rate !== undefined ? `${profile.rate}rps` : 'script';
}

function normalize(config: ParsedConfig): Config {
  const { load, baseline: _baseline, modes, plan, ...rest } = config;
  const maxDuration = maxDurationOf(config);
  const budget: Budget = { ...plan.budget, maxBlocks: maxBlocksOf(config), maxDuration, maxDurationMs: parseDurationMs(maxDuration)! };
  const hasArms = modes.some((m) => m.arms);
  const profiles = (Array.isArray(load) ? load : [load]).map((profile) => ({
    ...profile,
    ...repetitionLength(profile, hasArms),
    name: profileName(profile),
    repetitions: profile.repetitions === 'auto' ? budget.minBlocks : profile.repetitions,
    untilDecided: profile.repetitions === 'auto',
    durationMs: parseDurationMs(repetitionLength(profile, hasArms).duration)!,
    warmupMs: parseDurationMs(repetitionLength(profile, hasArms).warmup)!,
    timeoutMs: parseDurationMs(profile.timeout)!,
    expectedLatencyMs: parseDurationMs(profile.expectedLatency)!,
    pauseMs: parseDurationMs(profile.pause)!,
  }));
  // The mirror applies to the workload images here, once (a mode's or an arm's own echo image
  // included); the meshes' own images follow it in their install arguments (platform/kubernetes/mesh/).
  const images = rest.kubernetes.images;
  const mirrored = (mode: ModeConfig): ModeConfig =>
    images.registry && mode.echoImage ? { ...mode, echoImage: mirrorImage(mode.echoImage, images.registry) } : mode;
  // Echo pods per mode: as written, else 1, and with arms MIN_ARM_PODS (each arm on two pods at least).
  const replicas = rest.kubernetes.replicas ?? (hasArms ? MIN_ARM_PODS : 1);
  const kubernetes = images.registry
    ? {
        ...rest.kubernetes,
        replicas,
        images: { ...images, echo: mirrorImage(images.echo, images.registry), client: mirrorImage(images.client, images.registry) },
      }
    : { ...rest.kubernetes, replicas };
  return {
    ...rest,
    kubernetes,
    plan: { ...plan, budget },
    modes: expandArms(modes).map(mirrored),
    baseline: resolveBaseline(config),
    profiles,
  };
}
