// A run with no gates in its config is still judged by the error gate (load.maxErrorRate, 1% by
// default) in every mode; the report, summary.md, the job summary and the terminal say so with
// the outcome per mode (the report used to say "No gates configured.").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildRunView } from '../../src/report/view.ts';
import { renderJobSummary } from '../../src/github/job-summary.ts';
import { renderHtmlReport } from '../../src/report/html/render.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';

function judged(failures: Record<string, number>) {
  const config = testConfig({}, ['baseline', 'sidecar']);
  assert.deepEqual(config.gates.thresholds, [], 'no gate configured');
  const steady = [1, 1.01, 0.99, 1.02, 0.98];
  const result = syntheticRun({
    config,
    levels: { baseline: steady, sidecar: steady.map((v) => v + 0.3) },
    tweak: (mode, _i, spec) => ({ ...spec, failures: failures[mode] ?? 0, requests: 10_000 }),
  });
  result.analysis = analyzeWorded(result, { config });
  result.verdict = result.analysis.verdict;
  result.verdictReasons = result.analysis.verdictReasons;
  return result;
}

test('every mode passes the default error gate: listed per mode in the report, summary.md, job summary and terminal', () => {
  const result = judged({});
  assert.equal(result.verdict, 'pass');
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: 'window.Chart = function () {};' } });
  const gates = /<h3>Gates<\/h3>(.*?)<\/table>/s.exec(html)?.[1] ?? '';
  assert.doesNotMatch(html, /No gates configured/);
  for (const mode of ['baseline', 'sidecar']) {
    assert.match(
      gates,
      new RegExp(
        `<td class="text">${mode}</td><td class="text">1000rps</td><td class="text">${mode} \\[1000rps\\]: error rate 0%, load\\.maxErrorRate 1\\.00% → pass`,
      ),
    );
  }
  assert.equal((gates.match(/badge pass/g) ?? []).length, 2, 'a pass badge per mode');

  const summary = renderSummaryMarkdown(buildRunView(result));
  assert.match(
    summary,
    /\*\*Gates\*\*\n\n- ✅ baseline \\\[1000rps\\\]: error rate 0%, load\.maxErrorRate 1\.00% → pass\n- ✅ sidecar \\\[1000rps\\\]: error rate 0%/,
  );

  const job = renderJobSummary({ view: buildRunView(result), links: {} });
  assert.doesNotMatch(job, /no gates are configured/);
  assert.match(job, /Every gate passed and every repetition was valid\./);
  assert.match(job, /### Gates[\s\S]*load\.maxErrorRate/);

  assert.match(
    renderTerminalTable(buildRunView(result)),
    /Gates:\n {2}✓ baseline \[1000rps\]: error rate 0%, load\.maxErrorRate 1\.00% → pass\n {2}✓ sidecar/,
  );
});

test('one mode above the limit: it fails the gate, the other passes, both listed', () => {
  const result = judged({ sidecar: 300 });
  assert.equal(result.verdict, 'fail');
  const html = renderHtmlReport(buildRunView(result), { chartJs: { inline: 'window.Chart = function () {};' } });
  const gates = /<h3>Gates<\/h3>(.*?)<\/table>/s.exec(html)?.[1] ?? '';
  assert.match(gates, /baseline \[1000rps\]: error rate 0%, load\.maxErrorRate 1\.00% → pass/);
  assert.match(
    gates,
    /<tr class="invalid">.*sidecar \[1000rps\]: 3\.00% of requests failed \(1500 of 50000\), above load\.maxErrorRate 1\.00%/,
  );
});
