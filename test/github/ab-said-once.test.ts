// A run with arms says each fact of its A/B verdict once: the A/B gate's line leads (the A/B
// section) and is not repeated as a verdict reason, in the gate table or the gate list; how long
// it measured and why it stopped is the line under it, not again on each gate line or in the run
// details. Checked in the PR comment, the job summary, summary.md and the terminal table, on the
// stored A/B run (test/fixtures/results/ab-arms.results.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderComment } from '../../src/github/comment-body.ts';
import { renderJobSummary } from '../../src/github/job-summary.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { renderTerminalTable } from '../../src/report/terminal.ts';
import { buildRunView } from '../../src/report/view.ts';
import { loadStored } from '../report/support/outputs.ts';

const LINKS = { runUrl: 'https://github.test/o/r/actions/runs/1', artifactUrl: 'https://github.test/o/r/actions/runs/1/artifacts/2' };

function outputs(): Record<string, string> {
  const view = buildRunView(loadStored('ab-arms'));
  return {
    'PR comment': renderComment({ view, links: LINKS }).body,
    'job summary': renderJobSummary({ view, links: LINKS }),
    'summary.md': renderSummaryMarkdown(view),
    terminal: renderTerminalTable(view, { width: 100 }).replace(/\n {4}(?=\S)/g, ' '),
  };
}

const times = (text: string, pattern: RegExp) => (text.match(new RegExp(pattern, 'g')) ?? []).length;

test('the A/B verdict, how long it measured and why it stopped appear once in every output', () => {
  for (const [name, text] of Object.entries(outputs())) {
    assert.equal(times(text, /proxy head vs base/), 1, `${name}: the A/B gate's verdict once`);
    assert.equal(times(text, /10 blocks, 33 s/), 1, `${name}: how long it measured once`);
    assert.equal(times(text, /look 3 of 3/), 1, `${name}: why it stopped once`);
    assert.equal(times(text, /→ inconclusive/), 1, `${name}: the A/B decision once`);
  }
});

test('the other gates and the verdict still read: the error gates listed, the verdict inconclusive', () => {
  const out = outputs();
  assert.match(out['PR comment']!, /<summary>Other gates: 3 checked, 0 failed<\/summary>/);
  assert.equal(times(out['PR comment']!, /load\.maxErrorRate 1\.00% → pass/), 3);
  assert.match(out['job summary']!, /### Other gates/);
  assert.match(out.terminal!, /Verdict: ⚠ INCONCLUSIVE — 1 gate inconclusive \(⚠ above\)/);
});
