// Which of several settings moved the series, in as few A/B runs as a split in halves allows:
// a set known to reproduce the step is split, both halves run side by side in one run (each a mode
// with arms: base the earlier run's settings, head those plus the half's later values), and the
// half that still fails is split again, until one setting is left. Both halves failing is two
// causes, each followed; neither failing while the whole did means settings that only together
// cause it: their cross pairs are run (when few enough) to name the pair, or the set is named
// as acting together. A half that cannot be decided (inconclusive, invalid) stays unresolved. Pure.

export type GroupDecision = 'fail' | 'pass' | 'inconclusive' | 'invalid';

export interface Culprit {
  /** The setting (or settings) whose later values alone reproduce the step. */
  settings: string[];
  /** True when the settings cause it only together (each alone did not). */
  together: boolean;
}

export interface BisectState {
  /** Sets that reproduce the step, still to narrow (the first is next). */
  queue: string[][];
  /** When set, the next run tests these cross pairs of a set whose halves did not reproduce it alone. */
  pairsOf?: { set: string[]; pairs: string[][] };
  culprits: Culprit[];
  /** Sets a run could not narrow, and why. */
  unresolved: { settings: string[]; why: 'inconclusive' | 'invalid' | 'budget' }[];
  rounds: number;
}

/** At most this many cross pairs run in one run (each a mode with arms: 4 pairs are 8 arms a block). */
export const MAX_PAIRS = 4;

/** The bisection of `settings`, which together reproduce the step (the full A/B failed). */
export function startBisect(settings: readonly string[]): BisectState {
  const state: BisectState = { queue: [], culprits: [], unresolved: [], rounds: 0 };
  return settle({ ...state, queue: [[...settings]] });
}

/** Single settings in the queue are culprits already: taken out. */
function settle(state: BisectState): BisectState {
  const queue: string[][] = [];
  const culprits = [...state.culprits];
  for (const set of state.queue) {
    if (set.length === 1) culprits.push({ settings: set, together: false });
    else queue.push(set);
  }
  return { ...state, queue, culprits };
}

/** The groups the next run tests side by side; none when the bisection is over. */
export function nextGroups(state: BisectState): string[][] {
  if (state.pairsOf) return state.pairsOf.pairs;
  const set = state.queue[0];
  if (!set) return [];
  const half = Math.ceil(set.length / 2);
  return [set.slice(0, half), set.slice(half)];
}

/** The state after a run of nextGroups(state) decided each group so. */
export function afterRound(state: BisectState, decisions: readonly GroupDecision[]): BisectState {
  const groups = nextGroups(state);
  const rounds = state.rounds + 1;
  if (state.pairsOf) {
    const { set, pairs } = state.pairsOf;
    const failed = pairs.filter((_, i) => decisions[i] === 'fail');
    const undecided = pairs.some((_, i) => decisions[i] === 'inconclusive' || decisions[i] === 'invalid');
    const { pairsOf: _done, ...rest } = state;
    if (failed.length > 0)
      return { ...rest, rounds, culprits: [...state.culprits, ...failed.map((p) => ({ settings: p, together: true }))] };
    // No pair alone: the set acts together (or a pair was not decided).
    if (undecided) return { ...rest, rounds, unresolved: [...state.unresolved, { settings: set, why: worst(decisions) }] };
    return { ...rest, rounds, culprits: [...state.culprits, { settings: set, together: true }] };
  }
  const [set, ...queue] = state.queue;
  const [left, right] = groups as [string[], string[]];
  const [l, r] = decisions;
  const next: BisectState = { ...state, queue, rounds };
  if (l === 'fail' || r === 'fail') {
    if (l === 'fail') next.queue = [...next.queue, left];
    if (r === 'fail') next.queue = [...next.queue, right];
    // The other half undecided: it may hold a cause too.
    for (const [half, d] of [
      [left, l],
      [right, r],
    ] as const)
      if (d === 'inconclusive' || d === 'invalid') next.unresolved = [...next.unresolved, { settings: half, why: d }];
    return settle(next);
  }
  if (l === 'pass' && r === 'pass') {
    // Neither half alone: settings of both halves together. Their cross pairs, when few enough.
    const pairs = left.flatMap((a) => right.map((b) => [a, b]));
    if (pairs.length <= MAX_PAIRS && set!.length > 2) return { ...next, pairsOf: { set: set!, pairs } };
    return { ...next, culprits: [...next.culprits, { settings: set!, together: true }] };
  }
  return { ...next, unresolved: [...next.unresolved, { settings: set!, why: worst(decisions) }] };
}

/** The bisection ran out of runs: what is left is unresolved. */
export function stopBisect(state: BisectState): BisectState {
  const left = [...(state.pairsOf ? [state.pairsOf.set] : []), ...state.queue];
  const { pairsOf: _stopped, ...rest } = state;
  return { ...rest, queue: [], unresolved: [...state.unresolved, ...left.map((settings) => ({ settings, why: 'budget' as const }))] };
}

function worst(decisions: readonly GroupDecision[]): 'inconclusive' | 'invalid' {
  return decisions.includes('invalid') ? 'invalid' : 'inconclusive';
}
