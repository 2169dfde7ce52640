// The report renderer is pure: these tests read its HTML as text. The browser tests check that
// the same HTML draws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateConfig } from '../../src/config/validate.ts';
import { buildReportChartData, SPECTRUM_MAX_X } from '../../src/report/html/chart-data.ts';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { renderReportPage } from '../../src/report/html/page.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { buildRunView } from '../../src/report/view.ts';
import { analyzeWorded } from '../analysis/synthetic.ts';

const CHART_STUB = 'window.Chart = function () {};';

test('report lists every invalid repetition with its reason and flags the verdict', () => {
  const result = buildRunResult({
    invalid: [
      { mode: 'linkerd', repetition: 1 },
      { mode: 'baseline', repetition: 2 },
    ],
  });
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: CHART_STUB } });
  const invalidRows = html.match(/<tr class="invalid"><td>\d+<\/td>/g) ?? [];
  assert.equal(invalidRows.length, 2);
  assert.equal((html.match(/invalid: \d+ dropped iterations; achieved 930 rps is under 99% of the 1000 rps target/g) ?? []).length, 2);
  assert.match(html, /<span class="badge invalid">INVALID<\/span>/);
});

test('report is one self-contained file: Chart.js inline, data embedded safely, text escaped', () => {
  const result = buildRunResult({ suite: 'nightly' });
  result.run.environment.note = '</script><script>alert(1)</script>';
  result.verdictReasons = ['<b>not bold</b>'];
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: 'var s = "</script>"; window.Chart = function () {};' } });
  assert.ok(!/<script[^>]*\ssrc=/.test(html), 'no external scripts');
  assert.ok(!/<link[^>]*stylesheet/.test(html), 'no external styles');
  assert.ok(!html.includes('<script>alert(1)'), 'environment values are escaped');
  assert.ok(html.includes('&lt;b&gt;not bold&lt;/b&gt;'));
  assert.ok(html.includes('var s = "<\\/script>"'), 'an inlined library cannot close its own script element');
  const data = /<script type="application\/json" id="mesh-perf-data">(.*?)<\/script>/s.exec(html)![1]!;
  assert.ok(!data.includes('<'), 'embedded JSON has no raw "<"');
  assert.equal(JSON.parse(data).profiles.length, 1);
});

test('store copies reference a shared Chart.js and link back to the dashboard', () => {
  const html = renderReportPage(buildRunView(buildRunResult()), {
    chartJs: { src: 'assets/chart.umd.min.js' },
    client: { src: 'assets/report.js' },
    dashboardHref: 'index.html#suite=default',
  });
  assert.match(html, /<script src="assets\/chart\.umd\.min\.js"><\/script>/);
  assert.match(html, /href="index\.html#suite=default"/);
});

test('without an analysis block the report says so and shows order-statistic intervals', () => {
  const html = renderHtmlReport(buildRunView(buildRunResult({ repetitions: 5 })), { chartJs: { inline: CHART_STUB } });
  assert.match(html, /no analysis block/);
  assert.match(html, /order-statistic interval of the median \(coverage 93\.8% with 5 repetitions/);
});

test('with an analysis block the report shows its bootstrap intervals and each gate line', () => {
  const result = buildRunResult({ modes: ['baseline', 'istio-sidecar'], repetitions: 5 });
  const config = validateConfig(
    {
      modes: [{ name: 'baseline' }, { name: 'istio-sidecar' }],
      load: { name: '1000rps', rate: 1000 },
      gates: { thresholds: ['p(95) < 250ms'], overhead: ['overhead.p50 < 0.01ms'] },
    },
    'test',
  );
  result.analysis = analyzeWorded(result, { config, resamples: 200 });
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: CHART_STUB } });
  // 5 repetitions: the analysis's interval of the median is their range, and the note says so.
  assert.match(
    html,
    /With 5 repetitions an interval of the median is the range of the repetitions \(min–max\), which covers the true median 93\.8% of the time, not 95%/,
  );
  assert.doesNotMatch(html, /95% bootstrap confidence interval/);
  const gates = (result.analysis as { gates: { line: string; decision: string }[] }).gates;
  assert.ok(gates.length >= 2, 'the config produced gate results');
  for (const gate of gates)
    assert.ok(html.includes(gate.line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')), `gate line shown: ${gate.line}`);
  assert.match(html, /<span class="badge fail">FAIL<\/span> overhead\.p50 &lt; 0\.01ms/);
});

test('chart data: spectrum on 1/(1-q), per-repetition timelines, resources only when sampled', () => {
  const plain = buildReportChartData(buildRunView(buildRunResult({ durationS: 12 })));
  const profile = plain.profiles[0]!;
  const xs = profile.spectrum[0]!.points.map((p) => p.x);
  assert.deepEqual(
    xs.map((x) => Math.round(x * 1000) / 1000),
    [1, 2, 4, 10, 20, 100, 1000, SPECTRUM_MAX_X],
  );
  assert.equal(profile.timeline.length, 5 * 3);
  assert.equal(profile.timeline[0]!.t.length, 12);
  assert.equal(profile.timeline[0]!.p99.length, 12);
  assert.equal(profile.resources, null);
  assert.equal(profile.overhead?.modes.length, 4);
  const sampled = buildReportChartData(buildRunView(buildRunResult({ resources: true }))).profiles[0]!;
  assert.ok(sampled.resources!.groups.includes('ztunnel'));
});

test('a run stored without timelines says so instead of drawing an empty chart', async () => {
  const { withoutTimelines } = await import('../../src/history/run-codec.ts');
  const html = renderHtmlReport(buildRunView(withoutTimelines(buildRunResult())), { chartJs: { inline: CHART_STUB } });
  assert.match(html, /No per-second timeline in this copy/);
  assert.ok(!html.includes('id="timeline-0"'));
});
