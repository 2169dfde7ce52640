// The report's over-time chart: each repetition of a mode gets its own shade of the mode's colour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildReportChartData, repetitionShade } from '../../src/report/html/chart-data.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

test('repetitions of one mode are told apart in the over-time chart', () => {
  const data = buildReportChartData(buildRunView(buildRunResult({ modes: ['baseline', 'istio-sidecar'], repetitions: 3 })));
  const timeline = data.profiles[0]!.timeline;
  for (const mode of ['baseline', 'istio-sidecar']) {
    const colours = timeline.filter((s) => s.mode === mode).map((s) => s.color);
    assert.equal(colours.length, 3);
    assert.equal(new Set(colours).size, 3, `${mode}: ${colours.join(', ')}`);
  }
  assert.notEqual(timeline.find((s) => s.mode === 'baseline')!.color, timeline.find((s) => s.mode === 'istio-sidecar')!.color);
});

test("repetitionShade keeps the first repetition's colour and lightens later ones", () => {
  assert.equal(repetitionShade('#0072B2', 0, 3), '#0072B2');
  assert.equal(repetitionShade('#000000', 1, 2), '#4d4d4d');
  assert.equal(repetitionShade('#0072B2', 0, 1), '#0072B2');
});
