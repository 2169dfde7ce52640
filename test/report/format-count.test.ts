// formatCount groups whole numbers by hand (fast across 100,000-row tables): it must say exactly
// what en-US toLocaleString says, for every kind of number a count can be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { count as formatCount } from '../../src/report/numbers.ts';

test('formatCount writes what toLocaleString("en-US") writes', () => {
  const values = [0, -0, 1, 12, 123, 999, 1000, 1234, 12345, 123456, 1234567, -1, -999, -1000, -123456789];
  values.push(2 ** 53 - 1, 2 ** 53, 1e21, 1.5, 1234.5678, 0.0001, Number.NaN, Number.POSITIVE_INFINITY);
  for (let digits = 1; digits <= 16; digits++) values.push(Number('7'.repeat(digits)));
  for (const value of values) assert.equal(formatCount(value), value.toLocaleString('en-US'), `${value}`);
});
