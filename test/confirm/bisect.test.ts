// The bisection of settings that together reproduced a step: halves side by side, the failing half
// split again until one setting is left; two causes followed both; settings that act only together
// named as such (their cross pairs tried when few); an undecided half left unresolved, not guessed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterRound, type BisectState, type GroupDecision, nextGroups, startBisect, stopBisect } from '../../src/confirm/bisect.ts';

/** Runs the bisection against a rule that says whether a set of settings (the head's) moves the series. */
function bisect(settings: string[], moves: (set: string[]) => GroupDecision, maxRuns = 10): BisectState & { runs: string[][][] } {
  let state = startBisect(settings);
  const runs: string[][][] = [];
  while (nextGroups(state).length > 0) {
    if (state.rounds >= maxRuns) {
      state = stopBisect(state);
      break;
    }
    const groups = nextGroups(state);
    runs.push(groups);
    state = afterRound(state, groups.map(moves));
  }
  return { ...state, runs };
}

test('one cause among four settings: two runs of two halves name it', () => {
  const result = bisect(['a', 'b', 'c', 'd'], (set) => (set.includes('c') ? 'fail' : 'pass'));
  assert.deepEqual(result.culprits, [{ settings: ['c'], together: false }]);
  assert.deepEqual(result.runs, [
    [
      ['a', 'b'],
      ['c', 'd'],
    ],
    [['c'], ['d']],
  ]);
  assert.deepEqual(result.unresolved, []);
});

test('two causes: both followed, both named', () => {
  const result = bisect(['a', 'b', 'c', 'd'], (set) => (set.includes('a') || set.includes('d') ? 'fail' : 'pass'));
  assert.deepEqual(
    result.culprits.map((c) => c.settings),
    [['a'], ['d']],
  );
});

test('two settings that only together move it: named together, after their cross pairs', () => {
  const result = bisect(['a', 'b', 'c', 'd'], (set) => (set.includes('b') && set.includes('c') ? 'fail' : 'pass'));
  assert.deepEqual(result.culprits, [{ settings: ['b', 'c'], together: true }]);
  assert.equal(result.runs.length, 2, 'halves, then the four cross pairs in one run');
  assert.equal(result.runs[1]!.length, 4);
  const two = bisect(['x', 'y'], (set) => (set.length === 2 ? 'fail' : 'pass'));
  assert.deepEqual(two.culprits, [{ settings: ['x', 'y'], together: true }]);
});

test('an undecided half is left unresolved; a bisection out of runs says what is left', () => {
  const result = bisect(['a', 'b', 'c', 'd'], (set) => (set.includes('a') ? 'inconclusive' : 'pass'));
  assert.deepEqual(result.culprits, []);
  assert.deepEqual(result.unresolved, [{ settings: ['a', 'b', 'c', 'd'], why: 'inconclusive' }]);
  const short = bisect(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], (set) => (set.includes('h') ? 'fail' : 'pass'), 1);
  assert.deepEqual(short.unresolved, [{ settings: ['e', 'f', 'g', 'h'], why: 'budget' }]);
});
