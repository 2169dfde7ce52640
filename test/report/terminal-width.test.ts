// The run table fits the terminal: at 80 and 100 columns the essential columns come first and the
// rest follow in a second table; at 160 everything is one table; --wide forces one table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { renderTerminalTable, wrap } from '../../src/report/terminal.ts';
import { visibleWidth } from '../../src/util/text-table.ts';
import { terminalWidth } from '../../src/cli/terminal-width.ts';
import type { RunResult } from '../../src/results/types.ts';
import { analyzeWorded, syntheticRun, testConfig } from '../analysis/synthetic.ts';
import { buildRunView } from '../../src/report/view.ts';

// A real `mesh-perf demo` run (captured on a loaded 2-core machine: invalid repetitions, long notes).
const captured = JSON.parse(
  readFileSync(new URL('../fixtures/results/demo-loaded-machine.results.json', import.meta.url), 'utf8'),
) as RunResult;

// The demo's modes with a full analysis: CIs, overhead CIs, gate lines, a failing verdict.
function analysedDemo(): RunResult {
  const config = testConfig({ gates: { thresholds: ['p(95) < 2ms', 'error_rate < 1%'], overhead: ['overhead.p50 < 0.2ms'] } }, [
    'direct',
    'one-proxy-hop',
  ]);
  const run = syntheticRun({
    config,
    levels: { direct: [0.41, 0.43, 0.42, 0.44, 0.4, 0.42], 'one-proxy-hop': [1.03, 1.06, 1.05, 1.04, 1.07, 1.02] },
  });
  run.analysis = analyzeWorded(run, { config });
  run.verdict = run.analysis.verdict;
  run.verdictReasons = run.analysis.verdictReasons;
  return run;
}

const tableHeaders = (text: string) => text.split('\n').filter((l) => /^mode {2,}/.test(l));

for (const [name, run] of [
  ['captured demo', captured],
  ['analysed demo', analysedDemo()],
] as const) {
  for (const width of [80, 100, 160]) {
    test(`${name}: every line fits in ${width} columns`, () => {
      const text = renderTerminalTable(buildRunView(run), { width });
      for (const line of text.split('\n')) assert.ok(visibleWidth(line) <= width, `${visibleWidth(line)} > ${width}: ${line}`);
      const headers = tableHeaders(text);
      // The essential columns lead the first table (all of it when it fits, in the usual order).
      assert.match(
        headers[0]!,
        width >= 160
          ? /^mode\s+p50\s+p50 95% CI\s+p90\s+p99\s+max\s+rps\s+errors\s+overhead\s+overhead 95% CI\s+valid$/
          : /^mode\s+p50\s+p99\s+rps\s+errors\s+overhead\s+valid$/,
      );
      assert.match(text, /direct\s.*\sbaseline\s/, 'the baseline row is marked in the overhead column');
      for (const column of ['p90', 'max', 'p50 95% CI']) assert.ok(text.includes(column), `${column} is shown`);
      assert.equal(headers.length, width >= 160 ? 1 : 2, `tables at ${width}:\n${text}`);
    });
  }
  test(`${name}: --wide prints one table whatever the width`, () => {
    assert.equal(tableHeaders(renderTerminalTable(buildRunView(run), { width: 80, wide: true })).length, 1);
  });
}

test('the demo run table itself fits in 100 columns (no second table needed for the essentials)', () => {
  const first = renderTerminalTable(buildRunView(analysedDemo()), { width: 100 }).split('\n\n')[0]!;
  assert.ok(
    first.split('\n').every((l) => visibleWidth(l) <= 100),
    first,
  );
  assert.match(first, /one-proxy-hop\s+1\.0\d+ ms/);
});

test('the verdict is short in the terminal, one line per reason', () => {
  const text = renderTerminalTable(buildRunView(analysedDemo()), { width: 80 });
  const verdict = text.slice(text.indexOf('Verdict:'));
  assert.match(verdict, /^Verdict: FAIL/);
  for (const line of verdict.trimEnd().split('\n')) assert.ok(visibleWidth(line) <= 80, line);
});

test("wrap keeps a list item's indent; colour escapes take no width", () => {
  assert.deepEqual(wrap('  - alpha beta gamma delta', 14), ['  - alpha beta', '    gamma', '    delta']);
  assert.equal(visibleWidth('\u001b[31m12.5%\u001b[0m'), 5);
});

test('width: COLUMNS, else the terminal, else 100', () => {
  assert.equal(terminalWidth({ COLUMNS: '80' }, { isTTY: true, columns: 200 }), 80);
  assert.equal(terminalWidth({}, { isTTY: true, columns: 132 }), 132);
  assert.equal(terminalWidth({}, { isTTY: false }), 100);
  assert.equal(terminalWidth({ COLUMNS: 'wide' }, { isTTY: false }), 100);
});
