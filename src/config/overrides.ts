// The common settings that CLI flags and action inputs override, in one table so the two front
// ends cannot drift: each row names the flag, the action input and the config path it sets.
import { UsageError } from '../util/errors.ts';

export interface Override {
  flag: string;
  input: string;
  path: string;
  /** count: a whole number, or the word auto. */
  kind: 'string' | 'number' | 'count' | 'boolean' | 'list' | 'yaml';
  description: string;
}

export const OVERRIDES: Override[] = [
  { flag: 'preset', input: 'preset', path: 'preset', kind: 'string', description: 'Start from a preset (see `mesh-perf presets`).' },
  { flag: 'suite', input: 'suite', path: 'suite', kind: 'string', description: 'Suite name that groups results in history.' },
  { flag: 'platform', input: 'platform', path: 'platform', kind: 'string', description: 'local, endpoints, kind or kubeconfig.' },
  {
    flag: 'modes',
    input: 'modes',
    path: 'modes',
    kind: 'yaml',
    description: 'Modes as YAML (a list of {name, ...}), or comma-separated mesh mode names.',
  },
  { flag: 'rate', input: 'rate', path: 'load.rate', kind: 'number', description: 'Target requests per second (open model).' },
  { flag: 'duration', input: 'duration', path: 'load.duration', kind: 'string', description: 'Measured time per repetition, e.g. 30s.' },
  {
    flag: 'repetitions',
    input: 'repetitions',
    path: 'load.repetitions',
    kind: 'count',
    description:
      'Repetitions (blocks) per mode, interleaved across modes: a whole number runs exactly that many; auto adds blocks until the gates decide or plan.budget is spent.',
  },
  {
    flag: 'max-duration',
    input: 'max-duration',
    path: 'plan.budget.maxDuration',
    kind: 'string',
    description: 'Most load time repetitions auto may spend before it stops undecided, e.g. 8m.',
  },
  {
    flag: 'generators',
    input: 'generators',
    path: 'load.generators',
    kind: 'count',
    description: 'k6 processes per repetition (k6 execution segments, merged exactly), a whole number or auto.',
  },
  {
    flag: 'engine',
    input: 'engine',
    path: 'load.engine',
    kind: 'string',
    description: 'Where k6 runs: k6 (processes or client pods) or k6-operator (TestRuns; platform kind or kubeconfig).',
  },
  {
    flag: 'gates',
    input: 'gates',
    path: 'gates.thresholds',
    kind: 'list',
    description: 'Threshold expressions, one per line, e.g. p(95) < 250ms.',
  },
  {
    flag: 'history-branch',
    input: 'history-branch',
    path: 'history.branch',
    kind: 'string',
    description: 'Branch that keeps the results history.',
  },
  {
    flag: 'comment',
    input: 'comment',
    path: 'github.comment',
    kind: 'string',
    description: 'Sticky PR comment: off, on-failure or always.',
  },
  {
    flag: 'change-point',
    input: 'change-point',
    path: 'gates.changePoint',
    kind: 'string',
    description: 'On publish, a new change point that is a slowdown: warn, fail or off.',
  },
  { flag: 'seed', input: 'seed', path: 'plan.seed', kind: 'number', description: 'Seed of the randomized interleaving.' },
  { flag: 'baseline-mode', input: 'baseline', path: 'baseline', kind: 'string', description: 'Mode that overheads are computed against.' },
  {
    flag: 'history-store',
    input: 'history-store',
    path: 'history.store',
    kind: 'string',
    description: 'Git URL or directory that keeps the results history.',
  },
  {
    flag: 'publish',
    input: 'publish',
    path: 'history.publish',
    kind: 'boolean',
    description: 'Publish this run to the history store when it ends: true or false.',
  },
  {
    flag: 'adopt',
    input: 'adopt',
    path: 'history.adopt',
    kind: 'boolean',
    description: 'Publish into a history branch that already holds other files (e.g. a docs site): true or false.',
  },
  {
    flag: 'dashboard-url',
    input: 'dashboard-url',
    path: 'github.dashboardUrl',
    kind: 'string',
    description: 'Link to the trend dashboard shown in summaries and comments.',
  },
  {
    flag: 'kubeconfig',
    input: 'kubeconfig-file',
    path: 'kubernetes.kubeconfig',
    kind: 'string',
    description: 'Path of a kubeconfig file (kubeconfig platform).',
  },
  { flag: 'context', input: 'kube-context', path: 'kubernetes.context', kind: 'string', description: 'Kubeconfig context to use.' },
  {
    flag: 'istio-version',
    input: 'istio-version',
    path: 'kubernetes.istio.version',
    kind: 'string',
    description: 'Istio version to install (one mesh-perf pins).',
  },
  {
    flag: 'linkerd-version',
    input: 'linkerd-version',
    path: 'kubernetes.linkerd.version',
    kind: 'string',
    description: 'Linkerd version to install (one mesh-perf pins).',
  },
];

/** Sets a dotted path in a raw config object, creating objects on the way. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (Array.isArray(next)) {
      // load may be a list of profiles: an override applies to each of them.
      for (const item of next)
        if (item && typeof item === 'object')
          setPath(item as Record<string, unknown>, parts.slice(parts.indexOf(part) + 1).join('.'), value);
      return;
    }
    if (typeof next !== 'object' || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = value;
}

export function parseOverrideValue(override: Override, text: string, origin: string): unknown {
  switch (override.kind) {
    case 'string':
      return text;
    case 'number': {
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value)) {
        throw new UsageError(`${origin}: expected a number, got ${JSON.stringify(text)}`);
      }
      return value;
    }
    case 'count': {
      if (text.trim() === 'auto') return 'auto';
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value))
        throw new UsageError(`${origin}: expected a whole number or auto, got ${JSON.stringify(text)}`);
      return value;
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return text === 'true';
      throw new UsageError(`${origin}: expected true or false, got ${JSON.stringify(text)}`);
    case 'list':
      return text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
    case 'yaml':
      return text;
  }
}
