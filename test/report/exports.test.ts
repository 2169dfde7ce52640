import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCsv } from '../../src/report/exports/csv.ts';
import { formatG } from '../../src/report/exports/matrix.ts';
import { renderMarkdownTable } from '../../src/report/exports/markdown-table.ts';
import { boxTable, renderTextTable } from '../../src/report/exports/text-table.ts';
import type { RunResult } from '../../src/results/types.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

/** Three repetitions per mode with chosen p50/p90/p99/max, so the medians (and the largest max) are known. */
function known(): RunResult {
  const result = buildRunResult({ modes: ['baseline', 'istio-sidecar'], repetitions: 3, startedAt: new Date('2022-07-11T07:35:26Z') });
  const values: Record<string, number[][]> = {
    baseline: [
      [0.999807, 1.20627, 5.14918, 31.6416],
      [0.9, 1.1, 5.0, 30],
      [1.1, 1.3, 5.3, 40],
    ],
    'istio-sidecar': [
      [1.20141, 1.52237, 5.61587, 18.8078],
      [1.1, 1.5, 5.5, 18],
      [1.3, 1.6, 5.7, 19],
    ],
  };
  for (const mode of result.modes) {
    mode.repetitions.forEach((rep, i) => {
      const [p50, p90, p99, max] = values[mode.name]![i]!;
      Object.assign(rep.latencyMs!, { p50, p90, p99, max });
    });
  }
  return result;
}

test('CSV follows the ambient source benchmark: header with leading empty cell and trailing commas, rows p50/p90/p99/Max', () => {
  const csv = renderCsv(buildRunView(known()));
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'Run time: 2022-07-11T07:35:26.000Z');
  const table = lines.slice(lines.indexOf('') + 1);
  assert.deepEqual(table, [
    ',baseline,istio-sidecar,',
    'p50,0.999807,1.20141,',
    'p90,1.20627,1.52237,',
    'p99,5.14918,5.61587,',
    // Max is the largest latency of any repetition, as the source benchmark's max is its run's.
    'Max,40,19,',
  ]);
  assert.deepEqual(renderCsv(buildRunView(known()), { preamble: false }).trim().split('\n'), table);
});

test('formatG prints six significant digits like printf %g', () => {
  const table: [number | null, string][] = [
    [0.9998071234, '0.999807'],
    [21.04223, '21.0422'],
    [77.72571, '77.7257'],
    [1234567, '1234570'],
    [2, '2'],
    [null, ''],
  ];
  for (const [value, expected] of table) assert.equal(formatG(value), expected, String(value));
});

test('CSV: one block per load profile, invalid modes flagged, names with commas quoted', () => {
  const result = buildRunResult({
    modes: ['baseline', 'odd,name'],
    profiles: ['100rps', '1000rps'],
    repetitions: 1,
    invalid: [{ mode: 'odd,name', repetition: 0, profile: '1000rps' }],
  });
  const csv = renderCsv(buildRunView(result));
  assert.equal((csv.match(/^,baseline,"odd,name",$/gm) ?? []).length, 2);
  assert.match(csv, /Load profile: 100rps \(1000 rps\)/);
  assert.match(csv, /Load profile: 1000rps[^\n]*\nInvalid \(no valid repetition\): odd,name/);
});

test('markdown table shows medians and the change against the baseline', () => {
  const md = renderMarkdownTable(buildRunView(known()));
  assert.match(md, /^\| 1000rps \(1000 rps\) \| baseline \| istio-sidecar \|$/m);
  assert.match(md, /^\|---\|---:\|---:\|$/m);
  assert.match(md, /^\| p50 \| 0\.999807 \| 1\.20141 \(\+20\.2%\) \|$/m);
  // The largest of any repetition, without a paired overhead (a largest value has none).
  assert.match(md, /^\| Max \| 40 \| 19 \|$/m);
});

test('text table is boxed and aligned like the source benchmark converts its CSV', () => {
  const text = renderTextTable(buildRunView(known()));
  const lines = text.trim().split('\n');
  assert.match(lines[0]!, /latency ms/);
  const widths = new Set(lines.slice(1).map((l) => l.length));
  assert.equal(widths.size, 1, 'every row of the box has the same width');
  assert.equal(lines[1], lines[3]);
  assert.match(text, /\| p50 \| +0\.999807 \| +1\.20141 \|/);
  assert.equal(
    boxTable([
      ['', 'a'],
      ['x', '1'],
    ]),
    ['+---+---+', '|   | a |', '+---+---+', '| x | 1 |', '+---+---+'].join('\n'),
  );
});
