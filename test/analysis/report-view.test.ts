// CIs and verdict lines in the terminal table and summary.md, from the analysis block.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { analyzeWorded, syntheticRun, testConfig } from './synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

function analyzed() {
  const config = testConfig({ gates: { thresholds: ['p(95) < 2ms'], overhead: ['overhead.p50 < 0.2ms'] } });
  const run = syntheticRun({ config, levels: { baseline: [1, 1.02, 0.98, 1.01, 0.99], sidecar: [1.3, 1.33, 1.28, 1.31, 1.29] } });
  run.analysis = analyzeWorded(run, { config });
  run.verdict = run.analysis.verdict;
  run.verdictReasons = run.analysis.verdictReasons;
  return run;
}

test('terminal table: a p50 interval column, the overhead with its CI, every gate line with its mark, and the MDE', () => {
  const text = renderTerminalTable(buildRunView(analyzed()));
  // 5 repetitions: the interval of the median is their range, labelled so (not "95% CI").
  assert.match(text, /mode\s+p50\s+p50 range\s+p90/);
  assert.match(text, /\nbaseline\s+1\.00 ms\s+0\.98\d?–1\.0\d+/);
  assert.match(text, /sidecar .* \+0\.300 ms \(\+30\.\d%\)\s+\[\+0\.\d+ ms, \+0\.\d+ ms\]/);
  assert.match(text, /Gates:\n {2}✓ baseline \[1000rps\] p\(95\): .*→ pass/);
  assert.match(text, / {2}✗ sidecar \[1000rps\] overhead\.p\(50\) vs baseline: \+0\.300 ms .*threshold < 0\.2 ms → fail/);
  assert.match(
    text,
    /With this noise, p50 changes smaller than these are not detectable between two runs like this one: baseline [\d.]+%, sidecar [\d.]+%\./,
  );
});

test('summary.md: the same interval column and the gates as a list, markdown-escaped', () => {
  const md = renderSummaryMarkdown(buildRunView(analyzed()));
  assert.match(md, /\| profile \| mode \| p50 \| p50 range \| p90 \|/);
  assert.match(md, /\|---\|---\|--:\|--:\|--:\|/);
  assert.match(md, /\| 1000rps \| sidecar \| 1\.30 ms \| 1\.2\d+–1\.3\d+ \|/);
  assert.match(md, /\*\*Gates\*\*\n\n- ✅ baseline \\\[1000rps\\\] p\(95\)/);
  assert.match(md, /- ❌ sidecar \\\[1000rps\\\] overhead\.p\(50\) vs baseline/);
});

test('without an analysis block both renderers keep their plain tables', () => {
  const run = analyzed();
  delete run.analysis;
  assert.doesNotMatch(renderTerminalTable(buildRunView(run)), /95% CI|Gates:/);
  assert.doesNotMatch(renderSummaryMarkdown(buildRunView(run)), /95% CI|\*\*Gates\*\*/);
});

test('with fewer than 6 repetitions the interval is labelled the range of the repetitions, with what it really covers, never "95% CI"', () => {
  const config = testConfig();
  const run = syntheticRun({ config, levels: { baseline: [1, 1.02, 0.98], sidecar: [1.3, 1.33, 1.28] } });
  run.analysis = analyzeWorded(run, { config });
  const three = `${renderTerminalTable(buildRunView(run))}\n${renderSummaryMarkdown(buildRunView(run))}`;
  // The bootstrap interval of a median of 3 is exactly [min, max].
  assert.equal(run.analysis.summaries[0]!.statistics.p50!.ci!.low, 0.98);
  assert.equal(run.analysis.summaries[0]!.statistics.p50!.ci!.high, 1.02);
  assert.match(three, /mode\s+p50\s+p50 range\s+p90/);
  assert.match(three, /\| p50 \| p50 range \|/);
  assert.match(
    three,
    /With 3 repetitions an interval of the median is the range of the repetitions \(min–max\), which covers the true median 75\.0% of the time, not 95%; 6 or more repetitions give a 95% confidence interval\./,
  );
  assert.doesNotMatch(three, /95% CI|95% bootstrap/);
  assert.match(renderTerminalTable(buildRunView(analyzed())), /With 5 repetitions .* covers the true median 93\.8% of the time/);
  const six = syntheticRun({ config, levels: { baseline: [1, 1.02, 0.98, 1, 1.01, 0.99], sidecar: [1.3, 1.33, 1.28, 1.3, 1.31, 1.29] } });
  six.analysis = analyzeWorded(six, { config });
  const sixText = renderTerminalTable(buildRunView(six));
  assert.doesNotMatch(sixText, /covers the true median/);
  assert.match(sixText, /mode\s+p50\s+p50 95% CI\s+p90/);
  assert.match(sixText, /CI: 95% bootstrap over valid repetitions/);
});
