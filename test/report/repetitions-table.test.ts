// The HTML report's repetitions table: every repetition of an ordinary run, and at most
// REPETITION_ROWS_SHOWN of a huge one, with one row that says how many are left out and where they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REPETITION_ROWS_SHOWN, repetitionsTable } from '../../src/report/html/sections.ts';
import { syntheticRun } from '../analysis/synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

const rowsOf = (html: string) => html.match(/<tr[ >]/g)!.length - 1; // minus the header row

test('an ordinary run lists every repetition, with no omission row', () => {
  const run = syntheticRun({ levels: { baseline: [1, 1.1, 1.2], sidecar: [1.3, 1.4, 1.5] } });
  const html = repetitionsTable(buildRunView(run));
  assert.equal(rowsOf(html), 6);
  assert.doesNotMatch(html, /not listed here/);
});

test('a huge run lists the first and last trials and names the rest, their invalid ones and where they are', () => {
  const n = 1_600;
  const levels = Array.from({ length: n }, (_, i) => 1 + (i % 7) / 100);
  const run = syntheticRun({
    levels: { baseline: levels, sidecar: levels },
    tweak: (name, index, rep) => (name === 'sidecar' && index === 100 ? { ...rep, invalidReason: 'dropped iterations' } : rep),
  });
  const html = repetitionsTable(buildRunView(run));
  assert.equal(rowsOf(html), REPETITION_ROWS_SHOWN + 1);
  assert.match(html, /<td>0<\/td>/, 'the first trial is listed');
  assert.match(html, new RegExp(`<td>${2 * n - 1}</td>`), 'the last trial is listed');
  assert.match(
    html,
    /… 1,200 more repetitions \(trials 1000–2199, 1 of them invalid\) not listed here; every one is in results\.json and results\.csv/,
  );
});
