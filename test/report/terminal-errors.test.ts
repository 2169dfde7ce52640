// The terminal table with failed requests: red (on a colour terminal) and still aligned, "—" for a
// mode with no successful request, and a line per mode naming the causes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { syntheticRun, testConfig } from '../analysis/synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

function failingRun() {
  const config = testConfig({}, ['baseline', 'sidecar']);
  const run = syntheticRun({
    config,
    levels: { baseline: [1, 1, 1], sidecar: [1, 1, 1] },
    tweak: (mode, _i, spec) => (mode === 'sidecar' ? { ...spec, failures: 10_000, requests: 10_000 } : spec),
  });
  for (const rep of run.modes.find((m) => m.name === 'sidecar')!.repetitions) {
    rep.latencyMs = null;
    rep.errorCauses = { 'HTTP 500': 9_990, timeout: 10 };
  }
  return run;
}

test('a mode whose every request failed shows "—" latency and its causes; plain text without colour', () => {
  const text = renderTerminalTable(buildRunView(failingRun()));
  const row = text.split('\n').find((l) => l.startsWith('sidecar'))!;
  assert.match(row, /^sidecar +— +— +— +— /, 'p50, p90, p99, max');
  assert.match(row, / 100\.0% /);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for ANSI colour escapes
  assert.doesNotMatch(text, /\x1b\[/);
  assert.match(
    text,
    /sidecar \[1000rps\]: 100\.0% of requests failed: HTTP 500 × 29,970; timeout × 30 \(no request succeeded: no latency\)/,
  );
});

test('with colour the errors cell and the cause lines are red and the columns stay aligned', () => {
  const text = renderTerminalTable(buildRunView(failingRun()), { color: true });
  const lines = text.split('\n');
  const header = lines.find((l) => l.startsWith('mode'))!;
  const row = lines.find((l) => l.startsWith('sidecar'))!;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for ANSI colour escapes
  assert.match(row, /\x1b\[31m100\.0%\x1b\[0m/);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for ANSI colour escapes
  const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
  assert.equal(
    visible(row).indexOf('100.0%') + '100.0%'.length,
    header.indexOf('errors') + 'errors'.length,
    'right-aligned under its header',
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for ANSI colour escapes
  assert.doesNotMatch(lines.find((l) => l.startsWith('baseline'))!, /\x1b\[/, 'a mode without failures is not coloured');
});

test('a run that ended before any repetition finished: one sentence in the terminal, summary.md and report.html, no empty tables', () => {
  const run = syntheticRun({ config: testConfig({}, ['baseline']), levels: { baseline: [1] } });
  run.modes = [];
  run.verdict = 'invalid';
  run.verdictReasons = ['run ended early (the error is printed below)', '1 of 1 planned repetitions did not run'];
  for (const text of [renderTerminalTable(buildRunView(run), { width: 80 }), renderSummaryMarkdown(buildRunView(run))]) {
    assert.match(text, /No repetition finished, so there are no measurements to show\./);
    assert.doesNotMatch(text, /p50|Latency: median|CI: 95%/, text);
    assert.match(text, /1 of 1 planned repetitions did not run/);
  }
  // The HTML report too: the sentence, and no gate list or repetitions table that would read as empty findings.
  const html = renderHtmlReport(buildRunView(run), { chartJs: { inline: 'window.Chart = function () {};' } });
  assert.match(html, /No repetition finished, so there are no measurements to show\./);
  assert.doesNotMatch(html, /No gates configured|id="repetitions"|id="analysis"/);
  assert.match(html, /1 of 1 planned repetitions did not run/);
});
