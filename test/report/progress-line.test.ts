// The live line of a repetition counts warm-up as warm-up (issue 54: "1/5s" for 4 s of measuring
// and 1 s of warm-up read as if the warm-up were measured).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressFormatter } from '../../src/report/progress.ts';

test('warm-up seconds are warm-up, measuring seconds count only the measured window', () => {
  const line = progressFormatter('[1/6] direct · 300rps · rep 1/3', 1);
  assert.equal(line({ elapsedS: 1, totalS: 6, requests: 300 }), '[1/6] direct · 300rps · rep 1/3 · warm-up · 1/1s');
  assert.equal(line({ elapsedS: 2, totalS: 6, requests: 600 }), '[1/6] direct · 300rps · rep 1/3 · measuring · 1/5s · 300 rps');
  assert.equal(line({ elapsedS: 6, totalS: 6, requests: 1800 }), '[1/6] direct · 300rps · rep 1/3 · measuring · 5/5s · 300 rps');
  // Past the end (k6 finishing): the measured window, not more.
  assert.equal(line({ elapsedS: 7, totalS: 6 }), '[1/6] direct · 300rps · rep 1/3 · measuring · 5/5s');
  // No warm-up: measuring from the first second.
  assert.equal(progressFormatter('x', 0)({ elapsedS: 1, totalS: 4 }), 'x · measuring · 1/4s');
});
