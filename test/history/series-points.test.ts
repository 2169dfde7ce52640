// countSeriesPoints (what a publish subtracts from the settled months' counts for their tail) counts
// exactly what seriesPoints lists run by run: every branch, profile, mode and figure, invalid
// modes and missing figures left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countSeriesPoints, seriesPoints } from '../../src/history/change-points.ts';
import { runFilePath } from '../../src/history/layout.ts';
import { indexEntryFor } from '../../src/history/suite-index.ts';
import { buildRunView } from '../../src/report/view.ts';
import { buildRunResult, DEFAULT_MODES } from '../support/results-fixture.ts';

test('countSeriesPoints counts what seriesPoints lists, per branch and series', () => {
  const runs = Array.from({ length: 40 }, (_, day) => {
    const modes = DEFAULT_MODES.slice(0, 2 + (day % 3));
    const result = buildRunResult({
      suite: 'nightly',
      seed: day + 1,
      startedAt: new Date(Date.UTC(2025, 0, 1 + day, 3)),
      modes,
      profiles: day % 4 === 0 ? ['100rps'] : ['100rps', '200rps'],
      branch: day % 5 === 0 ? 'release' : 'main',
      // A mode without a valid repetition has no point in any of its series.
      ...(day % 7 === 0 ? { invalid: [{ mode: modes[modes.length - 1]!, repetition: 0 }] } : {}),
    });
    return indexEntryFor(buildRunView(result), runFilePath(result), '0'.repeat(40));
  });
  // Runs without a branch count under "" as in the trend.
  delete runs[3]!.branch;
  const expected = new Map<string, number>();
  for (const run of runs)
    for (const key of seriesPoints(run)) {
      const full = `${run.branch ?? ''}\u0000${key}`;
      expected.set(full, (expected.get(full) ?? 0) + 1);
    }
  const counted = countSeriesPoints(runs);
  assert.ok(expected.size > 40, `many series (${expected.size})`);
  assert.deepEqual(new Map([...counted].sort()), new Map([...expected].sort()));
  assert.deepEqual(countSeriesPoints([]), new Map());
});
